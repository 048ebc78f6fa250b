/**
 * A WireMock folder (mappings/*.json and __files/, a proxy mapping among them) converted, made
 * into a project through the app's use case, served on a port the OS picks, and each endpoint
 * called over HTTP: the answers are what WireMock would have answered (status, headers, body,
 * the rule-chosen answer among mappings sharing a path, the proxy's upstream getting the whole
 * path, delays, faults, templates).
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { createProject } from '../../src/app/projects.js';
import { startServer } from '../../src/app/server.js';
import type { WireMockSource } from '../../src/formats/converted.js';
import { convertWireMock } from '../../src/formats/wiremock/index.js';
import { tempContext } from '../helpers/context.js';

/** An upstream answering what it was asked: method and path (with the query). */
async function echoUpstream(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const server: Server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ method: req.method, url: req.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The folder as the app reads it: each mapping file parsed, the __files by name. */
function folder(upstream: string): WireMockSource {
  const files: Record<string, string> = { 'users.json': '[{"id":1,"name":"Ada"}]' };
  const mappings = [
    {
      file: 'mappings/users.json',
      content: {
        name: 'List users',
        request: { method: 'GET', urlPath: '/api/users' },
        response: {
          status: 200,
          headers: { 'Content-Type': 'application/json', 'X-Total': '1' },
          bodyFileName: 'users.json',
        },
      },
    },
    {
      file: 'mappings/user-cases.json',
      content: {
        mappings: [
          {
            name: 'user found',
            request: { method: 'GET', urlPathTemplate: '/api/users/{id}' },
            response: { status: 200, jsonBody: { id: 1, name: 'Ada' } },
          },
          {
            name: 'user missing',
            priority: 1,
            request: {
              method: 'GET',
              urlPathTemplate: '/api/users/{id}',
              pathParameters: { id: { equalTo: '404' } },
            },
            response: { status: 404, jsonBody: { error: 'not found' } },
          },
          {
            name: 'admin view',
            priority: 2,
            request: {
              method: 'GET',
              urlPathTemplate: '/api/users/{id}',
              headers: { 'X-Role': { matches: 'admin|root' } },
            },
            response: { status: 200, jsonBody: { id: 1, name: 'Ada', admin: true } },
          },
        ],
      },
    },
    {
      file: 'mappings/login.json',
      content: {
        request: {
          method: 'POST',
          url: '/login?v=2',
          bodyPatterns: [{ matchesJsonPath: '$.user' }, { equalToJson: { user: 'ada' } }],
        },
        response: { status: 201, body: 'welcome', headers: { 'Set-Cookie': 'sid=1' } },
      },
    },
    {
      file: 'mappings/hello.json',
      content: {
        request: { method: 'GET', urlPath: '/hello' },
        response: {
          status: 200,
          body: 'Hello {{request.query.name}} at {{request.path}}',
          transformers: ['response-template'],
        },
      },
    },
    {
      file: 'mappings/raw.json',
      content: {
        request: { method: 'GET', urlPath: '/raw' },
        response: { body: 'kept {{as written}}', fixedDelayMilliseconds: 300 },
      },
    },
    {
      file: 'mappings/broken.json',
      content: {
        request: { method: 'GET', urlPath: '/broken' },
        response: { fault: 'CONNECTION_RESET_BY_PEER' },
      },
    },
    {
      file: 'mappings/proxy.json',
      content: {
        priority: 10,
        request: { method: 'ANY', urlPattern: '/upstream/.*' },
        response: { proxyBaseUrl: upstream },
      },
    },
  ];
  return { mappings, bodyFile: (name) => (files[name] === undefined ? undefined : Buffer.from(files[name])) };
}

const call = async (url: string, init: RequestInit = {}) => {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  return { status: res.status, headers: res.headers, text: await res.text() };
};

describe('WireMock import served', () => {
  it('answers as WireMock would for each mapping of a folder', async (t) => {
    const upstream = await echoUpstream(t);
    const converted = convertWireMock(folder(upstream));
    assert.deepEqual(converted.skipped, []);
    const ctx = tempContext(t, 'mockdev-import-wiremock-');
    const project = await createProject(ctx, { name: 'wiremock' }, converted.endpoints);
    const server = await startServer(ctx, { project: project.id, port: 0 });
    t.after(() => server.stop());
    const base = server.url;

    const users = await call(`${base}/api/users`);
    assert.equal(users.status, 200);
    assert.equal(users.headers.get('x-total'), '1');
    assert.match(users.headers.get('content-type') ?? '', /application\/json/);
    assert.deepEqual(JSON.parse(users.text), [{ id: 1, name: 'Ada' }]);

    // Mappings sharing GET /api/users/{id}: the rule-chosen one, else the one without conditions.
    assert.deepEqual(JSON.parse((await call(`${base}/api/users/7`)).text), { id: 1, name: 'Ada' });
    const missing = await call(`${base}/api/users/404`);
    assert.equal(missing.status, 404);
    assert.deepEqual(JSON.parse(missing.text), { error: 'not found' });
    const admin = await call(`${base}/api/users/7`, { headers: { 'X-Role': 'root' } });
    assert.deepEqual(JSON.parse(admin.text), { id: 1, name: 'Ada', admin: true });
    // `matches` is a whole-value match, as in WireMock.
    const notAdmin = await call(`${base}/api/users/7`, { headers: { 'X-Role': 'rooted' } });
    assert.deepEqual(JSON.parse(notAdmin.text), { id: 1, name: 'Ada' });

    const json = { 'Content-Type': 'application/json' };
    const login = await call(`${base}/login?v=2`, { method: 'POST', headers: json, body: '{"user":"ada"}' });
    assert.equal(login.status, 201);
    assert.equal(login.text, 'welcome');
    assert.equal(login.headers.get('set-cookie'), 'sid=1');
    // Not matched (the query differs): WireMock's 404.
    const wrong = await call(`${base}/login?v=1`, { method: 'POST', headers: json, body: '{"user":"ada"}' });
    assert.equal(wrong.status, 404);
    assert.equal(wrong.text, 'Request was not matched');

    assert.equal((await call(`${base}/hello?name=Ada`)).text, 'Hello Ada at /hello');
    const started = Date.now();
    const raw = await call(`${base}/raw`);
    assert.equal(raw.text, 'kept {{as written}}');
    assert.ok(Date.now() - started >= 250, 'the fixed delay is kept');

    await assert.rejects(call(`${base}/broken`));

    // The proxy's upstream gets the whole request path and query, whatever the method.
    const proxied = await call(`${base}/upstream/a/b?x=1`, { method: 'DELETE' });
    assert.deepEqual(JSON.parse(proxied.text), { method: 'DELETE', url: '/upstream/a/b?x=1' });
  });
});
