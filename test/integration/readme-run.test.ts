/**
 * The README runs as written: its ```sh blocks, top to bottom, in one fresh temp home (data
 * directory, HOME, working folder), each line through bash with `mockdev` on the PATH (the built
 * CLI), as a new user would type them. What the test adds, and says so in its output:
 * - ports: each port a command names (3001, 3200, `-p 4000`, `localhost:4100`, …) and the
 *   settings' default ports are replaced by free ones from the OS, so that it runs beside anything;
 * - servers: a command that runs until Ctrl+C (`mockdev serve`, `ui`, `mcp --http`) is started
 *   in the background and waited for ("Press Ctrl+C"); a later one of the same kind in the block
 *   stands for Ctrl+C and a new command, so it stops the earlier one first, unless that was sent to
 *   the background with `&`; every server is stopped by its pid (its process group) at the end of
 *   its block;
 * - placeholders a reader fills in: `<KEY>` a license key signed by the test's key pair (the
 *   documented MOCKDEV_LICENSE_PUBLIC_KEY hook), `<ID>` the newest logged request of Payments (in a
 *   `requests` line) or its newest recording (in a `recording` line), `<RUN>` its newest flow run;
 * - stand-ins for the browser (`xdg-open`, and `MOCKDEV_APP_BROWSER` for `ui --app`), so that no
 *   window opens.
 * Every line must exit 0. A block marked `<!-- readme-test: not run: REASON -->` is listed with
 * its reason in the output, never skipped silently.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';
import { describe, it } from 'node:test';
import { CLI, ROOT, runCli, tempDir } from '../helpers/cli.js';
import { testSigner } from '../helpers/license.js';
import {
  commandLines,
  placeholdersOf,
  portsOf,
  readmeBlocks,
  serverOf,
  withPorts,
  type ReadmeBlock,
} from '../helpers/readme.js';
import { waitUntil } from '../helpers/wait.js';

const LINE_TIMEOUT_MS = 60_000;
const READY_TIMEOUT_MS = 30_000;

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

interface Server {
  kind: string;
  background: boolean;
  line: string;
  child: ChildProcess;
  out: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  done: () => boolean;
}

/** Signals a server's process group (its pid's: it was started detached), ignoring one gone. */
const signalGroup = (pid: number, signal: NodeJS.Signals): void => {
  try {
    process.kill(-pid, signal);
  } catch {
    // ended already
  }
};

async function stopServer(s: Server): Promise<void> {
  if (!s.done()) signalGroup(s.child.pid!, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(s.child.pid!, 'SIGKILL'), 10_000);
  const { code, signal } = await s.exited;
  clearTimeout(timer);
  assert.ok(
    code === 0 || (code === null && signal === 'SIGTERM'),
    `${s.line} ended with ${code ?? signal}:\n${s.out()}`,
  );
}

