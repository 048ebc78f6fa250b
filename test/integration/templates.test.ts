/**
 * Templated responses over HTTP against a spawned `mockdev serve`: bodies and header values
 * rendered from the request (params, query, headers, body; Mockoon and WireMock names), fake
 * data seeded per key, a templated proxy target; a template error refused at save with its line
 * and column (exit 2); one at run time answering 500 while the server keeps serving.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { describe, it } from 'node:test';
import { assertCliError } from '../helpers/cli.js';
import { cliSandbox } from '../helpers/cli-inprocess.js';
import { startServe, waitUntil } from '../helpers/server.js';

describe('templated responses', () => {
  it('refuses a template error at save with its line and column (exit 2)', async (t) => {
    const { cli } = cliSandbox(t);
    assert.equal((await cli(['project', 'create', 'api'])).code, 0);
    assertCliError(
      await cli(['endpoint', 'add', 'api', '-p', '/x', '-b', '{\n  "id": "{{params.id}"\n}']),
      2,
      /Invalid template in body at line 2, column 21/,
    );
    assertCliError(
      await cli(['endpoint', 'add', 'api', '-p', '/x', '-H', 'X-A: {{#if a}}']),
      2,
      /Invalid template in header "X-A" at line 1/,
    );
    assertCliError(
      await cli(['endpoint', 'add', 'api', '-p', '/x', '-b', '{{exec "ls"}}']),
      2,
      /Invalid template in body: Unknown helper "exec" at line 1, column 1/,
    );
    assert.equal((await cli(['endpoint', 'add', 'api', '-p', '/x', '-b', '{{params.id}}'])).code, 0);
    assertCliError(
      await cli(['endpoint', 'update', 'api', 'GET /x', '-b', 'ok {{/if}}']),
      2,
      /Invalid template in body at line 1, column 4/,
    );
    assertCliError(
      await cli(['endpoint', 'variation', 'add', 'api', 'GET /x', '-n', 'v', '-b', '{{oops']),
      2,
      /Invalid template in variation "v" body at line 1/,
    );
  });

  it('renders templates from the request, seeds fake data, and answers 500 for a run-time error', async (t) => {
    const sandbox = cliSandbox(t);
    const { cli } = sandbox;
    const add = async (...args: string[]) => {
      const r = await cli(['endpoint', 'add', 'api', ...args]);
      assert.equal(r.code, 0, r.stderr);
    };
    assert.equal((await cli(['project', 'create', 'api'])).code, 0);
    await add('-p', '/static', '-b', '{"static":true}');
    await add(
      '-m',
      'POST',
      '-p',
      '/users/:id',
      '-s',
      '201',
      '-b',
      '{"id":"{{params.id}}","page":"{{query.page}}","x":"{{headers.x-id}}","name":"{{body.user.name}}","m":"{{method}}","p":"{{path}}","e":"{{env.NONE}}"}',
      '-H',
      'X-Echo: {{uppercase (queryParam "page")}}',
    );
    await add(
      '-p',
      '/compat/:id',
      '--content-type',
      'text/plain',
      '-b',
      "{{urlParam 'id'}} {{queryParam 'q'}} {{header 'X-Id'}} {{request.pathSegments.[1]}} {{request.query.q}} {{request.headers.X-Id}} {{request.method}}",
    );
    await add(
      '-p',
      '/people/:id',
      '-b',
      '{{#seed params.id}}{"name":"{{faker \'person.fullName\'}}","n":{{int 1 1000000}}}{{/seed}}',
    );
    await add(
      '-p',
      '/list',
      '-b',
      '[{{#repeat 3 separator=","}}{"i":{{@index}},"id":"{{uuid}}"}{{/repeat}}]',
    );
    await add('-p', '/broken', '-b', "{{faker 'person.nope'}}");
    await add('-p', '/empty', '-s', '204', '-b', '{{params.id}}');

    const server = await startServe(['api'], { dataDir: sandbox.dataDir });
    sandbox.defer(() => server.stop());
    const call = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);

    const r = await call('/users/42?page=2&page=3', {
      method: 'POST',
      headers: { 'X-Id': 'abc', 'content-type': 'application/json' },
      body: JSON.stringify({ user: { name: 'Ada' } }),
    });
    assert.equal(r.status, 201);
    assert.equal(r.headers.get('x-echo'), '2');
    const text = await r.text();
    assert.equal(r.headers.get('content-length'), String(Buffer.byteLength(text)));
    assert.deepEqual(JSON.parse(text), {
      id: '42',
      page: '2',
      x: 'abc',
      name: 'Ada',
      m: 'POST',
      p: '/users/42',
      e: '',
    });

    const compat = await call('/compat/7?q=hi', { headers: { 'X-Id': 'z' } });
    assert.equal(await compat.text(), '7 hi z 7 hi z GET');

    const person = async (id: string) =>
      (await (await call(`/people/${id}`)).json()) as { name: string; n: number };
    const a = await person('42');
    assert.ok(a.name.length > 0);
    assert.deepEqual(await person('42'), a);
    assert.notDeepEqual(await person('43'), a);

    const list = (await (await call('/list')).json()) as { i: number; id: string }[];
    assert.deepEqual(
      list.map((x) => x.i),
      [0, 1, 2],
    );
    assert.equal(new Set(list.map((x) => x.id)).size, 3);

    const empty = await call('/empty');
    assert.equal(empty.status, 204);
    assert.equal(await empty.text(), '');

    // A run-time error: 500 naming the endpoint and the error; the server keeps serving.
    for (let i = 0; i < 2; i++) {
      const broken = await call('/broken');
      assert.equal(broken.status, 500);
      assert.equal(broken.headers.get('content-type'), 'application/problem+json');
      const problem = (await broken.json()) as { title: string; detail: string; templateError: string };
      assert.equal(problem.title, 'Template error');
      assert.match(problem.detail, /GET \/broken/);
      assert.match(problem.templateError, /unknown faker method "person.nope"/);
      assert.deepEqual(await (await call('/static')).json(), { static: true });
    }
    await waitUntil(
      () => /Template error in endpoint/.test(server.stderr() + server.stdout()),
      'the error logged',
    );
  });

  it('renders a templated proxy target per request', async (t) => {
    const sandbox = cliSandbox(t);
    const upstream = createServer((req, res) => res.end(`upstream ${req.url}`));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    sandbox.defer(() => new Promise((resolve) => upstream.close(resolve)));
    const port = (upstream.address() as { port: number }).port;
    const { cli } = sandbox;
    assert.equal((await cli(['project', 'create', 'api'])).code, 0);
    const r = await cli([
      'endpoint',
      'add',
      'api',
      '-p',
      '/up/*',
      '--proxy',
      'http://127.0.0.1:{{header "x-port"}}/base',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const server = await startServe(['api'], { dataDir: sandbox.dataDir });
    sandbox.defer(() => server.stop());
    const res = await fetch(`${server.url}/up/a/b?x=1`, { headers: { 'x-port': String(port) } });
    assert.equal(await res.text(), 'upstream /base/a/b?x=1');
    const bad = await fetch(`${server.url}/up/a`, { headers: { 'x-port': 'nope' } });
    assert.equal(bad.status, 500);
    assert.match(((await bad.json()) as { detail: string }).detail, /rendered target/);
  });
});
