/**
 * Tunnels end to end, without the network (docs/tunnels.md): a stand-in `cloudflared`
 * (test/fixtures/tunnels/cloudflared) prints what the real program prints and stays running.
 * The CLI runs as built (`npm run build` first) with a temp data dir; every process a test
 * starts is killed by pid after it, and each test checks that none is left behind.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { assertCliError, json } from '../helpers/cli.js';
import { endpointOf } from '../helpers/endpoint.js';
import { callback, flow, onRequest, saveProject, startReceiver } from '../helpers/flow-runtime.js';
import { PRO_ENV, proSandbox, startProServer } from '../helpers/pro.js';
import { makeCertificate } from '../helpers/https.js';
import { startServe } from '../helpers/server.js';
import {
  ended,
  FAKE_CLOUDFLARED,
  FAKE_URL,
  killPid,
  PATH_WITH_FAKE,
  pidIn,
  startListening,
  waitEnded,
} from '../helpers/tunnels.js';
import { waitUntil } from '../helpers/wait.js';

interface Status {
  running: boolean;
  provider?: string;
  url?: string;
  port?: number;
  pid?: number;
  startedAt?: string;
  withServer?: boolean;
}

/** A Pro sandbox with a project "hooks" whose endpoint and flow callback use {{tunnel.url}}. */
async function setUp(t: { after(fn: () => unknown): void }) {
  const box = await proSandbox(t);
  const created = await box.cli(['project', 'create', 'hooks', '--json']);
  assert.equal(created.code, 0, created.stderr);
  const { id } = json<{ id: string }>(created);
  const files = join(box.dir, 'files');
  const env = (extra: Record<string, string> = {}) => ({
    MOCKDEV_CLOUDFLARED_PATH: FAKE_CLOUDFLARED,
    FAKE_CLOUDFLARED_PID_FILE: join(box.dir, 'cloudflared.pid'),
    FAKE_CLOUDFLARED_CHILD_FILE: join(box.dir, 'child.pid'),
    FAKE_CLOUDFLARED_ARGS_FILE: join(box.dir, 'args.json'),
    ...extra,
  });
  // Every process a tunnel started goes after the test, whatever happened.
  box.defer(() => {
    for (const f of ['cloudflared.pid', 'child.pid'])
      if (existsSync(join(box.dir, f))) killPid(Number(readFileSync(join(box.dir, f), 'utf8')));
  });
  return { box, id, files, env };
}

const status = async (box: Awaited<ReturnType<typeof setUp>>['box'], project: string) => {
  const r = await box.spawn(['tunnel', 'status', project, '--json']);
  assert.equal(r.code, 0, r.stderr);
  return json<Status>(r);
};

