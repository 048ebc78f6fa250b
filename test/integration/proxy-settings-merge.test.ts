/**
 * A change to a proxy endpoint's settings keeps the settings it does not name, whichever
 * adapter sends it: the merge is the use case's (updateEndpoint), so the admin API and MCP get
 * what the CLI's --record / --proxy-timeout get (proxy-cli.test.ts), and so does the UI (its
 * PATCH sends only the settings changed: ui/src/editor/endpoint-editor-model.test.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { API_PREFIX } from '../../src/api/handler.js';
import type { Endpoint } from '../../src/core/model/endpoint.js';
import type { ProjectDetail } from '../../src/core/model/project.js';
import { apiSandbox } from '../helpers/api.js';
import { fails, ok, startInMemoryMcp } from '../helpers/mcp.js';

const SETTINGS = { target: 'http://127.0.0.1:9/up', record: true, timeoutMs: 700 };

describe('proxy settings: a change merges into the stored settings', () => {
  it('over the admin API: PATCH proxy {record} keeps target and timeout; timeoutMs null drops it', async (t) => {
    const api = apiSandbox(t);
    const project = (await api.call('POST', `${API_PREFIX}/projects`, { body: { name: 'shop' } })).json as {
      id: string;
    };
    const base = `${API_PREFIX}/projects/${project.id}/endpoints`;
    const created = await api.call('POST', base, {
      body: { path: '/up/*', kind: 'proxy', proxy: SETTINGS },
    });
    assert.equal(created.status, 201, created.body);
    const one = `${base}/${(created.json as Endpoint).id}`;
    const patch = async (proxy: unknown) => {
      const r = await api.call('PATCH', one, { body: { proxy } });
      assert.equal(r.status, 200, r.body);
      return (r.json as Endpoint).proxy;
    };
    assert.deepEqual(await patch({ record: false }), { ...SETTINGS, record: false });
    assert.deepEqual(await patch({ timeoutMs: 1500 }), { ...SETTINGS, record: false, timeoutMs: 1500 });
    assert.deepEqual(await patch({ target: 'http://127.0.0.1:8' }), {
      target: 'http://127.0.0.1:8',
      record: false,
      timeoutMs: 1500,
    });
    assert.deepEqual(await patch({ timeoutMs: null }), { target: 'http://127.0.0.1:8', record: false });

    // A mock endpoint with no settings yet: the change must bring a target.
    const mock = (await api.call('POST', base, { body: { path: '/m' } })).json as Endpoint;
    const refused = await api.call('PATCH', `${base}/${mock.id}`, { body: { proxy: { record: true } } });
    assert.equal(refused.status, 400, refused.body);
    assert.match((refused.json as { detail: string }).detail, /has no proxy target yet.*proxy\.target/);
  });

  it('over MCP: update_endpoint {proxy: {timeoutMs}} keeps target and record', async (t) => {
    const mcp = await startInMemoryMcp();
    t.after(() => mcp.close());
    const { client } = mcp;
    const projectId = (await ok<ProjectDetail>(client, 'create_project', { name: 'P' })).id;
    const e = await ok<Endpoint>(client, 'create_endpoint', {
      projectId,
      path: '/up/*',
      kind: 'proxy',
      proxy: SETTINGS,
    });
    const updated = await ok<Endpoint>(client, 'update_endpoint', {
      projectId,
      endpointId: e.id,
      proxy: { timeoutMs: 5000 },
    });
    assert.deepEqual(updated.proxy, { ...SETTINGS, timeoutMs: 5000 });
    const { tools } = await client.listTools();
    const proxy = (
      tools.find((x) => x.name === 'update_endpoint')!.inputSchema.properties as Record<string, unknown>
    ).proxy;
    assert.match(JSON.stringify(proxy), /merged into the stored ones/);
    const m = await ok<Endpoint>(client, 'create_endpoint', { projectId, path: '/m' });
    await fails(
      client,
      'update_endpoint',
      { projectId, endpointId: m.id, proxy: { record: true } },
      /no proxy target yet/,
    );
  });
});
