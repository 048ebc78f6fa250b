/**
 * A Postman Collection v2.1 (folders, saved examples, a request without any) converted, made
 * into a project through the app's use case and served on a free port: each endpoint answers
 * over HTTP what Postman's mock server answers for its examples (status, headers, body), the
 * variations when the request is the one their example was saved for. Postman's `{{var}}` are
 * data here: the text is sent as written (as the import writes it: templates off).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createProject } from '../../src/app/projects.js';
import { startServer } from '../../src/app/server.js';
import { keepTextLiteral } from '../../src/core/model/imported-text.js';
import { convertPostman } from '../../src/formats/postman/index.js';
import type { AfterHook } from '../helpers/cli-inprocess.js';
import { tempContext } from '../helpers/context.js';
import { rawRequest } from '../helpers/http.js';
import { shopCollection } from '../helpers/postman.js';

describe('a Postman collection, imported and served', () => {
  it('answers each request as the collection’s examples say', async (t: AfterHook) => {
    const ctx = tempContext(t, 'mockdev-import-postman-');
    const converted = convertPostman(shopCollection());
    assert.equal(converted.templates, false);
    const endpoints = converted.endpoints.map((e) => keepTextLiteral(e).input);
    await createProject(ctx, { name: converted.title!, description: converted.description }, endpoints);
    const server = await startServer(ctx, { project: 'Shop API', port: 0 });
    t.after(() => server.stop());
    const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
      rawRequest(server.url, path, { method, headers });

    const user = await get('/users/1');
    assert.deepEqual([user.status, user.json], [200, { id: 1, name: 'Ada' }]);
    assert.equal(user.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(user.headers['x-request-id'], 'req-1');

    // The example saved for /users/999, with its text as written ({{id}} is Postman's, not ours).
    const missing = await get('/users/999');
    assert.deepEqual([missing.status, missing.body], [404, '{"error":"no user {{id}}"}']);
    assert.equal(missing.headers['x-request-id'], 'req-2');
    // An example named by the request, as Postman's x-mock-response-name does.
    const named = await get('/users/5', { 'x-mockdev-variation': 'Not found' });
    assert.equal(named.status, 404);

    const first = await get('/users?page=1', { accept: 'application/json' });
    assert.deepEqual([first.status, first.json], [200, [{ id: 1, name: 'Ada' }]]);
    const second = await get('/users?page=2', { accept: 'application/json' });
    assert.deepEqual(second.json, [{ id: 2, name: 'Grace' }]);
    const csv = await get('/users?page=1', { accept: 'text/csv' });
    assert.deepEqual([csv.headers['content-type'], csv.body], ['text/csv', 'id,name\n1,Ada\n']);

    const order = await get('/orders', { 'content-type': 'application/json' }, 'POST');
    assert.deepEqual(
      [order.status, order.headers['location'], order.json],
      [201, '/orders/7', { id: 7, sku: 'A-1' }],
    );

    const health = await get('/health');
    assert.deepEqual([health.status, health.json], [200, {}]);

    const item = await get('/v2/items/42');
    assert.deepEqual([item.status, item.headers['content-type'], item.body], [200, 'text/plain', 'item']);
  });
});