describe('README', () => {
  it('runs as written: every shell block, in order, in a fresh data directory', async (t) => {
    const blocks = readmeBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    const run = blocks.filter((b) => !b.notRun);
    assert.ok(run.length >= 15, `${run.length} blocks to run`);
    const notRun = blocks.filter((b) => b.notRun);
    for (const b of notRun) t.diagnostic(`not run: README.md:${b.line} (${b.heading}): ${b.notRun}`);
    assert.ok(notRun.length <= 8, `few blocks not run (${notRun.length})`);

    const tmp = tempDir('mockdev-readme-run-');
    const home = join(tmp.dir, 'home');
    const work = join(tmp.dir, 'work');
    const data = join(tmp.dir, 'data');
    const bin = join(tmp.dir, 'bin');
    for (const dir of [home, work, bin]) mkdirSync(dir, { recursive: true });
    writeFileSync(join(bin, 'mockdev'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
    // Stand-ins for the browser (`ui --open`, `ui --app`): they note the URL, and no window opens.
    for (const name of ['xdg-open', 'app-browser'])
      writeFileSync(join(bin, name), `#!/bin/sh\necho "$@" >> "${join(tmp.dir, 'opened.txt')}"\n`);
    for (const name of ['mockdev', 'xdg-open', 'app-browser']) chmodSync(join(bin, name), 0o755);
    const signer = testSigner();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: `${bin}${delimiter}${process.env.PATH}`,
      HOME: home,
      MOCKDEV_DATA_DIR: data,
      MOCKDEV_LOG_LEVEL: undefined,
      MOCKDEV_UI_TOKEN: undefined,
      MOCKDEV_MCP_TOKEN: undefined,
      MOCKDEV_LICENSE_URL: undefined,
      MOCKDEV_LICENSE_PUBLIC_KEY: signer.publicKeyPem,
      XDG_DATA_HOME: undefined,
      MOCKDEV_APP_BROWSER: join(bin, 'app-browser'),
    };
    const servers: Server[] = [];
    t.after(async () => {
      for (const s of servers) if (!s.done()) signalGroup(s.child.pid!, 'SIGKILL');
      await Promise.all(servers.map((s) => s.exited));
      tmp.cleanup();
    });

    // Free ports for those the README names and the settings' defaults (project, MCP, UI).
    const ports = new Map<number, number>();
    for (const port of [3001, 3100, 3200, ...portsOf(run.flatMap((b) => commandLines(b.code)))])
      if (!ports.has(port)) ports.set(port, await freePort());
    t.diagnostic(`ports: ${[...ports].map(([from, to]) => `${from}->${to}`).join(' ')}`);
    const mockdev = async (args: string[]) => {
      const r = await runCli(args, { dataDir: data, cwd: work, env });
      assert.equal(r.code, 0, `mockdev ${args.join(' ')}: ${r.stderr}`);
      return r.stdout;
    };
    await mockdev(
      ['settings', 'update', '--default-port', '3001', '--mcp-port', '3100', '--ui-port', '3200'].map((a) =>
        /^\d+$/.test(a) ? String(ports.get(Number(a))) : a,
      ),
    );

    const newest = async (args: string[], n: number): Promise<string> => {
      const list = JSON.parse(await mockdev([...args, '--json'])) as { id: string | number }[];
      assert.ok(list.length > n, `mockdev ${args.join(' ')} lists ${list.length}`);
      return String(list[n]!.id);
    };
    /** What a reader puts in place of the placeholders of a line. */
    const fill = async (line: string): Promise<string> => {
      let filled = line;
      const seen = new Map<string, number>();
      for (const name of placeholdersOf(line)) {
        const n = seen.get(name) ?? 0;
        seen.set(name, n + 1);
        let value: string;
        if (name === 'KEY') value = signer.key({ sub: 'you@example.com' });
        else if (name === 'RUN') value = await newest(['flow', 'runs', 'Payments'], n);
        else if (name === 'ID' && /mockdev requests /.test(line))
          value = await newest(['requests', 'list', 'Payments'], n);
        else if (name === 'ID' && /mockdev recording /.test(line))
          value = await newest(['recording', 'list', 'Payments/upstream'], n);
        else throw new Error(`README: no value for <${name}> in: ${line}`);
        filled = filled.replace(`<${name}>`, value);
      }
      return filled;
    };

    const runLine = (line: string, where: string) =>
      new Promise<void>((resolve, reject) => {
        const child = spawn('bash', ['-c', line], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
        child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
        const timer = setTimeout(() => child.kill('SIGKILL'), LINE_TIMEOUT_MS);
        child.on('error', reject);
        child.on('close', (code) => {
          clearTimeout(timer);
          if (code === 0) resolve();
          else reject(new Error(`${where}: exit ${code}\n$ ${line}\n${out}`));
        });
      });

    const startServer = async (line: string, where: string, kind: string, background: boolean) => {
      const code = line.replace(/\s*&\s*(#.*)?$/, '');
      const child = spawn('bash', ['-c', code], {
        cwd: work,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      let out = '';
      child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
      child.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
      let ended = false;
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.on('exit', (c, s) => {
          ended = true;
          resolve({ code: c, signal: s });
        }),
      );
      const server: Server = { kind, background, line, child, out: () => out, exited, done: () => ended };
      servers.push(server);
      await waitUntil(
        () => /Press Ctrl\+C/.test(out) || ended,
        `${where}: ${line} to be ready`,
        READY_TIMEOUT_MS,
      );
      if (ended && !/Press Ctrl\+C/.test(out)) {
        const { code: exit } = await exited;
        throw new Error(`${where}: the server ended (exit ${exit}) before it was ready\n$ ${line}\n${out}`);
      }
    };

    const runBlock = async (block: ReadmeBlock) => {
      const mine: Server[] = [];
      try {
        for (const raw of commandLines(block.code)) {
          const where = `README.md:${block.line} (${block.heading})`;
          const line = withPorts(await fill(raw), ports);
          const server = serverOf(line);
          if (!server) {
            await runLine(line, where);
            continue;
          }
          // A foreground server stands for Ctrl+C in that terminal, then the new command.
          if (!server.background)
            for (const s of mine.filter((x) => x.kind === server.kind && !x.background)) await stopServer(s);
          const before = servers.length;
          await startServer(line, where, server.kind, server.background);
          mine.push(...servers.slice(before));
        }
      } finally {
        for (const s of mine) await stopServer(s);
      }
    };

    const started = Date.now();
    for (const block of run) {
      const at = Date.now();
      await runBlock(block);
      t.diagnostic(`ran README.md:${block.line} (${block.heading}) in ${Date.now() - at} ms`);
    }
    t.diagnostic(
      `${run.length} blocks in ${Date.now() - started} ms; ${notRun.length} not run (listed above)`,
    );
  });
});
