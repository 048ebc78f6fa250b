import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiSandbox, type ApiSandbox } from '../helpers/api.js';

type Json = Record<string, unknown>;
const problem = (r: { json: unknown }) => r.json as { code: string; detail: string };

async function setup(api: ApiSandbox): Promise<string> {
  const p = await api.call('POST', '/api/v1/projects', { body: { name: 'Shop' } });
  assert.equal(p.status, 201, p.body);
  const e = await api.call('POST', '/api/v1/projects/Shop/endpoints', {
    body: { name: 'Get user', path: '/api/users/:id', status: 200, body: '{"id":1}' },
  });
  assert.equal(e.status, 201, e.body);
  return `/api/v1/projects/Shop/endpoints/${encodeURIComponent('Get user')}`;
}

describe('admin API: variations', () => {
  it('adds (with the endpoint’s defaults, rules as text or objects), lists, updates, activates and removes', async (t) => {
    const api = apiSandbox(t);
    const base = await setup(api);
    const missing = await api.call('POST', `${base}/variations`, {
      body: { name: 'missing', status: 404, rules: ['param.id=0'] },
    });
    assert.equal(missing.status, 201, missing.body);
    const m = missing.json as Json;
    assert.equal(m.contentType, undefined, "unset: the endpoint's, at run time");
    assert.equal(m.body, undefined);
    assert.deepEqual(m.inherits, ['body', 'contentType', 'headers']);
    assert.deepEqual(m.rules, [{ source: 'param', key: 'id', op: 'equals', value: '0' }]);
    const slow = await api.call('POST', `${base}/variations`, {
      body: {
        name: 'slow',
        delay: 50,
        headers: { 'X-Slow': '1' },
        rules: [{ source: 'query', key: 'slow', op: 'exists' }],
      },
    });
    assert.equal(slow.status, 201, slow.body);
    assert.equal((slow.json as Json).status, 200, "the endpoint's status");

    const list = await api.call('GET', `${base}/variations`);
    assert.equal(list.status, 200);
    assert.deepEqual(
      (list.json as Json[]).map((v) => v.name),
      ['missing', 'slow'],
    );

    const patched = await api.call('PATCH', `${base}/variations/SLOW`, {
      body: { status: 503, headers: { 'X-Slow': null, 'Retry-After': '5' }, rules: [] },
    });
    assert.equal(patched.status, 200, patched.body);
    const p = patched.json as Json;
    assert.equal(p.status, 503);
    assert.equal(p.delay, 50, 'fields not given keep their values');
    assert.deepEqual(p.headers, { 'Retry-After': '5' });
    assert.equal(p.rules, undefined, '[] clears the rules');
    assert.deepEqual(p.inherits, ['body', 'contentType']);

    // A body of its own, then the endpoint's again (null, or named in inherit).
    const own = await api.call('PATCH', `${base}/variations/slow`, {
      body: { body: 'slow down', contentType: 'text/plain' },
    });
    assert.deepEqual([(own.json as Json).body, (own.json as Json).inherits], ['slow down', []]);
    const back = await api.call('PATCH', `${base}/variations/slow`, {
      body: { body: null, inherit: ['contentType', 'headers'] },
    });
    assert.equal(back.status, 200, back.body);
    assert.deepEqual((back.json as Json).inherits, ['body', 'contentType', 'headers']);
    assert.deepEqual([(back.json as Json).body, (back.json as Json).headers], [undefined, {}]);
    const both = await api.call('PATCH', `${base}/variations/slow`, {
      body: { body: 'x', inherit: ['body'] },
    });
    assert.equal(both.status, 400);
    assert.match(both.body, /Give body a value or inherit it from the endpoint, not both/);

    const active = await api.call('PUT', `${base}/active-variation`, { body: { variationId: 'slow' } });
    assert.equal(active.status, 200, active.body);
    assert.equal((active.json as Json).activeVariationId, p.id);
    const none = await api.call('PUT', `${base}/active-variation`, { body: { variationId: null } });
    assert.equal(none.status, 200, none.body);
    assert.equal((none.json as Json).activeVariationId, undefined);

    await api.call('PUT', `${base}/active-variation`, { body: { variationId: m.id } });
    const removed = await api.call('DELETE', `${base}/variations/${m.id as string}`);
    assert.equal(removed.status, 200, removed.body);
    assert.equal((removed.json as Json).name, 'missing');
    const endpoint = (await api.call('GET', base)).json as Json;
    assert.equal(endpoint.activeVariationId, undefined, 'removing the active variation deactivates it');
    assert.deepEqual(
      (endpoint.variations as Json[]).map((v) => v.name),
      ['slow'],
    );
  });

  it('errors: unknown project, endpoint or variation 404; a taken name 409; bad rules and fields 400', async (t) => {
    const api = apiSandbox(t);
    const base = await setup(api);
    await api.call('POST', `${base}/variations`, { body: { name: 'one' } });

    const noProject = await api.call('GET', '/api/v1/projects/nope/endpoints/x/variations');
    assert.equal(noProject.status, 404);
    assert.equal(problem(noProject).code, 'PROJECT_NOT_FOUND');
    const noEndpoint = await api.call('POST', '/api/v1/projects/Shop/endpoints/nope/variations', {
      body: { name: 'x' },
    });
    assert.equal(noEndpoint.status, 404);
    assert.equal(problem(noEndpoint).code, 'NOT_FOUND');
    for (const [method, url, body] of [
      ['PATCH', `${base}/variations/nope`, { status: 500 }],
      ['DELETE', `${base}/variations/nope`, undefined],
      ['PUT', `${base}/active-variation`, { variationId: 'nope' }],
    ] as const) {
      const r = await api.call(method, url, body === undefined ? {} : { body });
      assert.equal(r.status, 404, `${method} ${url}: ${r.body}`);
      assert.equal(problem(r).code, 'NOT_FOUND');
      assert.match(problem(r).detail, /Variation "nope" not found/);
    }

    const taken = await api.call('POST', `${base}/variations`, { body: { name: 'ONE' } });
    assert.equal(taken.status, 409, taken.body);
    assert.equal(problem(taken).code, 'NAME_TAKEN');

    for (const [body, field] of [
      [{}, /name/],
      [{ name: 'x', status: 700 }, /status/],
      [{ name: 'x', rules: ['nowhere.x=1'] }, /unknown source "nowhere"/],
      [{ name: 'x', rules: ['param.userId=1'] }, /path parameter "userId"/],
      [{ name: 'x', rules: [{ source: 'query', key: 'q', op: 'regex', value: '(' }] }, /regular expression/],
      [
        { name: 'x', rules: [{ source: 'header', key: 'x', op: 'regex', value: 'a(?=b)' }] },
        /lookahead or lookbehind .*cannot run in linear time/,
      ],
      [
        { name: 'x', rules: ['query.q!=x'] },
        /unknown operator "!=": use = \(equals\), ~ \(regex\) or \? \(exists\)/,
      ],
      [{ name: 'x', body: '{{#each}}' }, /line 1, column/],
    ] as const) {
      const r = await api.call('POST', `${base}/variations`, { body });
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.body}`);
      assert.equal(problem(r).code, 'INVALID_ARGUMENT');
      assert.match(problem(r).detail, field, JSON.stringify(body));
    }
    const empty = await api.call('PATCH', `${base}/variations/one`, { body: {} });
    assert.equal(empty.status, 400, 'an empty change is refused');
    const noBody = await api.call('PUT', `${base}/active-variation`, { body: {} });
    assert.equal(noBody.status, 400);
    assert.match(problem(noBody).detail, /variationId/);
  });
});

describe('admin API: the OpenAPI document covers the endpoint and variation routes', () => {
  it('lists each with its path parameters described, and validates as OpenAPI 3.1', async (t) => {
    const api = apiSandbox(t);
    const r = await api.call('GET', '/api/v1/openapi.json');
    assert.equal(r.status, 200);
    const doc = r.json as { paths: Record<string, Record<string, { parameters?: Json[] }>> };
    const wanted = {
      '/api/v1/projects/{project}/endpoints': ['get', 'post', 'delete'],
      '/api/v1/projects/{project}/endpoints/{endpoint}': ['get', 'patch', 'delete'],
      '/api/v1/projects/{project}/endpoints/{endpoint}/snippets': ['get'],
      '/api/v1/projects/{project}/endpoints/{endpoint}/variations': ['get', 'post'],
      '/api/v1/projects/{project}/endpoints/{endpoint}/variations/{variation}': ['patch', 'delete'],
      '/api/v1/projects/{project}/endpoints/{endpoint}/active-variation': ['put'],
    };
    for (const [path, methods] of Object.entries(wanted)) {
      assert.deepEqual(Object.keys(doc.paths[path] ?? {}).sort(), [...methods].sort(), path);
      for (const method of methods)
        for (const p of doc.paths[path]![method]!.parameters ?? [])
          if (p.in === 'path')
            assert.notEqual(p.description, p.name, `${method} ${path}: {${p.name as string}}`);
    }
    const removeParams = doc.paths['/api/v1/projects/{project}/endpoints']!.delete!.parameters!;
    assert.deepEqual(
      removeParams.filter((p) => p.in === 'query').map((p) => p.name),
      ['ids', 'pathPrefix'],
    );
    const { validateOpenApiDocument } = await import('../../src/formats/openapi/meta-schema.js');
    assert.deepEqual(await validateOpenApiDocument(r.json, '3.1'), []);
  });
});
