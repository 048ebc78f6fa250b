import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { runCliInProcess, type InProcessOptions } from '../../test/helpers/cli-inprocess.js';
import { cliContext } from './handlers/context.js';
import { currentIo, currentRun, runWithIo, type CliIo } from './io.js';
import { enabled, initLogLevel, log } from './log.js';
import { note, printLine } from './output.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mockdev-io-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** An io over string buffers. */
function bufferIo(name: string, env: NodeJS.ProcessEnv = {}) {
  const out = { stdout: '', stderr: '' };
  const sink = (key: keyof typeof out) =>
    new Writable({
      write(chunk: Buffer, _enc, done) {
        out[key] += chunk.toString('utf8');
        done();
      },
    });
  const io: CliIo = {
    stdin: Readable.from([]),
    stdout: sink('stdout'),
    stderr: sink('stderr'),
    cwd: join(root, name),
    env: { MOCKDEV_DATA_DIR: join(root, name, 'data'), ...env },
  };
  return { io, out };
}

describe('the CLI I/O seam', () => {
  it('outside a run, helpers use the process: its streams, folder and environment', () => {
    const io = currentIo();
    assert.equal(io.stdout, process.stdout);
    assert.equal(io.stderr, process.stderr);
    assert.equal(io.stdin, process.stdin);
    assert.equal(io.cwd, process.cwd());
    assert.equal(io.env, process.env);
  });

  it('overlapping runs each see only their own streams, log level and AppContext', async () => {
    const a = bufferIo('a', { MOCKDEV_LOG_LEVEL: 'debug' });
    const b = bufferIo('b', { MOCKDEV_LOG_LEVEL: 'error' });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const body = (name: string) => async () => {
      assert.equal(initLogLevel(), undefined);
      const ctx = cliContext();
      assert.equal(cliContext(), ctx, 'one AppContext per run');
      await gate; // both runs are in flight here
      printLine(`${name} out`);
      note(`${name} note`);
      log.debug(`${name} debug`);
      log.warn(`${name} warn`);
      log.error(`${name} error`);
      return { dataDir: ctx.dataDir, cwd: ctx.cwd, debug: enabled('debug') };
    };
    const runs = [runWithIo(a.io, body('a')), runWithIo(b.io, body('b'))];
    release();
    const [ra, rb] = await Promise.all(runs);
    assert.deepEqual(ra, { dataDir: join(root, 'a', 'data'), cwd: join(root, 'a'), debug: true });
    assert.deepEqual(rb, { dataDir: join(root, 'b', 'data'), cwd: join(root, 'b'), debug: false });
    assert.equal(a.out.stdout, 'a out\n');
    assert.equal(a.out.stderr, 'a note\n[debug] a debug\n[warn] a warn\n[error] a error\n');
    assert.equal(b.out.stdout, 'b out\n');
    assert.equal(b.out.stderr, 'b note\n[error] b error\n');
    assert.equal(currentRun().logLevel, 'info', "the process's own level is untouched");
  });

  it('closes the AppContext a run opened when the run ends, also when it fails', async () => {
    const closed: string[] = [];
    const watchClose = (name: string) => {
      const ctx = cliContext();
      const close = ctx.close.bind(ctx);
      ctx.close = () => {
        closed.push(name);
        close();
      };
    };
    await runWithIo(bufferIo('ok').io, async () => watchClose('ok'));
    await assert.rejects(
      runWithIo(bufferIo('failed').io, async () => {
        watchClose('failed');
        throw new Error('boom');
      }),
      /boom/,
    );
    await runWithIo(bufferIo('unused').io, async () => undefined);
    assert.deepEqual(closed, ['ok', 'failed']);
  });

  it('runCli(argv, io) runs commands in-process: exit codes, output, stdin and TTY answers', async () => {
    const dataDir = join(root, 'data');
    const cli = (args: string[], extra: Partial<InProcessOptions> = {}) =>
      runCliInProcess(args, { dataDir, cwd: root, ...extra });
    const [created, unknown, missing] = await Promise.all([
      cli(['project', 'create', 'Seam', '--json']),
      cli(['frobnicate']),
      cli(['project', 'show', 'ghost']),
    ]);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(JSON.parse(created.stdout).name, 'Seam');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^mockdev: unknown command 'frobnicate'/);
    assert.equal(missing.code, 3);

    const piped = await cli(['curl', '-', '-p', 'Seam', '--json'], { input: 'curl https://x.test/piped\n' });
    assert.equal(piped.code, 0, piped.stderr);
    assert.equal(JSON.parse(piped.stdout).path, '/piped');
    const noPipe = await cli(['curl', '-', '-p', 'Seam'], { tty: true });
    assert.equal(noPipe.code, 2);
    assert.match(noPipe.stderr, /nothing is piped to stdin/);

    const refused = await cli(['project', 'delete', 'Seam'], { tty: { stdin: true, stderr: false } });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /refusing without confirmation/);
    const no = await cli(['project', 'delete', 'Seam'], { tty: true, input: 'n\n' });
    assert.equal(no.code, 0, no.stderr);
    assert.match(no.stderr, /Delete project "Seam", its 1 endpoint\(s\) and its request log\? \[y\/N\]/);
    assert.match(no.stderr, /Cancelled; nothing was deleted\./);
    assert.equal(no.stdout, '');
    const yes = await cli(['project', 'delete', 'Seam'], { tty: true, input: 'y\n' });
    assert.equal(yes.code, 0, yes.stderr);
    assert.match(yes.stdout, /^Deleted project "Seam"/);
    assert.equal((await cli(['project', 'list', '--json'])).stdout, '[]\n');
  });
});
