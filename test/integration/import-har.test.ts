/**
 * HAR import (issue 27) end to end: a HAR as Chromium saves it, converted, made into a project
 * through the app's use case, served on port 0 and called over HTTP: each recorded request gets
 * the answer it was recorded with (status, headers, content type, body; for one path recorded
 * with several query strings, the answer of that query string), and templates stay text.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createProject } from '../../src/app/projects.js';
import { startServer } from '../../src/app/server.js';
import { convertHar } from '../../src/formats/har/index.js';
import type { AfterHook } from '../helpers/cli-inprocess.js';
import { tempContext } from '../helpers/context.js';
import { har, harEntry } from '../helpers/har.js';
import { rawRequest } from '../helpers/http.js';

const API = 'https://api.shop.example';
const JSON_TYPE = 'application/json; charset=utf-8';

const recorded = har([
  harEntry('GET', 'https://app.shop.example/', { text: '<html></html>', mimeType: 'text/html' }, 'document'),
  harEntry(
    'GET',
    'https://app.shop.example/main.js',
    { text: 'go()', mimeType: 'application/javascript' },
    'script',
  ),
  harEntry('GET', `${API}/products?page=1`, {
    text: '{"items":["a"],"page":1}',
    headers: [
      ['content-type', JSON_TYPE],
      ['content-encoding', 'br'],
      ['content-length', '9'],
      ['cache-control', 'max-age=60'],
      ['set-cookie', 'sid=s1; Path=/; HttpOnly'],
    ],
  }),
  harEntry('GET', `${API}/products?page=2`, { text: '{"items":["b"],"page":2}' }),
  harEntry('GET', `${API}/products?page=3&size=10`, { text: '{"items":[],"page":3}' }),
  harEntry('GET', `${API}/products/7`, {
    text: Buffer.from('{"name":"Tea {{ not a template }}","price":"€3"}').toString('base64'),
    encoding: 'base64',
  }),
  harEntry('GET', `${API}/products/8`, { status: 404, text: '{"error":"not found"}' }),
  harEntry('POST', `${API}/cart`, {
    status: 201,
    text: '{"id":"c1"}',
    headers: [
      ['content-type', JSON_TYPE],
      ['location', '/cart/c1'],
    ],
  }),
  harEntry(
    'GET',
    `${API}/logo.png`,
    { text: 'iVBORw0KGgo=', encoding: 'base64', mimeType: 'image/png' },
    'image',
  ),
  harEntry('GET', `${API}/blocked`, { status: 0 }),
]);

describe('HAR import served', () => {
  it('answers each recorded request as it was answered; other hosts, assets and failed requests are reported', async (t: AfterHook) => {
    const converted = convertHar(recorded);
    assert.equal(converted.title, 'api.shop.example');
    const skipped = converted.skipped.map((n) => n.message).join('\n');
    assert.match(skipped, /1 entry of host app\.shop\.example skipped/);
    assert.match(skipped, /2 static asset\(s\)/);
    assert.match(skipped, /status 0/);

    const ctx = tempContext(t, 'mockdev-import-har-');
    await createProject(ctx, { name: converted.title! }, converted.endpoints);
    const server = await startServer(ctx, { project: converted.title!, port: 0 });
    t.after(() => server.stop());
    const get = (path: string, options = {}) => rawRequest(server.url, path, options);

    const page1 = await get('/products?page=1');
    assert.equal(page1.status, 200);
    assert.deepEqual(page1.json, { items: ['a'], page: 1 });
    assert.equal(page1.headers['content-type'], JSON_TYPE);
    assert.equal(page1.headers['cache-control'], 'max-age=60');
    assert.deepEqual(page1.headers['set-cookie'], ['sid=s1; Path=/; HttpOnly']);
    assert.equal(page1.headers['content-encoding'], undefined, 'the body is sent decoded');
    assert.equal(page1.headers['content-length'], String(Buffer.byteLength(page1.body)));

    assert.deepEqual((await get('/products?page=2')).json, { items: ['b'], page: 2 });
    assert.deepEqual((await get('/products?size=10&page=3')).json, { items: [], page: 3 });
    assert.deepEqual(
      (await get('/products')).json,
      { items: ['a'], page: 1 },
      'no query: the plainest answer',
    );

    const seven = await get('/products/7');
    assert.equal(seven.status, 200);
    assert.deepEqual(seven.json, { name: 'Tea {{ not a template }}', price: '€3' });

    const eight = await get('/products/8');
    assert.deepEqual([eight.status, eight.json], [404, { error: 'not found' }]);

    const cart = await get('/cart', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.deepEqual([cart.status, cart.json, cart.headers.location], [201, { id: 'c1' }, '/cart/c1']);

    assert.equal((await get('/logo.png')).status, 404, 'a static asset is not imported');
    assert.equal((await get('/blocked')).status, 404, 'a failed request is not imported');
  });
});
