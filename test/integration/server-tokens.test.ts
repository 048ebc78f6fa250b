/**
 * The token of `mockdev ui` and `mockdev mcp --http`, kept out of the process list: the
 * environment variable, `--token-file <FILE>` or `--token -` (stdin). Beyond loopback one is
 * required (exit 2 saying how to give it); no message quotes it.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../helpers/cli.js';
import { runCliInProcess } from '../helpers/cli-inprocess.js';
import { startHttpMcp } from '../helpers/mcp.js';
import { http, startUi } from '../helpers/ui.js';

const SECRET = 'tok-3f9a1c';

describe('server tokens: refused without starting anything', () => {
  it('mockdev --help names the token variables, the way to give a token', async (t) => {
    const { dir, cleanup } = tempDir('mockdev-tokens-');
    t.after(cleanup);
    const help = await runCliInProcess(['--help'], { dataDir: dir });
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /\n {2}MOCKDEV_UI_TOKEN +the token mockdev ui requires/);
    assert.match(help.stdout, /\n {2}MOCKDEV_MCP_TOKEN +the token mockdev mcp --http requires/);
  });

  it('refuses a bind beyond loopback without a token, for ui and mcp alike, saying how to give one', async (t) => {
    const { dir, cleanup } = tempDir('mockdev-tokens-');
    t.after(cleanup);
    for (const [args, env] of [
      [['ui', '--host', '0.0.0.0', '-p', '0'], 'MOCKDEV_UI_TOKEN'],
      [['mcp', '--http', '--host', '0.0.0.0', '-p', '0'], 'MOCKDEV_MCP_TOKEN'],
    ] as const) {
      const r = await runCliInProcess([...args], { dataDir: dir });
      assert.equal(r.code, 2, r.stderr);
      assert.match(
        r.stderr,
        new RegExp(
          `0\\.0\\.0\\.0 makes the .* reachable from other machines, so it needs a token\\. Set ${env}, or give --token-file <FILE> or --token - \\(read from stdin\\)`,
        ),
      );
    }
  });

  it('refuses a token given twice, an empty one, a missing file, and a token without --http; never quoting it', async (t) => {
    const { dir, cleanup } = tempDir('mockdev-tokens-');
    t.after(cleanup);
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, '\n');
    const file = join(dir, 'token.txt');
    writeFileSync(file, `${SECRET}\n`);
    const cases: [string[], RegExp, string?][] = [
      [['ui', '--token', SECRET, '--token-file', file], /--token and --token-file both give the token/],
      [['ui', '--token-file', empty], /The token is empty/],
      [['mcp', '--http', '--token', '-'], /The token is empty/, ''],
      [['ui', '--token-file', join(dir, 'nope.txt')], /nope\.txt/],
      [['mcp', '--token-file', file], /--port and --token-file apply to the HTTP mode only/],
    ];
    for (const [args, message, input] of cases) {
      const r = await runCliInProcess([...args, '-p', '0'], {
        dataDir: dir,
        input,
        env: { MOCKDEV_UI_TOKEN: undefined },
      });
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.doesNotMatch(r.stderr, new RegExp(SECRET), 'no message quotes the token');
    }
  });
});

describe('server tokens: the servers take them from a file or stdin', () => {
  it('mockdev ui --token-file: every request needs the token from the file', async (t) => {
    const { dir, cleanup } = tempDir('mockdev-tokens-');
    const file = join(dir, 'ui-token');
    writeFileSync(file, `${SECRET}\n`);
    const ui = await startUi(['--token-file', file, '--host', '0.0.0.0'], {
      dataDir: dir,
      env: { MOCKDEV_UI_TOKEN: undefined },
    });
    t.after(async () => {
      await ui.stop('SIGKILL');
      cleanup();
    });
    const url = `http://127.0.0.1:${ui.port}/api/v1/health`;
    assert.equal((await http(url)).status, 401);
    assert.equal((await http(url, { headers: { Authorization: `Bearer ${SECRET}` } })).status, 200);
    assert.doesNotMatch(ui.stderr() + ui.stdout(), new RegExp(SECRET));
  });

  it('mockdev mcp --http --token -: the token piped to stdin', async (t) => {
    const { dir, cleanup } = tempDir('mockdev-tokens-');
    const mcp = await startHttpMcp(dir, ['--token', '-'], {}, `${SECRET}\n`);
    t.after(async () => {
      await mcp.kill();
      cleanup();
    });
    const url = `${mcp.base}/mcp/health`;
    assert.equal((await fetch(url)).status, 401);
    assert.equal((await fetch(url, { headers: { authorization: `Bearer ${SECRET}` } })).status, 200);
    assert.doesNotMatch(mcp.stderr(), new RegExp(SECRET));
  });
});