describe('tunnel start, status, stop (cloudflared stand-in)', () => {
  it("tunnels the project's running server, outlives the command, gives {{tunnel.url}}, and stops with nothing left", async (t) => {
    const { box, id, env } = await setUp(t);
    const receiver = await startReceiver(t);
    const { ctx, server } = await startProServer(box, id);
    await saveProject(ctx, id, {
      endpoints: [endpointOf('where', { body: 'public at {{tunnel.url}}' })],
      flows: [
        flow('hook', [
          {
            id: 's1',
            trigger: onRequest('where'),
            action: callback(`${receiver.url}/hook`, { body: '{"callbackTo":"{{tunnel.url}}/where"}' }),
          },
        ]),
      ],
    });

    const started = await box.spawn(['tunnel', 'start', 'hooks'], { env: env() });
    assert.equal(started.code, 0, started.stderr);
    assert.match(started.stdout, new RegExp(`Tunnel started: ${FAKE_URL} -> 127\\.0\\.0\\.1:${server.port}`));
    const pid = await pidIn(join(box.dir, 'cloudflared.pid'));
    const child = await pidIn(join(box.dir, 'child.pid'));
    assert.deepEqual(JSON.parse(readFileSync(join(box.dir, 'args.json'), 'utf8')), [
      'tunnel',
      '--no-autoupdate',
      '--url',
      `http://127.0.0.1:${server.port}`,
    ]);
    // The command has exited; the tunnel runs on.
    assert.equal(ended(pid), false);
    const s = await status(box, 'hooks');
    assert.deepEqual(
      { running: s.running, provider: s.provider, url: s.url, port: s.port, pid: s.pid },
      { running: true, provider: 'cloudflared', url: FAKE_URL, port: server.port, pid },
    );
    assert.ok(Date.parse(s.startedAt!) > 0);

    // A second start says the running one's URL and starts nothing.
    const again = await box.spawn(['tunnel', 'start', 'hooks', '--json'], { env: env() });
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(
      (({ url, pid: p, alreadyRunning }) => ({ url, pid: p, alreadyRunning }))(
        json<Status & { alreadyRunning: boolean }>(again),
      ),
      { url: FAKE_URL, pid, alreadyRunning: true },
    );
    assert.equal(Number(readFileSync(join(box.dir, 'cloudflared.pid'), 'utf8')), pid);

    // The running server sees the tunnel: in a response template and in a flow callback.
    await waitUntil(
      async () => (await (await fetch(`${server.url}/where`)).text()) === `public at ${FAKE_URL}`,
      'the template to give the tunnel URL',
    );
    await waitUntil(() => receiver.received.some((r) => r.body.includes(FAKE_URL)), 'the callback');
    const hook = receiver.received.find((r) => r.body.includes(FAKE_URL))!;
    assert.deepEqual(JSON.parse(hook.body), { callbackTo: `${FAKE_URL}/where` });

    const stopped = await box.spawn(['tunnel', 'stop', 'hooks']);
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.match(stopped.stdout, new RegExp(`Stopped the tunnel ${FAKE_URL} \\(pid ${pid}\\)`));
    await waitEnded(pid, 'cloudflared to end');
    await waitEnded(child, "cloudflared's child to end");
    assert.deepEqual(await status(box, 'hooks'), { running: false });
    assert.deepEqual(
      readdirSync(join(box.dataDir, 'tunnels')).filter((n) => n !== 'guarded'),
      [],
    );
    await waitUntil(
      async () => (await (await fetch(`${server.url}/where`)).text()) === 'public at ',
      'the template to see the tunnel gone',
    );
    const human = await box.spawn(['tunnel', 'stop', 'hooks']);
    assert.match(human.stdout, /No tunnel is running for "hooks"/);
  });

  it('status cleans up a tunnel whose process died, and never shows it as running', async (t) => {
    const { box, env } = await setUp(t);
    const started = await box.spawn(['tunnel', 'start', 'hooks', '-P', '45678'], { env: env() });
    assert.equal(started.code, 0, started.stderr);
    const pid = await pidIn(join(box.dir, 'cloudflared.pid'));
    killPid(pid);
    await waitEnded(pid, 'cloudflared to be killed');
    assert.deepEqual(await status(box, 'hooks'), { running: false });
    assert.equal(existsSync(join(box.dataDir, 'tunnels', 'hooks.json')), false);
    const human = await box.spawn(['tunnel', 'status', 'hooks']);
    assert.match(human.stdout, /No tunnel is running for "hooks"/);
  });
});

