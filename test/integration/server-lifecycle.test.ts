import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scanFrames } from '../../src/store/request-log/frame.js';
import { listSpool, readSpool } from '../../src/store/request-log/spool.js';
import { assertCliError, json, runCli, tempDir } from '../helpers/cli.js';
import { runCliInProcess } from '../helpers/cli-inprocess.js';
import { makeProject, startServe, waitUntil, writeEndpoints, type ServeHandle } from '../helpers/server.js';

const ok = { id: 'ok', path: '/ok', body: '{"ok":true}' };

/** Keep-alive load from `connections` loops until stop(); counts the 200s answered. */
function startLoad(url: string, connections: number): { readonly answered: number; stop(): Promise<void> } {
  let answered = 0;
  let stopping = false;
  const worker = async () => {
    while (!stopping) {
      try {
        const res = await fetch(url);
        await res.text();
        if (res.status === 200) answered++;
      } catch {
        return; // the server went away
      }
    }
  };
  const workers = Array.from({ length: connections }, worker);
  return {
    get answered() {
      return answered;
    },
    stop: async () => {
      stopping = true;
      await Promise.all(workers);
    },
  };
}

/**
 * A data dir of the test's own. `serve` spawns `mockdev serve` (stopped after the test), `spawn`
 * the CLI binary; `cli` runs the CLI in-process (status, stop and requests from "another
 * process": the servers are spawned).
 */
function sandbox(t: { after(fn: () => void | Promise<void>): void }) {
  const tmp = tempDir();
  const servers: ServeHandle[] = [];
  t.after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    tmp.cleanup();
  });
  return {
    tmp,
    serve: async (args: string[], opts: { cwd?: string } = {}) => {
      const s = await startServe(args, { dataDir: tmp.dir, ...opts });
      servers.push(s);
      return s;
    },
    spawn: (args: string[], opts: { cwd?: string } = {}) => runCli(args, { dataDir: tmp.dir, ...opts }),
    cli: (args: string[]) => runCliInProcess(args, { dataDir: tmp.dir }),
  };
}

