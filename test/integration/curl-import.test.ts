/**
 * `mockdev curl`: preview (human and JSON), import, and every error, in-process with a project
 * of each test's own; a few runs of the built binary prove the real wiring (stdin included).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Endpoint } from '../../src/core/model/endpoint.js';
import { assertCliError, json } from '../helpers/cli.js';
import { cliSandbox, type AfterHook } from '../helpers/cli-inprocess.js';

/** A sandbox with an empty project "Api"; `cli(args, input)` runs in-process. */
async function withApi(t: AfterHook) {
  const sandbox = cliSandbox(t, 'mockdev-curl-');
  const r = await sandbox.cli(['project', 'create', 'Api']);
  assert.equal(r.code, 0, r.stderr);
  const cli = (args: string[], input?: string) => sandbox.cli(args, { input });
  return { ...sandbox, cli };
}

describe('mockdev curl', () => {
  it('--preview --json prints the DECISIONS shape and creates nothing', async (t) => {
    const { cli } = await withApi(t);
    const r = await cli([
      'curl',
      `curl -X POST 'https://api.example.com/api/v1/users/42?expand=team&tag=a&tag=b' -H 'Content-Type: application/json' -H 'Authorization: Bearer tok123' -d '{"name":"Ada"}' --frobnicate`,
      '-p',
      'Api',
      '--preview',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(json(r), {
      name: 'post-users-by-id',
      method: 'POST',
      url: 'https://api.example.com/api/v1/users/42?expand=team&tag=a&tag=b',
      path: '/api/v1/users/42',
      query: { expand: 'team', tag: ['a', 'b'] },
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer tok123' },
      body: '{"name":"Ada"}',
      auth: { type: 'bearer', token: 'tok123' },
      warnings: ['Unrecognised flag --frobnicate at line 1, column 170 (ignored)'],
    });
    const list = json<Endpoint[]>(await cli(['endpoint', 'list', 'Api', '--json']));
    assert.deepEqual(list, []);
  });

  it('--preview shows method, path, headers, the body pretty-printed, auth and warnings', async (t) => {
    const { cli } = cliSandbox(t, 'mockdev-curl-');
    const r = await cli([
      'curl',
      `curl -u ada:secret https://x.test/orders -H 'Accept: application/json' --json '{"qty":2,"sku":"A"}' --bogus`,
      '--preview',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^name: +post-orders$/m);
    assert.match(r.stdout, /^method: +POST$/m);
    assert.match(r.stdout, /^path: +\/orders$/m);
    assert.match(r.stdout, /^ {2}Accept: application\/json$/m);
    assert.match(r.stdout, /^auth: +Basic \(user "ada", password \*{6}\)$/m);
    assert.match(r.stdout, /^body:\n {2}\{\n {4}"qty": 2,\n {4}"sku": "A"\n {2}\}$/m);
    assert.match(r.stdout, /^warning: Unrecognised flag --bogus/m);
  });

  it('creates the endpoint with a generated, unique name, status 200 and the request kept', async (t) => {
    const { cli } = await withApi(t);
    const r = await cli([
      'curl',
      `curl 'https://api.example.com/api/v1/users/42?x=1' -H 'Accept: application/json' -b 'sid=9'`,
      '-p',
      'Api',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const e = json<Endpoint>(r);
    assert.equal(e.name, 'get-users-by-id');
    assert.equal(e.method, 'GET');
    assert.equal(e.path, '/api/v1/users/42');
    assert.equal(e.status, 200);
    assert.equal(e.body, '');
    assert.deepEqual(e.request, {
      headers: { Accept: 'application/json', Cookie: 'sid=9' },
      query: { x: '1' },
      body: null,
      auth: null,
    });

    // Same name wanted again (another path that names the same): made unique.
    const again = await cli(['curl', 'curl https://api.example.com/api/v2/users/43', '-p', 'Api', '--json']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(json<Endpoint>(again).name, 'get-users-by-id-2');
  });

  it('echoes a JSON body for POST, keeps the body for reference, and takes -n', async (t) => {
    const { cli } = await withApi(t);
    const r = await cli([
      'curl',
      `curl https://x.test/api/orders -H 'Content-Type: application/json' -d '{"sku":"A-1"}'`,
      '-p',
      'Api',
      '-n',
      'Create order',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const e = json<Endpoint>(r);
    assert.equal(e.name, 'Create order');
    assert.equal(e.method, 'POST');
    assert.equal(e.body, '{"sku":"A-1"}');
    assert.equal(e.request?.body, '{"sku":"A-1"}');
    const human = await cli(['curl', 'curl -X PUT https://x.test/api/orders/7 -d a=1', '-p', 'Api']);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^Added PUT \/api\/orders\/7 -> 200 as "put-orders-by-id" \(id \S+\)$/m);
  });

  it('reads Windows cmd and browser copies, and the command from stdin with -', async (t) => {
    const { cli } = await withApi(t);
    const cmd =
      'curl ^"https://x.test/api/cmd?a=1^&b=2^" ^\r\n  -H ^"accept: */*^" ^\r\n  --data-raw ^"^{^\\^"k^\\^":^\\^"100^%^\\^"^}^"';
    const r = await cli(['curl', cmd, '--preview', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const p = json<{ method: string; query: unknown; body: string }>(r);
    assert.equal(p.method, 'POST');
    assert.deepEqual(p.query, { a: '1', b: '2' });
    assert.equal(p.body, '{"k":"100%"}');
    const piped = await cli(
      ['curl', '-', '-p', 'Api', '--json'],
      "curl 'https://x.test/api/piped' \\\n  -H 'X-A: 1'\n",
    );
    assert.equal(piped.code, 0, piped.stderr);
    assert.equal(json<Endpoint>(piped).path, '/api/piped');
  });

  it('unparseable input exits 1 with what is wrong, where, and how to fix it; nothing is created', async (t) => {
    const { cli, dataDir } = await withApi(t);
    const before = readFileSync(
      join(
        dataDir,
        'projects',
        json<{ id: string }>(await cli(['project', 'show', 'Api', '--json'])).id,
        'endpoints.json',
      ),
      'utf8',
    );
    const cases: [string, RegExp][] = [
      [
        'wget https://x.test',
        /Not a cURL command: it starts with "wget" at line 1, column 1\. Paste a command that starts with curl/,
      ],
      ['curl -s -H "Accept: */*"', /No URL found in the cURL command\. Add the URL/],
      [
        'curl https://x.test/a -H',
        /-H \(--header\) at line 1, column 23 needs a value, but the command ends there\. Give it a value/,
      ],
      ['curl -X PURGE https://x.test/a', /method "PURGE", which mockdev cannot serve/],
      ['', /The cURL command is empty/],
    ];
    for (const [text, pattern] of cases) {
      const r = await cli(['curl', text, '-p', 'Api']);
      assert.equal(r.code, 1, `${text}: ${r.stderr}`);
      assert.match(r.stderr, pattern, text);
      assert.equal(r.stderr.trim().split('\n').length, 1);
      if (!/PURGE/.test(text)) {
        const p = await cli(['curl', text, '--preview']);
        assert.equal(p.code, 1, `preview ${text}`);
      }
    }
    const after = readFileSync(
      join(
        dataDir,
        'projects',
        json<{ id: string }>(await cli(['project', 'show', 'Api', '--json'])).id,
        'endpoints.json',
      ),
      'utf8',
    );
    assert.equal(after, before);
  });

  it('a Windows cmd command with an unquoted URL takes ^& as & (q=mock&page=2)', async (t) => {
    const { cli } = await withApi(t);
    const r = await cli([
      'curl',
      'curl https://api.example.com/search?q=mock^&page=2',
      '-p',
      'Api',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '', 'nothing ignored');
    assert.deepEqual(json<Endpoint>(r).request?.query, { q: 'mock', page: '2' });
    const preview = await cli([
      'curl',
      'curl https://api.example.com/search?q=mock^&page=2',
      '--preview',
      '--json',
    ]);
    assert.equal(json<{ url: string }>(preview).url, 'https://api.example.com/search?q=mock&page=2');
  });

  it('a command cut off after a line continuation (\\ or ^) exits 2, in the preview too; nothing is created', async (t) => {
    const { cli } = await withApi(t);
    for (const [text, mark] of [
      ['curl https://api.example.com/v1/users \\', '\\\\'],
      ['curl -X POST https://api.example.com/v1/users \\\n  -H "A: b" \\\n', '\\\\'],
      ['curl "https://api.example.com/v1/users" ^\r\n  -H "A: b" ^', '\\^'],
    ] as const) {
      const pattern = new RegExp(
        `^mockdev: The command ends with a line continuation \\(${mark}\\) at line \\d+, column \\d+ and nothing after it: it looks cut off\\. Paste the whole command`,
      );
      for (const args of [
        ['curl', text, '-p', 'Api'],
        ['curl', text, '--preview'],
        ['curl', text, '--preview', '--json'],
      ]) {
        const r = await cli(args);
        assertCliError(r, 2, pattern);
      }
      assertCliError(await cli(['curl', '-', '-p', 'Api'], `${text}\n`), 2, pattern);
    }
    assert.deepEqual(json<Endpoint[]>(await cli(['endpoint', 'list', 'Api', '--json'])), []);
  });

  it('a command cut inside a quote exits 2 as a cut-off one does (an incomplete argument), in the preview too', async (t) => {
    const { cli } = await withApi(t);
    for (const [text, pattern] of [
      [
        "curl 'https://x.test/a",
        /Unbalanced quote: the ' opened at line 1, column 6 is never closed\. Add the closing '/,
      ],
      [
        'curl "https://x.test/a" \\\n -H "Accept: app',
        /Unbalanced quote: the " opened at line 2, column 5 is never closed/,
      ],
      ["curl $'https://x.test/a", /the \$'…' string opened at line 1, column 6 is never closed/],
      [
        'curl ^"https://x.test/a^" -H ^"Accept',
        /Unbalanced quote: the " opened at line 1, column \d+ is never closed/,
      ],
    ] as const) {
      for (const args of [
        ['curl', text, '-p', 'Api'],
        ['curl', text, '--preview'],
      ])
        assertCliError(await cli(args), 2, pattern);
    }
    assert.deepEqual(json<Endpoint[]>(await cli(['endpoint', 'list', 'Api', '--json'])), []);
  });

  it('missing -p exits 2, an unknown project exits 3, a taken route exits 1', async (t) => {
    const { cli } = await withApi(t);
    const noProject = await cli(['curl', 'curl https://x.test/a']);
    assert.equal(noProject.code, 2);
    assert.match(noProject.stderr, /Missing -p, --project/);
    const unknown = await cli(['curl', 'curl https://x.test/a', '-p', 'ghost']);
    assert.equal(unknown.code, 3);
    const first = await cli(['curl', 'curl https://x.test/taken/1', '-p', 'Api']);
    assert.equal(first.code, 0, first.stderr);
    const clash = await cli(['curl', 'curl https://x.test/taken/1', '-p', 'Api']);
    assert.equal(clash.code, 1);
    assert.match(clash.stderr, /GET \/taken\/1 clashes with endpoint/);
  });
});

describe('mockdev curl: the built binary (spawned)', () => {
  it('imports from an argument and from piped stdin (0); bad input (1) and a missing -p (2) are one line', async (t) => {
    const { spawn, cli } = await withApi(t);
    const added = await spawn([
      'curl',
      'curl https://x.test/api/spawned -H "Accept: text/plain"',
      '-p',
      'Api',
    ]);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /^Added GET \/api\/spawned -> 200 as "get-spawned"/);
    const piped = await spawn(['curl', '-', '-p', 'Api', '--json'], {
      input: "curl -X POST 'https://x.test/api/piped' -d '{\"a\":1}'\n",
    });
    assert.equal(piped.code, 0, piped.stderr);
    assert.equal(json<Endpoint>(piped).path, '/api/piped');
    assertCliError(
      await spawn(['curl', 'wget https://x.test', '-p', 'Api']),
      1,
      /^mockdev: Not a cURL command/,
    );
    assertCliError(await spawn(['curl', 'curl https://x.test/a']), 2, /^mockdev: Missing -p, --project/);
    assert.deepEqual(
      json<Endpoint[]>(await cli(['endpoint', 'list', 'Api', '--json'])).map((e) => `${e.method} ${e.path}`),
      ['GET /api/spawned', 'POST /api/piped'],
    );
  });
});
