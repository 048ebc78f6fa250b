/**
 * An unusable data directory (MOCKDEV_DATA_DIR or XDG_DATA_HOME pointing at a file, at a place
 * that cannot be created, under /proc) is one line naming the variable, exit 2, for every
 * command that uses it, fast; the file it points at is untouched. /proc runs are spawned: a
 * regression there loops inside a synchronous mkdir, which only a process of its own can bound.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { assertCliError } from '../helpers/cli.js';
import { cliSandbox } from '../helpers/cli-inprocess.js';

/** Commands that read or write the data directory, each with arguments that are otherwise valid. */
const COMMANDS: string[][] = [
  ['list'],
  ['list', 'endpoints', 'Api'],
  ['status'],
  ['stop'],
  ['project', 'list', '--json'],
  ['project', 'create', 'Api'],
  ['endpoint', 'add', 'Api', '-p', '/a'],
  ['requests', 'list', 'Api'],
  ['curl', 'curl https://x.test/a', '--preview'],
  ['export', 'Api'],
  ['serve', 'Api', '-p', '0'],
  ['mcp'],
  ['mcp', '--http', '-p', '0'],
];

const usage = (variable: string) =>
  new RegExp(
    `^mockdev: ${variable}=\\S+ (is not a usable data directory|gives no usable data directory \\(\\S+\\)): .+\\. Point ${variable === 'MOCKDEV_DATA_DIR' ? 'it' : variable} at a folder mockdev can create and write`,
  );

describe('an unusable data directory', () => {
  it('MOCKDEV_DATA_DIR naming a file: every command says so in one line, exit 2, the file untouched', async (t) => {
    const { cli, dir } = cliSandbox(t, 'mockdev-datadir-');
    const file = join(dir, 'not-a-folder');
    writeFileSync(file, 'keep me\n');
    for (const args of COMMANDS) {
      const r = await cli(args, { dataDir: file, timeoutMs: 10_000 });
      assertCliError(r, 2, usage('MOCKDEV_DATA_DIR'));
      assert.match(r.stderr, new RegExp(`MOCKDEV_DATA_DIR=${file} .*: ${file} is a file, not a folder\\.`));
    }
    for (const dataDir of [join(file, 'data'), join(file, 'a', 'b')]) {
      const r = await cli(['list'], { dataDir, timeoutMs: 10_000 });
      assertCliError(
        r,
        2,
        new RegExp(
          `^mockdev: MOCKDEV_DATA_DIR=${dataDir} is not a usable data directory: ${file} is a file, not a folder\\. Point it at a folder mockdev can create and write, or unset it$`,
          'm',
        ),
      );
    }
    assert.equal(readFileSync(file, 'utf8'), 'keep me\n');
  });

  it('MOCKDEV_DATA_DIR under a link to nowhere cannot be created: exit 2, nothing made', async (t) => {
    const { cli, dir } = cliSandbox(t, 'mockdev-datadir-');
    symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling'));
    assertCliError(
      await cli(['project', 'create', 'Api'], { dataDir: join(dir, 'dangling', 'data'), timeoutMs: 10_000 }),
      2,
      /MOCKDEV_DATA_DIR=\S+dangling\/data is not a usable data directory: \S+ cannot be created/,
    );
    assert.equal(existsSync(join(dir, 'nowhere')), false);
  });

  it('the default under XDG_DATA_HOME names XDG_DATA_HOME when it points at a file (exit 2)', async (t) => {
    const { cli, dir } = cliSandbox(t, 'mockdev-datadir-');
    const file = join(dir, 'xdg-file');
    writeFileSync(file, '');
    for (const args of [['list'], ['status'], ['project', 'create', 'Api']]) {
      const r = await cli(args, { dataDir: '', env: { XDG_DATA_HOME: file }, timeoutMs: 10_000 });
      assertCliError(r, 2, usage('XDG_DATA_HOME'));
      assert.match(r.stderr, /, or set MOCKDEV_DATA_DIR to one$/m);
    }
    // A usable XDG_DATA_HOME is used: <XDG_DATA_HOME>/mockdev.
    const xdg = join(dir, 'xdg');
    mkdirSync(xdg);
    const made = await cli(['project', 'create', 'Api'], { dataDir: '', env: { XDG_DATA_HOME: xdg } });
    assert.equal(made.code, 0, made.stderr);
    assert.ok(existsSync(join(xdg, 'mockdev', 'projects')));
  });

  it('the default under a HOME that is a file: the data directory is named, exit 1 (spawned: HOME is the process’s)', async (t) => {
    const { spawn, dir } = cliSandbox(t, 'mockdev-datadir-');
    const file = join(dir, 'home-file');
    writeFileSync(file, '');
    const r = await spawn(['list'], {
      dataDir: '',
      env: { HOME: file, XDG_DATA_HOME: undefined },
      timeoutMs: 15_000,
    });
    assertCliError(
      r,
      1,
      new RegExp(
        `^mockdev: The data directory ${file}/\\.local/share/mockdev is not usable: ${file} is a file, not a folder\\. Set MOCKDEV_DATA_DIR to a folder mockdev can create and write$`,
        'm',
      ),
    );
  });

  it('MOCKDEV_DATA_DIR under /proc fails fast instead of hanging (spawned, bounded)', async (t) => {
    assert.ok(existsSync('/proc/self'), 'this test needs Linux /proc');
    const { spawn } = cliSandbox(t, 'mockdev-datadir-');
    for (const [dataDir, args] of [
      ['/proc/mockdev', ['list']],
      ['/proc/mockdev', ['status']],
      ['/proc/mockdev', ['project', 'create', 'Api']],
      ['/proc/mockdev/deeper/data', ['serve', 'Api', '-p', '0']],
      ['/proc/mockdev', ['mcp']],
      ['/proc', ['project', 'create', 'Api']],
    ] as const) {
      const started = Date.now();
      const r = await spawn([...args], { dataDir, timeoutMs: 15_000 });
      assertCliError(r, 2, usage('MOCKDEV_DATA_DIR'));
      assert.ok(Date.now() - started < 10_000, `${args.join(' ')} took ${Date.now() - started} ms`);
    }
  });

  it('init into a folder under /proc fails fast, naming the folder (spawned, bounded)', async (t) => {
    assert.ok(existsSync('/proc/self'), 'this test needs Linux /proc');
    const { spawn } = cliSandbox(t, 'mockdev-datadir-');
    const r = await spawn(['init', '/proc/mockdev-project/api'], { timeoutMs: 15_000 });
    assertCliError(
      r,
      1,
      /^mockdev: Could not create folder \/proc\/mockdev-project\/api: the folder above it does not exist, or takes no new folders/,
    );
  });
});
