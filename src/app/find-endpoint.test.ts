import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createContext, type AppContext } from './context.js';
import { addEndpoint, setEndpointEnabled } from './endpoints.js';
import { findEndpoint } from './find-endpoint.js';
import { createProject } from './projects.js';
import { getRequest, listRequests } from './requests.js';

/** A context over a data dir of the test's own, closed and removed after it. */
function freshContext(t: { after(fn: () => void): void }): AppContext {
  const dataDir = mkdtempSync(join(tmpdir(), 'mockdev-find-'));
  const ctx = createContext({ dataDir, cwd: dataDir });
  t.after(() => {
    ctx.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return ctx;
}

describe('findEndpoint', () => {
  it('finds the endpoint a request would hit, with its parameters', async (t) => {
    const ctx = freshContext(t);
    await createProject(ctx, { name: 'find' });
    await addEndpoint(ctx, 'find', { path: '/api/users/{id}', body: '{}' });
    await addEndpoint(ctx, 'find', { path: '/api/users/me' });
    const off = await addEndpoint(ctx, 'find', { method: 'DELETE', path: '/api/users/:id' });
    await setEndpointEnabled(ctx, 'find', off.id, false);

    const hit = await findEndpoint(ctx, 'find', 'get', '/api/users/42');
    assert.equal(hit?.endpoint.path, '/api/users/{id}');
    assert.deepEqual(hit?.params, { id: '42' });
    assert.equal(
      (await findEndpoint(ctx, 'find', 'GET', 'api/users/me?x=1'))?.endpoint.path,
      '/api/users/me',
    );
    const disabled = await findEndpoint(ctx, 'find', 'DELETE', '/api/users/7');
    assert.equal(disabled?.endpoint.enabled, false);
    assert.equal(await findEndpoint(ctx, 'find', 'POST', '/api/users/42'), null);
    await assert.rejects(findEndpoint(ctx, 'find', 'FETCH', '/x'), { code: 'INVALID_ARGUMENT' });
    await assert.rejects(findEndpoint(ctx, 'nope', 'GET', '/x'), { code: 'PROJECT_NOT_FOUND' });
  });

  it('request use cases validate filters and name unknown ids', async (t) => {
    const ctx = freshContext(t);
    await createProject(ctx, { name: 'find' });
    assert.deepEqual(await listRequests(ctx, 'find', { status: '2xx' }), []);
    await assert.rejects(listRequests(ctx, 'find', { status: 'bad' }), { code: 'INVALID_ARGUMENT' });
    await assert.rejects(getRequest(ctx, '12345'), { code: 'NOT_FOUND' });
  });
});
