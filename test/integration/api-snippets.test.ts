import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildSnippets, SNIPPET_LANGUAGES } from '../../src/core/snippets.js';
import type { Endpoint } from '../../src/core/model/endpoint.js';
import { apiSandbox } from '../helpers/api.js';
import { runCliInProcess } from '../helpers/cli-inprocess.js';

type Json = Record<string, unknown>;

describe('copy as code: GET …/snippets and mockdev endpoint code', () => {
  it('answers the four snippets calling the project’s port when no server runs; the CLI prints the same text', async (t) => {
    const api = apiSandbox(t);
    assert.equal(
      (await api.call('POST', '/api/v1/projects', { body: { name: 'Shop', port: 4321 } })).status,
      201,
    );
    const created = await api.call('POST', '/api/v1/projects/Shop/endpoints', {
      body: { name: 'Get order', path: '/api/orders/{orderId}' },
    });
    const endpoint = created.json as Endpoint;

    const r = await api.call(
      'GET',
      `/api/v1/projects/Shop/endpoints/${encodeURIComponent('GET /api/orders/:id')}/snippets`,
    );
    assert.equal(r.status, 200, r.body);
    const snippets = r.json as Record<string, string>;
    assert.deepEqual(Object.keys(snippets).sort(), ['axios', 'curl', 'fetch', 'python']);
    assert.deepEqual(snippets, { ...buildSnippets(endpoint, 'http://127.0.0.1:4321') });
    assert.equal(snippets.curl, "curl 'http://127.0.0.1:4321/api/orders/1'\n");

    const dataDir = api.dataDir;
    for (const lang of SNIPPET_LANGUAGES) {
      const out = await runCliInProcess(['endpoint', 'code', 'Shop', 'Get order', '--lang', lang], {
        dataDir,
      });
      assert.equal(out.code, 0, out.stderr);
      assert.equal(out.stdout, snippets[lang], lang);
    }
    const dflt = await runCliInProcess(['endpoint', 'code', 'Shop', endpoint.id], { dataDir });
    assert.equal(dflt.stdout, snippets.curl, 'curl by default');
  });

  it('errors: an unknown endpoint or project is 404 (CLI exit 1 / 3); a bad --lang exits 2 naming the languages', async (t) => {
    const api = apiSandbox(t);
    await api.call('POST', '/api/v1/projects', { body: { name: 'Shop' } });
    const noEndpoint = await api.call('GET', '/api/v1/projects/Shop/endpoints/nope/snippets');
    assert.equal(noEndpoint.status, 404);
    assert.equal((noEndpoint.json as Json).code, 'NOT_FOUND');

    const dataDir = api.dataDir;
    const badLang = await runCliInProcess(['endpoint', 'code', 'Shop', 'x', '--lang', 'ruby'], { dataDir });
    assert.equal(badLang.code, 2);
    assert.match(badLang.stderr, /--lang "ruby".*curl, fetch, axios, python/);
    assert.equal(badLang.stdout, '');
    const unknown = await runCliInProcess(['endpoint', 'code', 'Shop', 'nope'], { dataDir });
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /Endpoint "nope" not found/);
    const noProject = await runCliInProcess(['endpoint', 'code', 'Nope', 'x'], { dataDir });
    assert.equal(noProject.code, 3);
  });
});
