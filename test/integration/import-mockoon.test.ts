/**
 * A Mockoon environment (rules, sequential mode, latency, a template, a data bucket behind a CRUD
 * route, a disabled route) converted, made into a project through the app's use cases
 * (createProject, addResource), served on port 0 and called over HTTP: each answer is what
 * Mockoon would have sent.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createProject } from '../../src/app/projects.js';
import { addResource } from '../../src/app/resources.js';
import { startServer, type RunningServer } from '../../src/app/server.js';
import { convertMockoon } from '../../src/formats/mockoon/index.js';
import { tempContext } from '../helpers/context.js';
import { rawRequest } from '../helpers/http.js';
import { mockoonEnvironment, mockoonResponse, mockoonRoute, rule } from '../helpers/mockoon.js';

const environment = mockoonEnvironment(
  [
    mockoonRoute({
      endpoint: 'users/:id',
      documentation: 'Get user',
      responses: [mockoonResponse({ default: true, body: '{"id":"{{urlParam \'id\'}}"}' })],
    }),
    mockoonRoute({
      endpoint: 'orders',
      responses: [
        mockoonResponse({ label: 'All orders', default: true, body: '{"orders":"all"}' }),
        mockoonResponse({
          label: 'Forbidden',
          statusCode: 403,
          body: '{"error":"no"}',
          rulesOperator: 'AND',
          rules: [rule('header', 'X-Role', 'equals', 'guest'), rule('query', 'scope', 'regex', '^adm')],
        }),
        mockoonResponse({
          label: 'Paid',
          body: '{"orders":"paid"}',
          headers: [{ key: 'Content-Type', value: 'text/plain' }],
          rulesOperator: 'OR',
          rules: [rule('query', 'status', 'equals', 'paid'), rule('header', 'X-Paid', 'equals', 'yes')],
        }),
      ],
    }),
    mockoonRoute({
      endpoint: 'seq',
      responseMode: 'SEQUENTIAL',
      responses: [
        mockoonResponse({ default: true, body: 'first' }),
        mockoonResponse({ statusCode: 500, body: 'second' }),
      ],
    }),
    mockoonRoute({
      endpoint: 'slow',
      responses: [mockoonResponse({ default: true, latency: 300, body: 'late' })],
    }),
    mockoonRoute({
      type: 'crud',
      endpoint: 'people',
      responses: [
        mockoonResponse({ default: true, bodyType: 'DATABUCKET', databucketID: 'pq12', crudKey: 'id' }),
      ],
    }),
    { ...mockoonRoute({ endpoint: 'gone' }), enabled: false },
  ],
  {
    endpointPrefix: 'api',
    headers: [
      { key: 'Content-Type', value: 'application/json' },
      { key: 'X-Powered-By', value: 'demo' },
    ],
    data: [
      {
        uuid: 'd1',
        id: 'pq12',
        name: 'People',
        documentation: '',
        value: '[{"id":1,"name":"Ann"},{"id":2,"name":"Bob"}]',
      },
    ],
  },
);

describe('Mockoon import, served', () => {
  it('answers as Mockoon would: templates, rules (AND, OR), sequential, latency, CRUD from a bucket, disabled', async (t) => {
    const running: { server?: RunningServer } = {};
    const ctx = tempContext({ after: (fn) => t.after(async () => (await running.server?.stop(), fn())) });
    const converted = convertMockoon(environment);
    const project = await createProject(ctx, { name: converted.title! }, converted.endpoints);
    for (const r of converted.resources) await addResource(ctx, project.id, r);
    const server = await startServer(ctx, { project: project.id, port: 0 });
    running.server = server;
    const call = (path: string, options: Parameters<typeof rawRequest>[2] = {}) =>
      rawRequest(server.url, path, options);

    const user = await call('/api/users/42');
    assert.equal(user.status, 200);
    assert.deepEqual(user.json, { id: '42' });
    assert.equal(user.headers['x-powered-by'], 'demo');
    assert.match(String(user.headers['content-type']), /^application\/json/);

    assert.deepEqual((await call('/api/orders')).json, { orders: 'all' });
    // AND: both rules must match.
    assert.deepEqual((await call('/api/orders?scope=admin', { headers: { 'X-Role': 'user' } })).json, {
      orders: 'all',
    });
    const forbidden = await call('/api/orders?scope=admin', { headers: { 'X-Role': 'guest' } });
    assert.equal(forbidden.status, 403);
    assert.deepEqual(forbidden.json, { error: 'no' });
    // OR: either rule.
    const byQuery = await call('/api/orders?status=paid');
    assert.equal(byQuery.body, '{"orders":"paid"}');
    assert.match(String(byQuery.headers['content-type']), /^text\/plain/);
    assert.equal((await call('/api/orders', { headers: { 'X-Paid': 'yes' } })).body, '{"orders":"paid"}');

    const seq = [];
    for (let i = 0; i < 3; i++) {
      const r = await call('/api/seq');
      seq.push(`${r.status} ${r.body}`);
    }
    assert.deepEqual(seq, ['200 first', '500 second', '200 first']);

    const started = Date.now();
    const slow = await call('/api/slow');
    assert.equal(slow.body, 'late');
    assert.ok(Date.now() - started >= 280, 'the route latency delays the answer');

    assert.deepEqual((await call('/api/people')).json, [
      { id: 1, name: 'Ann' },
      { id: 2, name: 'Bob' },
    ]);
    assert.deepEqual((await call('/api/people/2')).json, { id: 2, name: 'Bob' });

    assert.equal((await call('/api/gone')).status, 404);
  });
});