describe('mock server: start, stop, status, reload', () => {
  it('refuses an unknown project (exit 3), a bad port or host (exit 2)', async (t) => {
    const { tmp, spawn } = sandbox(t);
    const unknown = await spawn(['serve', 'no-such-project', '-p', '0']);
    assert.equal(unknown.code, 3);
    assert.match(unknown.stderr, /^mockdev: Project "no-such-project" not found/);
    assert.equal(unknown.stderr.trim().split('\n').length, 1);
    const empty = tempDir();
    try {
      const none = await spawn(['serve'], { cwd: empty.dir });
      assert.equal(none.code, 3);
      assert.match(none.stderr, /project\.json is missing/);
    } finally {
      empty.cleanup();
    }
    await makeProject(tmp.dir, 'args', [ok]);
    for (const port of ['80', '70000', 'abc']) {
      const bad = await spawn(['serve', 'args', '-p', port]);
      assert.equal(bad.code, 2, `port ${port}: ${bad.stderr}`);
      assert.match(bad.stderr, /port/i);
      assert.equal(bad.stderr.trim().split('\n').length, 1);
    }
    const badHost = await spawn(['serve', 'args', '-p', '0', '--host', '203.0.113.99']);
    assert.equal(badHost.code, 2, badHost.stderr);
    assert.match(badHost.stderr, /host/);
  });

  it('exits 4 naming the port when it is busy', async (t) => {
    const { tmp, spawn } = sandbox(t);
    await makeProject(tmp.dir, 'args', [ok]);
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const busy = await spawn(['serve', 'args', '-p', String(port)]);
      assert.equal(busy.code, 4, busy.stderr);
      assert.match(busy.stderr, new RegExp(`Port ${port} is already in use.*-p`));
      assert.equal(busy.stderr.trim().split('\n').length, 1);
    } finally {
      blocker.close();
    }
  });

  it('serves the project in the current folder, prints URL and endpoints; status and stop work from another process', async (t) => {
    const { tmp, serve, spawn, cli } = sandbox(t);
    const folder = join(tmp.dir, 'folder-project');
    mkdirSync(folder);
    assert.equal((await cli(['init', folder, '--with-examples', '-n', 'folder'])).code, 0);
    const s = await serve([], { cwd: folder });
    // The URL line can arrive before the endpoint table (separate writes): wait for the table.
    await waitUntil(() => /GET .*\/api\/users\/:id/.test(s.stdout()), 'the endpoint table on stdout');
    assert.equal((await fetch(`${s.url}/health`)).status, 200);

    const status = json<{ pid: number; url: string; projectName: string; uptimeMs: number }[]>(
      await cli(['status', '--json']),
    );
    const mine = status.find((x) => x.pid === s.child.pid);
    assert.ok(mine, 'status lists the server');
    assert.equal(mine.url, s.url);
    assert.equal(mine.projectName, 'folder');
    assert.match(
      (await spawn(['status'])).stdout,
      new RegExp(`folder\\s+${s.url.replace(/[.:/]/g, '\\$&')}\\s+${s.child.pid}`),
    );

    const stopped = await spawn(['stop', folder]);
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.match(stopped.stdout, /Stopped "folder"/);
    assert.equal(await s.exited, 0);
    assert.deepEqual(json(await cli(['status', '--json'])), []);
    assert.match((await cli(['status'])).stdout, /No mockdev server is running/);
    assert.match((await cli(['stop'])).stdout, /No mockdev server is running/);
  });

  it('a project folder it serves is reached by the name and id status shows, while it runs and after it stops', async (t) => {
    const { tmp, serve, cli } = sandbox(t);
    // A project folder this data directory has never seen (made with another one, as a clone
    // of a repository holding project.json would be).
    const folder = join(tmp.dir, 'shop-api');
    const made = await runCliInProcess(['init', folder, '--with-examples', '-n', 'Shop', '--json'], {
      dataDir: join(tmp.dir, 'elsewhere'),
    });
    const id = json<{ id: string }>(made).id;
    assert.deepEqual(json(await cli(['list', '--json'])), [], 'unknown here before it is served');

    const s = await serve([], { cwd: folder });
    const [running] = json<{ projectId: string; projectName: string }[]>(await cli(['status', '--json']));
    assert.deepEqual([running?.projectName, running?.projectId], ['Shop', id]);
    assert.match((await cli(['status'])).stdout, new RegExp(`^PROJECT .*PROJECT ID\n.*Shop .*${id}$`, 'm'));
    assert.deepEqual(
      json<{ id: string; name: string; dir?: string }[]>(await cli(['list', '--json'])).map((p) => [
        p.id,
        p.name,
        p.dir,
      ]),
      [[id, 'Shop', folder]],
    );
    assert.match((await cli(['list'])).stdout, new RegExp(`${id}\\s+Shop\\s+3001\\s+4\\s+${folder}`));
    for (const path of ['/health', '/api/users']) await (await fetch(`${s.url}${path}`)).text();
    const logged = (ref: string) =>
      cli(['requests', 'list', ref, '--json']).then((r) =>
        json<{ path: string }[]>(r)
          .map((x) => x.path)
          .join(' '),
      );
    await waitUntil(async () => (await logged('Shop')) === '/api/users /health', 'the requests, by name');
    assert.equal(await logged(id), '/api/users /health');

    const stopped = await cli(['stop', 'Shop']);
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.match(stopped.stdout, /^Stopped "Shop"/);
    assert.equal(await s.exited, 0);
    assert.equal(await logged('shop'), '/api/users /health', 'the log, after the stop');
    assert.equal(await logged(id), '/api/users /health');
    assert.equal(json<unknown[]>(await cli(['list', '--json'])).length, 1);

    const again = await serve([folder]);
    const byId = await cli(['stop', id]);
    assert.equal(byId.code, 0, byId.stderr);
    assert.match(byId.stdout, /^Stopped "Shop"/);
    assert.equal(await again.exited, 0);
  });

  it('stop reaches a server by the name and id status shows even when its project folder is gone', async (t) => {
    const { tmp, serve, cli } = sandbox(t);
    const folder = join(tmp.dir, 'doomed');
    assert.equal((await cli(['init', folder, '-n', 'Doomed'])).code, 0);
    const first = await serve([folder]);
    const second = await serve([folder]);
    const { projectId } = json<{ projectId: string }[]>(await cli(['status', '--json']))[0]!;
    rmSync(folder, { recursive: true });
    const byName = await cli(['stop', 'doomed']);
    assert.equal(byName.code, 0, byName.stderr);
    assert.equal((byName.stdout.match(/^Stopped "Doomed"/gm) ?? []).length, 2);
    assert.deepEqual([await first.exited, await second.exited], [0, 0]);
    assertCliError(await cli(['stop', projectId]), 3, /Project ".*" not found/);
  });

  it('cleans a stale record of a killed server and never reports it as running', async (t) => {
    const { tmp, serve, cli } = sandbox(t);
    await makeProject(tmp.dir, 'args', [ok]);
    const s = await serve(['args']);
    s.child.kill('SIGKILL');
    await s.exited;
    const files = readdirSync(join(tmp.dir, 'servers'));
    assert.ok(files.includes(`${s.child.pid}-${s.port}.json`), 'the killed server left its record');
    assert.deepEqual(json(await cli(['status', '--json'])), []);
    assert.ok(
      !readdirSync(join(tmp.dir, 'servers')).includes(`${s.child.pid}-${s.port}.json`),
      'stale record removed',
    );
    // a record (in the name an earlier mockdev gave it) of a pid that never was a server
    writeFileSync(
      join(tmp.dir, 'servers', '999999.json'),
      JSON.stringify({
        pid: 999999,
        projectId: 'x',
        projectName: 'ghost',
        projectDir: '/nowhere',
        host: '127.0.0.1',
        port: 1,
        url: 'http://127.0.0.1:1',
        startedAt: new Date().toISOString(),
      }),
    );
    assert.match((await cli(['status'])).stdout, /No mockdev server is running/);
  });

  it('serves several projects at once; stop <PROJECT> stops only that one', async (t) => {
    const { tmp, serve, cli } = sandbox(t);
    await makeProject(tmp.dir, 'args', [ok]);
    await makeProject(tmp.dir, 'second', [ok]);
    const a = await serve(['args']);
    const b = await serve(['second']);
    const listed = json<{ pid: number }[]>(await cli(['status', '--json']));
    assert.deepEqual(new Set(listed.map((x) => x.pid)), new Set([a.child.pid, b.child.pid]));
    assert.equal((await cli(['stop', 'second'])).code, 0);
    assert.equal(await b.exited, 0);
    assert.equal((await fetch(`${a.url}/ok`)).status, 200);
    assert.equal((await cli(['stop'])).code, 0);
    assert.equal(await a.exited, 0);
  });

  it('project delete from another process stops the server serving it and clears its log', async (t) => {
    const { tmp, serve, cli } = sandbox(t);
    await makeProject(tmp.dir, 'doomed', [ok]);
    await makeProject(tmp.dir, 'kept', [ok]);
    const doomed = await serve(['doomed']);
    const kept = await serve(['kept']);
    for (const url of [doomed.url, kept.url]) assert.equal((await fetch(`${url}/ok`)).status, 200);
    const deleted = await cli(['project', 'delete', 'doomed', '--force']);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.match(deleted.stdout, /Deleted project "doomed" \(id [\w-]+\) and its 1 logged request\(s\)/);
    assert.equal(await doomed.exited, 0);
    assert.match(doomed.stderr(), /The project "doomed" was deleted: stopping its server/);
    assert.deepEqual(
      json<{ projectName: string }[]>(await cli(['status', '--json'])).map((s) => s.projectName),
      ['kept'],
    );
    assert.equal((await fetch(`${kept.url}/ok`)).status, 200, 'the other server keeps serving');
  });

  it('applies endpoint changes live: CLI edits, hand edits; a broken edit keeps the last good endpoints', async (t) => {
    const { tmp, serve, cli } = sandbox(t);
    const project = await makeProject(tmp.dir, 'live', [ok]);
    const s = await serve(['live']);
    assert.equal((await fetch(`${s.url}/new`)).status, 404);
    const added = await cli(['endpoint', 'add', 'live', '-p', '/new', '-b', '{"fresh":1}']);
    assert.equal(added.code, 0, added.stderr);
    await waitUntil(async () => (await fetch(`${s.url}/new`)).status === 200, 'the CLI-added endpoint');
    assert.equal((await cli(['endpoint', 'disable', 'live', 'GET /new'])).code, 0);
    await waitUntil(async () => (await fetch(`${s.url}/new`)).status === 404, 'the endpoint disabled');

    writeEndpoints(project.dir, [{ ...ok, body: '{"edited":true}' }]);
    await waitUntil(
      async () => (await (await fetch(`${s.url}/ok`)).text()) === '{"edited":true}',
      'the hand edit',
    );

    writeFileSync(join(project.dir, 'endpoints.json'), '[{"id": "broken", ');
    await waitUntil(
      () => /endpoints\.json.*last good endpoints/.test(s.stderr()),
      'a warning about the broken file',
    );
    assert.equal(await (await fetch(`${s.url}/ok`)).text(), '{"edited":true}');
    writeEndpoints(project.dir, [{ ...ok, body: '{"fixed":true}' }]);
    await waitUntil(
      async () => (await (await fetch(`${s.url}/ok`)).text()) === '{"fixed":true}',
      'the fixed file',
    );
    assert.equal(await s.stop(), 0);
  });

  it('another process sees the records while the server runs under load; ids stay stable', async (t) => {
    const { tmp, serve, cli } = sandbox(t);
    const project = await makeProject(tmp.dir, 'busy', [ok]);
    const s = await serve(['busy']);
    const load = startLoad(`${s.url}/ok`, 8);
    try {
      await waitUntil(() => load.answered >= 200, '200 answered requests', 30_000);
      // The server spools batches and expands them only when idle: the CLI expands them
      // itself. Every request answered before it started is spooled by then.
      const before = load.answered;
      const listed = json<{ id: string; path: string }[]>(
        await cli(['requests', 'list', project.id, '--json', '-l', '1000000']),
      );
      assert.ok(listed.length >= before, `listed ${listed.length} >= answered before ${before}`);
      const newest = listed[0]!;
      const shown = json<{ id: string; path: string }>(await cli(['requests', 'show', newest.id, '--json']));
      assert.deepEqual([shown.id, shown.path], [newest.id, '/ok']);
      await load.stop();
      assert.equal(await s.stop(), 0);
      const after = json<{ id: string; path: string }[]>(
        await cli(['requests', 'list', project.id, '--json', '-l', '1000000']),
      );
      const ids = new Set(after.map((r) => r.id));
      assert.ok(
        listed.every((r) => ids.has(r.id)),
        'every id listed while serving is still there after the stop',
      );
      assert.ok(after.length >= load.answered, `logged ${after.length} >= answered ${load.answered}`);
    } finally {
      await load.stop();
    }
  });

  it('loses no log record on SIGTERM under load, and keeps records across a restart', async (t) => {
    const { tmp, serve, cli } = sandbox(t);
    const project = await makeProject(tmp.dir, 'durable', [ok]);
    const s = await serve(['durable']);
    const load = startLoad(`${s.url}/ok`, 16);
    await waitUntil(() => load.answered >= 500, '500 answered requests', 30_000);
    const code = await s.stop();
    await load.stop();
    const answered = load.answered;
    assert.equal(code, 0);
    const count = (id: string) =>
      cli(['requests', 'list', id, '--json', '-l', '1000000']).then((r) => json<unknown[]>(r).length);
    const logged = await count(project.id);
    assert.ok(logged >= answered, `logged ${logged} >= answered ${answered}`);
    assert.ok(logged <= answered + 16, `logged ${logged} <= answered ${answered} + in flight`);

    const again = await serve(['durable']);
    await fetch(`${again.url}/ok`).then((r) => r.text());
    await waitUntil(async () => (await count(project.id)) === logged + 1, 'old records plus the new one');
    assert.equal(await again.stop(), 0);
    assert.ok(readFileSync(join(tmp.dir, 'requests.db')).length > 0);
  });

  it('on SIGTERM, ends a pending delay at once: the request is answered and logged, the process exits', async (t) => {
    const { tmp, cli } = sandbox(t);
    const project = await makeProject(tmp.dir, 'sleepy', [
      { id: 'slow', path: '/slow', delay: 8000, body: 'late' },
    ]);
    const s = await startServe(['sleepy'], { dataDir: tmp.dir, env: { MOCKDEV_LOG_LEVEL: 'trace' } });
    t.after(() => s.stop());
    const answer = fetch(`${s.url}/slow`).then(async (r) => ({ status: r.status, body: await r.text() }));
    await waitUntil(() => s.stderr().includes('<- GET /slow'), 'the request to arrive');
    const started = Date.now();
    s.child.kill('SIGTERM');
    assert.deepEqual(await answer, { status: 200, body: 'late' });
    assert.equal(await s.exited, 0);
    const tookMs = Date.now() - started;
    assert.ok(tookMs < 6000, `exited ${tookMs} ms after SIGTERM, before the 8 s delay would have ended`);
    const logged = json<{ path: string; status: number }[]>(
      await cli(['requests', 'list', project.id, '--json']),
    );
    assert.deepEqual(
      logged.map((r) => [r.path, r.status]),
      [['/slow', 200]],
    );
  });

  it('keeps what a killed server spooled: the next reader expands it and deletes its file', async (t) => {
    const { tmp, serve, cli } = sandbox(t);
    const project = await makeProject(tmp.dir, 'killed', [ok]);
    const s = await serve(['killed']);
    for (let i = 0; i < 20; i++) await fetch(`${s.url}/ok`).then((r) => r.text());
    const spool = join(tmp.dir, 'requests-spool');
    const spooled = () =>
      listSpool(spool)
        .map((f) => readSpool(f.path))
        .filter((c) => c !== null && c.header.projectId === project.id)
        .reduce((n, c) => n + scanFrames(c!.data, 0).frames.reduce((k, f) => k + f.count, 0), 0);
    await waitUntil(() => spooled() >= 20, 'the 20 records spooled');
    s.child.kill('SIGKILL');
    await s.exited;
    const listed = json<{ path: string }[]>(
      await cli(['requests', 'list', project.id, '--json', '-l', '100']),
    );
    assert.equal(listed.length, 20);
    assert.equal(spooled(), 0, 'its spool file was deleted once read');
  });
});
