/**
 * The request log says which variation answered (issue 20): a 404 variation and an unmatched
 * 404 no longer look alike. A mock server in process logs; `requests show` (human and --json),
 * the admin API and MCP get_request / list_requests show the variation, its name as it was.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startServer } from '../../src/app/server.js';
import { updateVariation } from '../../src/app/variations.js';
import type { RequestRecord } from '../../src/core/model/request.js';
import { apiSandbox } from '../helpers/api.js';
import { json } from '../helpers/cli.js';
import { runCliInProcess } from '../helpers/cli-inprocess.js';
import { ok, startInMemoryMcp } from '../helpers/mcp.js';
import { makeProject } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';

describe('the request log names the variation that answered', () => {
  it('requests show, the admin API and MCP tell a 404 variation from an unmatched 404', async (t) => {
    const api = apiSandbox(t);
    await makeProject(api.dataDir, 'shop', [
      {
        path: '/users/{id}',
        body: '{"id":1}',
        variations: [
          {
            id: 'v404',
            name: 'missing',
            status: 404,
            rules: [{ source: 'param', key: 'id', op: 'equals', value: '0' }],
          },
        ],
      },
    ]);
    const server = await startServer(api.ctx, { project: 'shop', port: 0 });
    t.after(() => server.stop());
    for (const path of ['/users/0', '/nowhere', '/users/1'])
      await (await fetch(`${server.url}${path}`)).text();
    const list = async () =>
      (await api.call('GET', '/api/v1/projects/shop/requests')).json as RequestRecord[];
    await waitUntil(async () => (await list()).length === 3, 'the three requests in the log');
    // Renamed since: the log keeps the name it answered under.
    await updateVariation(api.ctx, 'shop', 'GET /users/{id}', 'missing', { name: 'gone' });

    const [own, unmatched, variation] = await list();
    assert.deepEqual(
      [variation!.path, variation!.status, variation!.variation],
      ['/users/0', 404, { id: 'v404', name: 'missing' }],
    );
    assert.deepEqual([unmatched!.path, unmatched!.status, unmatched!.variation], ['/nowhere', 404, null]);
    assert.deepEqual([own!.path, own!.status, own!.variation], ['/users/1', 200, null]);
    const one = await api.call('GET', `/api/v1/requests/${variation!.id}`);
    assert.equal(one.status, 200, one.body);
    assert.deepEqual((one.json as RequestRecord).variation, { id: 'v404', name: 'missing' });

    const cli = (args: string[]) => runCliInProcess(args, { dataDir: api.dataDir, cwd: api.dataDir });
    const shown = await cli(['requests', 'show', variation!.id]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /answered by:\s+variation "missing" \(id v404\)/);
    assert.match(
      (await cli(['requests', 'show', unmatched!.id])).stdout,
      /answered by:\s+mockdev \(no endpoint\)/,
    );
    assert.match(
      (await cli(['requests', 'show', own!.id])).stdout,
      /answered by:\s+the endpoint itself \(no variation\)/,
    );
    const asJson = await cli(['requests', 'show', variation!.id, '--json']);
    assert.deepEqual(json<RequestRecord>(asJson).variation, { id: 'v404', name: 'missing' });

    const mcp = await startInMemoryMcp(api.ctx);
    t.after(() => mcp.close());
    const got = await ok<RequestRecord>(mcp.client, 'get_request', { requestId: variation!.id });
    assert.deepEqual(got.variation, { id: 'v404', name: 'missing' });
    const { requests } = await ok<{ requests: RequestRecord[] }>(mcp.client, 'list_requests', {
      projectId: 'shop',
    });
    assert.deepEqual(
      requests.map((r) => r.variation?.name ?? null),
      [null, null, 'missing'],
    );
  });
});