describe('serve --tunnel', () => {
  it('starts a tunnel with the server, prints and records its URL, and stops it with the server', async (t) => {
    const { box, id, env } = await setUp(t);
    const { ctx } = await startProServer(box, id).then(async (s) => (await s.server.stop(), s));
    await saveProject(ctx, id, { endpoints: [endpointOf('where', { body: '{{tunnel.url}}' })] });
    const serve = await startServe(['hooks', '--tunnel'], {
      dataDir: box.dataDir,
      env: { MOCKDEV_LICENSE_PUBLIC_KEY: PRO_ENV.MOCKDEV_LICENSE_PUBLIC_KEY, ...env() },
    });
    t.after(() => serve.stop());
    await waitUntil(() => serve.stdout().includes('Public URL'), 'the public URL');
    assert.match(serve.stdout(), new RegExp(`Public URL: ${FAKE_URL}`));
    const pid = await pidIn(join(box.dir, 'cloudflared.pid'));
    const listed = await box.spawn(['status', '--json']);
    assert.equal(json<{ tunnelUrl?: string }[]>(listed)[0]!.tunnelUrl, FAKE_URL);
    const table = await box.spawn(['status']);
    assert.match(table.stdout, /PUBLIC URL/);
    assert.match(table.stdout, new RegExp(FAKE_URL));
    const s = await status(box, 'hooks');
    assert.equal(s.withServer, true);
    assert.equal(s.port, serve.port);
    assert.equal(await (await fetch(`${serve.url}/where`)).text(), FAKE_URL);

    assert.equal(await serve.stop(), 0, serve.stderr());
    await waitEnded(pid, 'the tunnel to stop with the server');
    await waitEnded(await pidIn(join(box.dir, 'child.pid')), "cloudflared's child to end");
    assert.deepEqual(await status(box, 'hooks'), { running: false });
  });

  it("tunnels an HTTPS server as https, not checking its certificate (the local CA or the user's own)", async (t) => {
    const { box, env } = await setUp(t);
    const own = await makeCertificate(box.dir);
    const serve = await startServe(['hooks', '--cert', own.certFile, '--key', own.keyFile, '--tunnel'], {
      dataDir: box.dataDir,
      env: { MOCKDEV_LICENSE_PUBLIC_KEY: PRO_ENV.MOCKDEV_LICENSE_PUBLIC_KEY, ...env() },
    });
    t.after(() => serve.stop());
    await waitUntil(() => serve.stdout().includes('Public URL'), 'the public URL');
    const args = JSON.parse(readFileSync(join(box.dir, 'args.json'), 'utf8')) as string[];
    assert.equal(args[args.indexOf('--url') + 1], `https://127.0.0.1:${serve.port}`);
    assert.ok(args.includes('--no-tls-verify'), args.join(' '));
    assert.match(
      (await box.spawn(['tunnel', 'status', 'hooks'])).stdout,
      new RegExp(`-> https://127\\.0\\.0\\.1:${serve.port} `),
    );
    assert.equal(await serve.stop(), 0, serve.stderr());
  });

  it('a server killed outright leaves no tunnel: the next look at it stops the tunnel', async (t) => {
    const { box, env } = await setUp(t);
    const serve = await startServe(['hooks', '--tunnel', 'cloudflared'], {
      dataDir: box.dataDir,
      env: { MOCKDEV_LICENSE_PUBLIC_KEY: PRO_ENV.MOCKDEV_LICENSE_PUBLIC_KEY, ...env() },
    });
    t.after(() => serve.stop());
    await waitUntil(() => serve.stdout().includes('Public URL'), 'the public URL');
    const pid = await pidIn(join(box.dir, 'cloudflared.pid'));
    serve.child.kill('SIGKILL');
    await serve.exited;
    assert.equal(ended(pid), false, 'the tunnel outlived its server for now');
    assert.deepEqual(await status(box, 'hooks'), { running: false });
    await waitEnded(pid, 'the orphaned tunnel to be stopped');
  });
});

