import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createContext } from '../../src/app/context.js';
import { apiSandbox } from '../helpers/api.js';

type Json = Record<string, unknown>;

describe('admin API: the web UI state (tree-state)', () => {
  it('keeps the expanded folders per project in the data directory, by id or name, until the project goes', async (t) => {
    const api = apiSandbox(t);
    const shop = (await api.call('POST', '/api/v1/projects', { body: { name: 'Shop' } })).json as Json;
    const other = (await api.call('POST', '/api/v1/projects', { body: { name: 'Other' } })).json as Json;
    // Never saved: a first visit (the UI then expands every folder).
    assert.deepEqual((await api.call('GET', `/api/v1/projects/${shop.id}/tree-state`)).json, {
      expanded: [],
      saved: false,
    });

    const put = await api.call('PUT', '/api/v1/projects/Shop/tree-state', {
      body: { expanded: ['/api', '/api/users', '/api'] },
    });
    assert.equal(put.status, 200, put.body);
    assert.deepEqual(put.json, { expanded: ['/api', '/api/users'], saved: true });
    // Another process over the same data directory (another mockdev ui, after a restart) sees it.
    const again = createContext({ dataDir: api.dataDir, cwd: api.dataDir, env: {} });
    t.after(() => again.close());
    assert.deepEqual(await again.uiState.readTree(String(shop.id)), { expanded: ['/api', '/api/users'] });
    assert.deepEqual((await api.call('GET', `/api/v1/projects/${other.id}/tree-state`)).json, {
      expanded: [],
      saved: false,
    });
    // Saved empty (every folder collapsed) is not a first visit.
    const none = await api.call('PUT', `/api/v1/projects/${other.id}/tree-state`, { body: { expanded: [] } });
    assert.deepEqual(none.json, { expanded: [], saved: true });
    assert.deepEqual((await api.call('GET', `/api/v1/projects/${other.id}/tree-state`)).json, {
      expanded: [],
      saved: true,
    });

    const file = join(api.dataDir, 'ui-state', `${shop.id}.json`);
    assert.ok(existsSync(file));
    assert.equal((await api.call('DELETE', `/api/v1/projects/${shop.id}`)).status, 200);
    assert.equal(existsSync(file), false, 'deleting the project deletes its UI state');
  });

  it('refuses a bad state with 400 naming the field, and an unknown project with 404', async (t) => {
    const api = apiSandbox(t);
    await api.call('POST', '/api/v1/projects', { body: { name: 'Shop' } });
    const bad = await api.call('PUT', '/api/v1/projects/Shop/tree-state', { body: { expanded: ['api'] } });
    assert.equal(bad.status, 400);
    assert.match(String((bad.json as Json).detail), /expanded/);
    const extra = await api.call('PUT', '/api/v1/projects/Shop/tree-state', { body: { expanded: [], x: 1 } });
    assert.equal(extra.status, 400);
    const missing = await api.call('GET', '/api/v1/projects/Nope/tree-state');
    assert.equal(missing.status, 404);
    assert.equal((missing.json as Json).code, 'PROJECT_NOT_FOUND');
  });
});
