/**
 * The mock server's request size limit (the requestSizeLimitBytes setting, 10 MiB by default):
 * templates and rules see the whole body up to it; beyond it the answer is 413 naming the
 * limit, logged; only the request log cuts a body, at its own cap (1 MiB), and says so.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addEndpoint } from '../../src/app/endpoints.js';
import { createProject } from '../../src/app/projects.js';
import { startServer } from '../../src/app/server.js';
import { updateSettings } from '../../src/app/settings.js';
import { parseRequestFilters } from '../../src/core/model/request.js';
import { bodyReadingProject, tempContext } from '../helpers/context.js';
import { rawRequest } from '../helpers/http.js';
import { waitUntil } from '../helpers/wait.js';

const MIB = 1024 * 1024;

/** A JSON body of about `size` bytes whose `name` comes last, after the filler. */
const bigJson = (size: number, name: string): string => JSON.stringify({ filler: 'x'.repeat(size), name });

describe('the request size limit of the mock server', () => {
  it('lets templates and rules see the whole body past the log cap; the log cuts it and says so', async (t) => {
    const ctx = tempContext(t, 'mockdev-size-');
    const project = await bodyReadingProject(ctx, 'Sizes');
    const server = await startServer(ctx, { project: 'Sizes', port: 0 });
    t.after(() => server.stop());

    // 3 MiB: past the log's 1 MiB cap, within the 10 MiB request size limit.
    const answer = await rawRequest(server.url, '/users', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bigJson(3 * MIB, 'Ada Lovelace'),
    });
    assert.deepEqual(
      [answer.status, answer.json],
      [200, { rule: 'matched', name: 'Ada Lovelace' }],
      'the rule read the name at the end',
    );
    const templated = await rawRequest(server.url, '/users', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bigJson(3 * MIB, 'Grace Hopper'),
    });
    assert.deepEqual(
      [templated.status, templated.json],
      [201, { name: 'Grace Hopper' }],
      'the template did too',
    );

    const logged = await waitUntil(async () => {
      const list = await ctx.requests.list(project.id, parseRequestFilters({}));
      return list.length === 2 ? list : undefined;
    }, 'both requests in the log');
    for (const record of logged) {
      assert.equal(record.truncated, true, 'the log says it cut the body');
      assert.equal(Buffer.byteLength(record.body ?? ''), MIB, 'cut at the log cap');
    }
  });

  it('answers a body over the limit 413 naming it, from Content-Length or as a chunked body passes it, and logs it', async (t) => {
    const ctx = tempContext(t, 'mockdev-size-');
    const project = await createProject(ctx, { name: 'Limited' });
    await addEndpoint(ctx, 'Limited', { method: 'POST', path: '/upload', body: '{"name":"{{body.name}}"}' });
    await updateSettings(ctx, { requestSizeLimitBytes: 2 * MIB });
    const server = await startServer(ctx, { project: 'Limited', port: 0 });
    t.after(() => server.stop());

    const announced = await rawRequest(server.url, '/upload', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(50 * MIB) },
      body: '{"filler":"',
    });
    const chunk = Buffer.alloc(256 * 1024, 'x');
    const chunked = await rawRequest(server.url, '/upload', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Array.from({ length: 12 }, () => chunk),
    });
    for (const refused of [announced, chunked]) {
      assert.equal(refused.status, 413);
      assert.match(String(refused.headers['content-type']), /^application\/problem\+json/);
      const problem = refused.json as { code: string; detail: string };
      assert.equal(problem.code, 'PAYLOAD_TOO_LARGE');
      assert.match(problem.detail, /request size limit, 2 MiB \(2097152 bytes\).*requestSizeLimitBytes/);
    }
    const within = await rawRequest(server.url, '/upload', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bigJson(MIB, 'fits'),
    });
    assert.deepEqual([within.status, within.json], [200, { name: 'fits' }]);
    const logged = await waitUntil(async () => {
      const list = await ctx.requests.list(project.id, parseRequestFilters({}));
      return list.length === 3 ? list : undefined;
    }, 'the three requests in the log');
    assert.deepEqual(logged.map((r) => r.status).sort(), [200, 413, 413]);
  });
});
