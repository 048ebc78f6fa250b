/**
 * `settings show | update`: every option, bad values (exit 2 naming the allowed ones), old
 * settings files, and the settings that change other commands: confirm-before-delete and
 * developer mode.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cliSandbox } from '../helpers/cli-inprocess.js';

const DEFAULTS = {
  theme: 'system',
  defaultPort: 3001,
  mcpPort: 3100,
  uiPort: 3200,
  mcpAutoStart: false,
  mcpLoggingMode: 'all',
  confirmBeforeDelete: true,
  developerMode: false,
  errorReporting: false,
  errorReportingUrl: null,
  requestLogLimit: 10_000,
  requestBodyLimitBytes: 1024 * 1024,
  requestSizeLimitBytes: 10 * 1024 * 1024,
  ngrokAuthtoken: null,
};

describe('settings', () => {
  it('show prints the defaults when nothing is set, as text and JSON', async (t) => {
    const { cli } = cliSandbox(t);
    const json = await cli(['settings', 'show', '--json']);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout), DEFAULTS);
    const text = await cli(['settings', 'show']);
    assert.match(text.stdout, /^Theme:\s+system$/m);
    assert.match(text.stdout, /^Confirm before delete:\s+true$/m);
    assert.match(text.stdout, /^Error reporting:\s+off$/m);
  });

  it('update sets every option and keeps the others', async (t) => {
    const { cli, dataDir } = cliSandbox(t);
    const r = await cli([
      'settings',
      'update',
      '--theme',
      'dark',
      '--default-port',
      '4100',
      '--mcp-port',
      '3200',
      '--ui-port',
      '3300',
      '--mcp-auto-start',
      'true',
      '--mcp-logging-mode',
      'errors',
      '--confirm-before-delete',
      'false',
      '--developer-mode',
      'true',
      '--error-reporting',
      'true',
      '--error-reporting-url',
      'https://errors.example.com/report',
      '--request-log-limit',
      '500',
      '--request-body-limit',
      '2048',
      '--request-size-limit',
      '52428800',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const expected = {
      theme: 'dark',
      defaultPort: 4100,
      mcpPort: 3200,
      uiPort: 3300,
      mcpAutoStart: true,
      mcpLoggingMode: 'errors',
      confirmBeforeDelete: false,
      developerMode: true,
      errorReporting: true,
      errorReportingUrl: 'https://errors.example.com/report',
      requestLogLimit: 500,
      requestBodyLimitBytes: 2048,
      requestSizeLimitBytes: 52_428_800,
      ngrokAuthtoken: null,
    };
    assert.deepEqual(JSON.parse(r.stdout), expected);
    assert.deepEqual(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')), expected);

    const one = await cli(['settings', 'update', '--theme', 'light', '--error-reporting-url', 'none']);
    assert.equal(one.code, 0, one.stderr);
    assert.match(one.stdout, /^Theme:\s+light$/m);
    assert.match(one.stdout, /^Default port:\s+4100$/m);
    assert.match(one.stdout, /^Error reporting URL:\s+-$/m);
    assert.match(one.stdout, /^Error reporting:\s+on \(nothing is reported yet\)$/m);
  });

  it('a new project takes the default port from the settings', async (t) => {
    const { cli } = cliSandbox(t);
    assert.equal((await cli(['settings', 'update', '--default-port', '4555'])).code, 0);
    const created = await cli(['project', 'create', 'Ported', '--json']);
    assert.equal(created.code, 0, created.stderr);
    assert.equal((JSON.parse(created.stdout) as { port: number }).port, 4555);
  });

  it('bad values exit 2 naming the allowed ones, and change nothing', async (t) => {
    const { cli } = cliSandbox(t);
    const cases: [string[], RegExp][] = [
      [['--theme', 'blue'], /Invalid --theme "blue": must be one of light, dark, system/],
      [['--default-port', '80'], /Invalid --default-port 80: must be from 1024 to 65535/],
      [['--default-port', 'x'], /Invalid --default-port "x": must be a whole number/],
      [['--mcp-port', '70000'], /Invalid --mcp-port 70000: must be from 1024 to 65535/],
      [['--ui-port', '80'], /Invalid --ui-port 80: must be from 1024 to 65535/],
      [['--mcp-auto-start', 'yes'], /Invalid --mcp-auto-start "yes": must be one of true, false/],
      [['--mcp-logging-mode', 'some'], /Invalid --mcp-logging-mode "some": must be one of off, errors, all/],
      [['--confirm-before-delete', '1'], /Invalid --confirm-before-delete "1": must be one of true, false/],
      [['--developer-mode', 'on'], /Invalid --developer-mode "on": must be one of true, false/],
      [['--error-reporting', 'maybe'], /Invalid --error-reporting "maybe": must be one of true, false/],
      [['--error-reporting-url', 'ftp://x'], /must be an http or https URL, or none/],
      [['--request-log-limit', '0'], /Invalid --request-log-limit 0: must be a whole number of at least 1/],
      [['--request-size-limit', '0'], /Invalid --request-size-limit 0: must be a whole number of at least 1/],
      [
        ['--request-size-limit', String(2 ** 31)],
        /Invalid --request-size-limit \d+: must be at most 1073741824 \(1 GiB\)/,
      ],
      [[], /Nothing to update\. Pass at least one option/],
      [['--theme', 'dark', '--default-port', '1'], /--default-port/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(['settings', 'update', ...args]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
    assert.deepEqual(JSON.parse((await cli(['settings', 'show', '--json'])).stdout), DEFAULTS);
  });

  it('loads an older settings file, keeping what it has and defaulting the rest', async (t) => {
    const { cli, dataDir } = cliSandbox(t);
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ defaultPort: 4200, requestLogLimit: 50 }));
    const r = await cli(['settings', 'show', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { ...DEFAULTS, defaultPort: 4200, requestLogLimit: 50 });
    assert.equal((await cli(['settings', 'update', '--theme', 'dark'])).code, 0);
    const after = JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(after.requestLogLimit, 50);
    assert.equal(after.theme, 'dark');
  });

  it('confirm-before-delete false: delete runs without asking and without --force', async (t) => {
    const { cli } = cliSandbox(t);
    assert.equal((await cli(['project', 'create', 'Kept'])).code, 0);
    const refused = await cli(['project', 'delete', 'Kept']);
    assert.equal(refused.code, 2, 'asks by default');
    assert.match(refused.stderr, /refusing without confirmation/);

    assert.equal((await cli(['settings', 'update', '--confirm-before-delete', 'false'])).code, 0);
    assert.equal((await cli(['project', 'create', 'Gone'])).code, 0);
    const noTty = await cli(['project', 'delete', 'Gone']);
    assert.equal(noTty.code, 0, noTty.stderr);
    assert.match(noTty.stdout, /^Deleted project "Gone"/);
    const onTty = await cli(['project', 'delete', 'Kept'], { tty: true });
    assert.equal(onTty.code, 0, onTty.stderr);
    assert.doesNotMatch(onTty.stderr, /\[y\/N\]/);
    assert.match(onTty.stdout, /^Deleted project "Kept"/);
  });

  it('developer mode (or MOCKDEV_LOG_LEVEL=debug): never a stack trace for a usage error', async (t) => {
    const { cli } = cliSandbox(t);
    const plain = await cli(['endpoint', 'list', 'nope']);
    assert.equal(plain.code, 3);
    assert.equal(plain.stderr.split('\n').length, 2, 'one line, no stack');
    assert.equal((await cli(['settings', 'update', '--developer-mode', 'true'])).code, 0);
    for (const args of [
      ['endpoint', 'list', 'nope'],
      ['endpoint', 'add', 'nope', '-m', 'FETCH', '-p', '/x'],
      ['settings', 'update', '--theme', 'blue'],
      ['project', 'create', 'X', '-p', '80'],
      ['project', 'nope'],
      ['endpoint', 'list', '--no-such-option'],
    ]) {
      for (const env of [{}, { MOCKDEV_LOG_LEVEL: 'debug' }]) {
        const r = await cli(args, { env });
        assert.notEqual(r.code, 0, args.join(' '));
        assert.equal(r.stdout, '');
        assert.equal(r.stderr.trim().split('\n').at(-1)!.startsWith('mockdev: '), true, r.stderr);
        assert.doesNotMatch(r.stderr, /\n\s+at /, `no stack trace: mockdev ${args.join(' ')}\n${r.stderr}`);
      }
    }
    const quiet = await cli(['endpoint', 'list', 'nope'], { env: { MOCKDEV_LOG_LEVEL: 'info' } });
    assert.equal(quiet.stderr.split('\n').length, 2, 'the variable wins');
  });

  it("refuses the web UI's port for the MCP server and the reverse (exit 2), the settings unchanged", async (t) => {
    const { cli, dataDir } = cliSandbox(t);
    const file = join(dataDir, 'settings.json');
    const clash = await cli(['settings', 'update', '--mcp-port', '3200']);
    assert.equal(clash.code, 2);
    assert.equal(
      clash.stderr,
      "mockdev: Invalid --mcp-port 3200: it is the web UI's port (--ui-port). The MCP server and the web UI listen side by side: give each a port of its own\n",
    );
    assert.equal(existsSync(file), false, 'nothing written');
    assert.equal((await cli(['settings', 'update', '--ui-port', '3300'])).code, 0);
    const before = readFileSync(file, 'utf8');
    const reverse = await cli(['settings', 'update', '--ui-port', '3100', '--theme', 'dark']);
    assert.equal(reverse.code, 2);
    assert.match(
      reverse.stderr,
      /^mockdev: Invalid --ui-port 3100: it is the MCP server's port \(--mcp-port\)\./,
    );
    assert.equal(readFileSync(file, 'utf8'), before);
    assert.equal((await cli(['settings', 'update', '--mcp-port', '3200'])).code, 0, 'the UI moved away');
  });

  it('is wired into the built binary', async (t) => {
    const { spawn } = cliSandbox(t);
    assert.equal((await spawn(['settings', 'update', '--mcp-port', '3300'])).code, 0);
    const r = await spawn(['settings', 'show', '--json']);
    assert.equal((JSON.parse(r.stdout) as { mcpPort: number }).mcpPort, 3300);
  });
});
