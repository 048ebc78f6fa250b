/**
 * Served responses after import: documents and cURL commands imported through the CLI
 * (in-process), then `mockdev serve` (spawned, on a free port the OS picks) answers with what
 * the import produced, including the unusual path templates.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from '../helpers/cli.js';
import { cliSandbox, type CliSandbox } from '../helpers/cli-inprocess.js';
import { startServe, type ServeHandle } from '../helpers/server.js';

const FIX = join(ROOT, 'test', 'fixtures', 'openapi');

/** `mockdev serve PROJECT` spawned on a free port, stopped after the test (before its sandbox goes). */
async function serve(sandbox: CliSandbox, project: string) {
  const server: ServeHandle = await startServe([project], { dataDir: sandbox.dataDir });
  sandbox.defer(() => server.stop());
  return { base: server.url, stop: () => server.stop() };
}

const get = async (url: string, method = 'GET') => {
  const res = await fetch(url, { method, signal: AbortSignal.timeout(10_000) });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    headers: res.headers,
    text: await res.text(),
  };
};

describe('served responses after import', () => {
  it('serves what an OpenAPI import produced, path templates included', async (t) => {
    const sandbox = cliSandbox(t, 'mockdev-serve-import-');
    const { cli } = sandbox;
    for (const f of ['petstore-3.0.yaml', 'api-3.1.yaml', 'swagger-2.0.json']) {
      const r = await cli(['import', join(FIX, f)]);
      assert.equal(r.code, 0, r.stderr);
    }
    const pet = await serve(sandbox, 'Petstore');
    try {
      const list = await get(`${pet.base}/pets`);
      assert.equal(list.status, 200);
      assert.match(list.type, /application\/json/);
      assert.equal(list.headers.get('x-next'), '/pets?page=2');
      assert.deepEqual(JSON.parse(list.text), [
        { name: 'string', tag: 'string', status: 'available', born: '2024-01-01', id: 0 },
      ]);
      const one = await get(`${pet.base}/pets/123`);
      assert.deepEqual(JSON.parse(one.text), { id: 1, name: 'Rex', tag: 'dog' });
      const created = await get(`${pet.base}/pets`, 'POST');
      assert.equal(created.status, 201);
      const deleted = await get(`${pet.base}/pets/5`, 'DELETE');
      assert.equal(deleted.status, 204);
      const health = await get(`${pet.base}/health`);
      assert.match(health.type, /text\/plain/);
      assert.equal(health.text, 'ok');
    } finally {
      await pet.stop();
    }

    const templates = await serve(sandbox, 'Templates 3.1');
    try {
      const call = await get(`${templates.base}/2010-04-01/Accounts/AC42/Calls/CA0123.json`);
      assert.equal(call.status, 200, call.text);
      assert.equal(JSON.parse(call.text).sid, 'CA0123456789abcdef0123456789abcdef');
      const compare = await get(`${templates.base}/repos/octo/hello/compare/main...feature-x`);
      assert.equal(compare.status, 200, compare.text);
      assert.equal(JSON.parse(compare.text).status, 'ahead');
      const team = await get(`${templates.base}/enterprises/acme/teams/platform-team`, 'DELETE');
      assert.equal(team.status, 204, team.text);
    } finally {
      await templates.stop();
    }

    const legacy = await serve(sandbox, 'Legacy Users');
    try {
      const csv = await get(`${legacy.base}/reports/2024-05.csv`);
      assert.equal(csv.status, 200, csv.text);
      assert.match(csv.type, /text\/csv/);
      assert.equal(csv.text, 'day,total\n1,10\n');
      const xml = await get(`${legacy.base}/users/abc`);
      assert.match(xml.type, /application\/xml/);
      assert.equal(xml.text, '<user><id>1</id></user>');
    } finally {
      await legacy.stop();
    }
  });

  it('serves endpoints imported from cURL commands', async (t) => {
    const sandbox = cliSandbox(t, 'mockdev-serve-import-');
    const { cli } = sandbox;
    assert.equal((await cli(['project', 'create', 'FromCurl'])).code, 0);
    const cmds = [
      `curl https://api.example.com/api/v1/users/42 -H 'Authorization: Bearer x'`,
      `curl -X POST https://api.example.com/api/v1/orders -H 'Content-Type: application/json' -d '{"sku":"A-1","qty":2}'`,
    ];
    for (const c of cmds) {
      const r = await cli(['curl', c, '-p', 'FromCurl']);
      assert.equal(r.code, 0, r.stderr);
    }
    const server = await serve(sandbox, 'FromCurl');
    try {
      const user = await get(`${server.base}/api/v1/users/42`);
      assert.equal(user.status, 200);
      assert.equal(user.text, '');
      const order = await get(`${server.base}/api/v1/orders`, 'POST');
      assert.equal(order.status, 200);
      assert.deepEqual(JSON.parse(order.text), { sku: 'A-1', qty: 2 });
    } finally {
      await server.stop();
    }
  });
});