describe('tunnel start failures leave nothing behind', () => {
  it('a provider that exits early: exit 1 quoting its last lines, no record, no process', async (t) => {
    const { box, env } = await setUp(t);
    const r = await box.spawn(['tunnel', 'start', 'hooks', '-P', '45679'], {
      env: env({ FAKE_CLOUDFLARED_MODE: 'exit' }),
    });
    assertCliError(
      r,
      1,
      /cloudflared exited with code 1.*Its last output: .*failed to unmarshal quick Tunnel/,
    );
    // The service's API named in the error is no tunnel URL.
    assert.doesNotMatch(r.stderr, /Tunnel started/);
    const pid = await pidIn(join(box.dir, 'cloudflared.pid'));
    assert.equal(ended(pid), true);
    assert.deepEqual(readdirSync(join(box.dataDir, 'tunnels')), []);
    assert.deepEqual(await status(box, 'hooks'), { running: false });
  });

  it('no URL in time: exit 1 quoting its output, the process and its children killed', async (t) => {
    const { box, env } = await setUp(t);
    const r = await box.spawn(['tunnel', 'start', 'hooks', '-P', '45680'], {
      env: env({ FAKE_CLOUDFLARED_MODE: 'silent', MOCKDEV_TUNNEL_TIMEOUT_MS: '1500' }),
    });
    assertCliError(
      r,
      1,
      /cloudflared gave no public URL within 1\.5 s \(MOCKDEV_TUNNEL_TIMEOUT_MS\)\. Its last output: .*metrics server/,
    );
    await waitEnded(await pidIn(join(box.dir, 'cloudflared.pid')), 'cloudflared to be killed');
    await waitEnded(await pidIn(join(box.dir, 'child.pid')), "cloudflared's child to be killed");
    assert.deepEqual(readdirSync(join(box.dataDir, 'tunnels')), []);
  });

  it('a missing program: exit 1 pointing at "tunnel install"', async (t) => {
    const { box } = await setUp(t);
    const r = await box.spawn(['tunnel', 'start', 'hooks', '-P', '45681'], {
      env: { MOCKDEV_CLOUDFLARED_PATH: join(box.dir, 'no-such-cloudflared') },
    });
    assertCliError(
      r,
      1,
      /cloudflared is not installed: MOCKDEV_CLOUDFLARED_PATH=.* is not an executable file.*mockdev tunnel install/,
    );
  });

  it('neither a running server nor -P: exit 1 saying to start the server or pass -P', async (t) => {
    const { box, env } = await setUp(t);
    const r = await box.cli(['tunnel', 'start', 'hooks'], { env: env() });
    assertCliError(r, 1, /"hooks" has no running mock server to tunnel to.*mockdev serve hooks.*--port/);
    assert.equal(existsSync(join(box.dir, 'cloudflared.pid')), false);
  });

  it('refuses the port of a running "mockdev ui" and the settings\' MCP port (exit 2): the admin API is never tunnelled', async (t) => {
    const { box, env } = await setUp(t);
    const ui = await startListening(['ui', '-p', '0'], { dataDir: box.dataDir });
    t.after(() => ui.stop());
    const r = await box.cli(['tunnel', 'start', 'hooks', '-P', String(ui.port)], { env: env() });
    assertCliError(
      r,
      2,
      new RegExp(
        `Port ${ui.port} is the port of the running "mockdev ui" \\(pid ${ui.child.pid}\\): the admin API and the MCP server are never tunnelled`,
      ),
    );
    const mcp = await box.cli(['tunnel', 'start', 'hooks', '-P', '3100'], { env: env() });
    assertCliError(mcp, 2, /Port 3100 is the port of "mockdev mcp --http" \(the setting mcpPort\)/);
    assert.equal(existsSync(join(box.dir, 'cloudflared.pid')), false);
    // Once the UI is gone, its port is an ordinary one.
    await ui.stop();
    const after = await box.cli(['tunnel', 'start', 'hooks', '-P', String(ui.port)], { env: env() });
    assert.equal(after.code, 0, after.stderr);
    assert.equal((await box.cli(['tunnel', 'stop', 'hooks'])).code, 0);
  });

  it('without a license every tunnel command is refused (exit 1)', async (t) => {
    const box = await proSandbox(t, { activate: false });
    await box.cli(['project', 'create', 'hooks']);
    for (const args of [
      ['start', 'hooks', '-P', '45682'],
      ['status', 'hooks'],
      ['stop', 'hooks'],
      ['install'],
    ]) {
      const r = await box.cli(['tunnel', ...args], { env: { MOCKDEV_CLOUDFLARED_PATH: FAKE_CLOUDFLARED } });
      assertCliError(r, 1, /"tunnel" needs a Pro license/);
    }
  });
});

describe('tunnel install', () => {
  it('says each provider is available, with its version (cloudflared first on PATH)', async (t) => {
    const { box } = await setUp(t);
    const r = await box.spawn(['tunnel', 'install', '--json'], { env: { PATH: PATH_WITH_FAKE } });
    assert.equal(r.code, 0, r.stderr);
    const [cf, ng] = json<{ provider: string; available: boolean; version?: string; detail: string }[]>(r);
    assert.deepEqual(
      { provider: cf!.provider, available: cf!.available, version: cf!.version, detail: cf!.detail },
      { provider: 'cloudflared', available: true, version: '2024.8.2', detail: FAKE_CLOUDFLARED },
    );
    assert.equal(ng!.provider, 'ngrok');
    assert.equal(ng!.available, true, ng!.detail);
    assert.equal(ng!.version, '1.7.0');
  });

  it('says how to install a missing cloudflared on this system, and exits 0', async (t) => {
    const { box } = await setUp(t);
    const r = await box.spawn(['tunnel', 'install'], { env: { PATH: '/nonexistent-mockdev-test' } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /cloudflared: not available: cloudflared was not found on PATH/);
    assert.match(
      r.stdout,
      /Install it:\n\s+curl .*cloudflared-linux-.*\.deb && sudo dpkg -i cloudflared\.deb/,
    );
    assert.match(r.stdout, /Or download it: https:\/\/developers\.cloudflare\.com\//);
    assert.match(r.stdout, /ngrok: available/);
  });
});
