/**
 * The status text (HTTP reason phrase) of a response: set, shown and cleared through the CLI for
 * endpoints and variations (bad text and template errors refused at save, exit 2); on the wire
 * against a spawned `mockdev serve` for a static endpoint, a variation and a template; a run-time
 * template error answering 500; an endpoints.json written before the field still served.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import type { Endpoint, Variation } from '../../src/core/model/endpoint.js';
import type { ProjectDetail } from '../../src/core/model/project.js';
import { assertCliError, json } from '../helpers/cli.js';
import { cliSandbox } from '../helpers/cli-inprocess.js';
import { fails, ok as mcpOk, startInMemoryMcp } from '../helpers/mcp.js';
import { makeProject, startServe, waitUntil, writeEndpoints } from '../helpers/server.js';

/** One request with node's client: the status, the reason phrase as received, the body. */
function get(
  url: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; statusMessage: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, statusMessage: res.statusMessage!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The status line exactly as the server wrote it on the socket. */
function statusLine(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
    );
    let data = Buffer.alloc(0);
    socket.on('data', (d: Buffer) => (data = Buffer.concat([data, d])));
    socket.on('error', reject);
    socket.on('close', () => resolve(data.toString('latin1').split('\r\n')[0]!));
  });
}

describe('status text (reason phrase)', () => {
  it('endpoint and variation commands set, show and clear it; bad text and template errors exit 2', async (t) => {
    const { cli } = cliSandbox(t);
    const ok = async (args: string[]) => {
      const r = await cli(args);
      assert.equal(r.code, 0, r.stderr);
      return r;
    };
    await ok(['project', 'create', 'api']);
    const added = json<Endpoint>(
      await ok([
        ...['endpoint', 'add', 'api', '-m', 'PUT', '-p', '/things/:id', '-s', '201'],
        ...['--status-text', 'Created {{params.id}}', '--json'],
      ]),
    );
    assert.equal(added.statusText, 'Created {{params.id}}');
    const human = await ok(['endpoint', 'show', 'api', 'PUT /things/:id']);
    assert.match(human.stdout, /^status text:\s+Created \{\{params\.id\}\}$/m);

    const plain = json<Endpoint>(
      await ok(['endpoint', 'add', 'api', '-p', '/plain', '--status-text', '', '--json']),
    );
    assert.equal('statusText' in plain, false);
    assert.doesNotMatch((await ok(['endpoint', 'show', 'api', 'GET /plain'])).stdout, /status text/);

    const v = json<Variation>(
      await ok([
        ...['endpoint', 'variation', 'add', 'api', 'PUT /things/:id', '-n', 'gone', '-s', '410'],
        ...['--status-text', 'Gone Fishing', '--json'],
      ]),
    );
    assert.equal(v.statusText, 'Gone Fishing');
    const other = json<Variation>(
      await ok(['endpoint', 'variation', 'add', 'api', 'PUT /things/:id', '-n', 'other', '--json']),
    );
    assert.equal('statusText' in other, false, "a variation does not take the endpoint's status text");
    assert.match(
      (await ok(['endpoint', 'show', 'api', 'PUT /things/:id'])).stdout,
      /variations:\s+gone \(410 Gone Fishing; inherits body, content type, headers\), other \(201; inherits body, content type, headers\)/,
    );
    const renamed = await ok([
      ...['endpoint', 'variation', 'update', 'api', 'PUT /things/:id', 'gone'],
      ...['--status-text', 'Gone {{params.id}}', '--json'],
    ]);
    assert.equal(json<Variation>(renamed).statusText, 'Gone {{params.id}}');

    // Refused at save: one line, exit 2, the field named (template errors with line and column).
    assertCliError(
      await cli(['endpoint', 'add', 'api', '-p', '/x', '--status-text', 'OK\r\nSet-Cookie: a=1']),
      2,
      /Invalid statusText "OK\\r\\nSet-Cookie: a=1": must be one line/,
    );
    assertCliError(
      await cli(['endpoint', 'add', 'api', '-p', '/x', '--status-text', 'x'.repeat(201)]),
      2,
      /Invalid statusText .*at most 200 characters/,
    );
    assertCliError(
      await cli(['endpoint', 'add', 'api', '-p', '/x', '--status-text', 'Made {{params.id}']),
      2,
      /Invalid template in statusText at line 1, column 17/,
    );
    assertCliError(
      await cli(['endpoint', 'update', 'api', 'GET /plain', '--status-text', 'A {{exec "ls"}}']),
      2,
      /Invalid template in statusText: Unknown helper "exec" at line 1, column \d+/,
    );
    assertCliError(
      await cli([
        'endpoint',
        'variation',
        'add',
        'api',
        'GET /plain',
        '-n',
        'v',
        '--status-text',
        '{{#if a}}',
      ]),
      2,
      /Invalid template in variation "v" statusText at line 1, column \d+/,
    );
    assertCliError(
      await cli([
        'endpoint',
        'variation',
        'update',
        'api',
        'PUT /things/:id',
        'gone',
        '--status-text',
        'a\nb',
      ]),
      2,
      /Invalid variations\.0\.statusText "a\\nb": must be one line/,
    );

    // `--status-text ""` clears it: the stored JSON has no statusText again.
    const cleared = json<Endpoint>(
      await ok(['endpoint', 'update', 'api', 'PUT /things/:id', '--status-text', '', '--json']),
    );
    assert.equal('statusText' in cleared, false);
    assert.equal(cleared.status, 201);
    const vCleared = json<Variation>(
      await ok([
        'endpoint',
        'variation',
        'update',
        'api',
        'PUT /things/:id',
        'gone',
        '--status-text',
        '',
        '--json',
      ]),
    );
    assert.equal('statusText' in vCleared, false);
    const shown = json<Endpoint>(await ok(['endpoint', 'show', 'api', 'PUT /things/:id', '--json']));
    assert.equal(JSON.stringify(shown).includes('statusText'), false);
  });

  it('sends the configured reason phrase: static, variation, template; 500 on a run-time error', async (t) => {
    const sandbox = cliSandbox(t);
    const { cli } = sandbox;
    const ok = async (args: string[]) => {
      const r = await cli(args);
      assert.equal(r.code, 0, r.stderr);
    };
    await ok(['project', 'create', 'api']);
    await ok(['endpoint', 'add', 'api', '-p', '/static', '--status-text', 'All Good Here', '-b', '{"s":1}']);
    await ok(['endpoint', 'add', 'api', '-p', '/standard', '-s', '202']);
    await ok(['endpoint', 'add', 'api', '-p', '/static-latin', '--status-text', 'Prêt', '-b', '{"s":2}']);
    await ok(['endpoint', 'add', 'api', '-m', 'PUT', '-p', '/things/:id', '-s', '201']);
    await ok(['endpoint', 'update', 'api', 'PUT /things/:id', '--status-text', 'Created {{params.id}}']);
    await ok(['endpoint', 'add', 'api', '-p', '/v/:id', '-b', 'default']);
    await ok([
      ...['endpoint', 'variation', 'add', 'api', 'GET /v/:id', '-n', 'gone', '-s', '410'],
      ...['--status-text', 'Gone Fishing', '-b', 'gone', '--when', 'query.gone?'],
    ]);
    await ok([
      ...['endpoint', 'variation', 'add', 'api', 'GET /v/:id', '-n', 'latin', '-s', '418'],
      ...['--status-text', 'Thé {{params.id}} prêt', '--when', 'query.tea?'],
    ]);
    await ok(['endpoint', 'add', 'api', '-p', '/broken', '--status-text', "Oops {{faker 'person.nope'}}"]);
    await ok(['endpoint', 'add', 'api', '-p', '/echo/:id', '--status-text', 'Hi {{params.id}}']);

    const server = await startServe(['api'], { dataDir: sandbox.dataDir });
    sandbox.defer(() => server.stop());

    assert.deepEqual(await get(server.url, '/static'), {
      status: 200,
      statusMessage: 'All Good Here',
      body: '{"s":1}',
    });
    assert.equal((await get(server.url, '/static', {}, 'HEAD')).statusMessage, 'All Good Here');
    assert.equal((await get(server.url, '/standard')).statusMessage, 'Accepted');
    const created = await get(server.url, '/things/42', {}, 'PUT');
    assert.deepEqual([created.status, created.statusMessage], [201, 'Created 42']);
    assert.equal((await get(server.url, '/things/7', {}, 'PUT')).statusMessage, 'Created 7');
    assert.equal(await statusLine(server.port, '/static'), 'HTTP/1.1 200 All Good Here');

    // Variations: by rule, by the request header; the default response keeps the standard text.
    assert.deepEqual(await get(server.url, '/v/1?gone'), {
      status: 410,
      statusMessage: 'Gone Fishing',
      body: 'gone',
    });
    assert.equal(
      (await get(server.url, '/v/1', { 'X-Mockdev-Variation': 'gone' })).statusMessage,
      'Gone Fishing',
    );
    assert.deepEqual(await get(server.url, '/v/1'), { status: 200, statusMessage: 'OK', body: 'default' });
    // Latin-1 goes out as Latin-1 bytes (what HTTP/1.1 status lines carry).
    assert.equal(await statusLine(server.port, '/v/9?tea'), 'HTTP/1.1 418 Thé 9 prêt');
    assert.equal(await statusLine(server.port, '/static-latin'), 'HTTP/1.1 200 Prêt');

    // A run-time error in the status text: the template 500; the server keeps serving.
    const broken = await get(server.url, '/broken');
    assert.equal(broken.status, 500);
    assert.equal(broken.statusMessage, 'Internal Server Error');
    const problem = JSON.parse(broken.body) as { title: string; templateError: string };
    assert.equal(problem.title, 'Template error');
    assert.match(problem.templateError, /unknown faker method "person.nope"/);
    // A line break from the request never splits the response.
    const split = await get(server.url, '/echo/a%0D%0ASet-Cookie:%20x=1');
    assert.equal(split.status, 500);
    assert.match((JSON.parse(split.body) as { templateError: string }).templateError, /must be one line/);
    assert.equal((await get(server.url, '/echo/there')).statusMessage, 'Hi there');
    assert.equal((await get(server.url, '/static')).statusMessage, 'All Good Here');
  });

  it('serves an endpoints.json written before the field, and one edited by hand to carry it', async (t) => {
    const sandbox = cliSandbox(t);
    // The shape of endpoints.json before statusText existed: no such key anywhere.
    const { dir } = await makeProject(sandbox.dataDir, 'old', [
      { path: '/old', status: 201, body: 'old', variations: [{ id: 'v1', name: 'n', status: 404 }] },
    ]);
    const server = await startServe(['old'], { dataDir: sandbox.dataDir });
    sandbox.defer(() => server.stop());
    assert.deepEqual(await get(server.url, '/old'), { status: 201, statusMessage: 'Created', body: 'old' });
    assert.equal((await get(server.url, '/old', { 'X-Mockdev-Variation': 'n' })).statusMessage, 'Not Found');
    const listed = await sandbox.cli(['endpoint', 'list', 'old', '--json']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(listed.stdout.includes('statusText'), false);

    // A hand edit adding it takes effect on the next request (live reload).
    writeEndpoints(dir, [{ path: '/old', status: 201, statusText: 'Made By Hand', body: 'old' }]);
    await waitUntil(
      async () => (await get(server.url, '/old')).statusMessage === 'Made By Hand',
      'the hand-edited status text to be served',
    );
  });

  it('MCP: the endpoint tools describe statusText, store it, clear it with "" or null, refuse bad ones', async (t) => {
    const mcp = await startInMemoryMcp();
    t.after(() => mcp.close());
    const { client } = mcp;
    type Schema = {
      description?: string;
      properties?: Record<string, Schema>;
      items?: Schema;
      anyOf?: Schema[];
    };
    const { tools } = await client.listTools();
    for (const name of ['create_endpoint', 'update_endpoint']) {
      const props = tools.find((x) => x.name === name)!.inputSchema.properties as Record<string, Schema>;
      assert.match(props.statusText!.description!, /Reason phrase/, `${name}.statusText is described`);
      const item = props.variations!.items ?? props.variations!.anyOf?.find((x) => x.items)?.items;
      assert.match(item!.properties!.statusText!.description!, /Reason phrase/);
    }
    const projectId = (await mcpOk<ProjectDetail>(client, 'create_project', { name: 'S' })).id;
    const e = await mcpOk<Endpoint>(client, 'create_endpoint', {
      projectId,
      path: '/users/{id}',
      statusText: 'Found {{params.id}}',
      variations: [{ id: 'v1', name: 'gone', status: 410, statusText: '' }],
    });
    assert.equal(e.statusText, 'Found {{params.id}}');
    assert.equal('statusText' in e.variations[0]!, false, 'an empty one is not stored');
    const update = (args: Record<string, unknown>) =>
      mcpOk<Endpoint>(client, 'update_endpoint', { projectId, endpointId: e.id, ...args });
    assert.equal('statusText' in (await update({ statusText: '' })), false);
    assert.equal((await update({ statusText: 'Back' })).statusText, 'Back');
    assert.equal('statusText' in (await update({ statusText: null })), false);
    await fails(
      client,
      'update_endpoint',
      { projectId, endpointId: e.id, statusText: 'a\r\nb' },
      /statusText .*must be one line/,
    );
    await fails(
      client,
      'update_endpoint',
      { projectId, endpointId: e.id, statusText: 'A {{#if x}}' },
      /Invalid template in statusText at line 1, column \d+/,
    );
  });
});
