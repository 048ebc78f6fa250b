/**
 * A single request never freezes a server (issue 20, part 1): a 10 MB JSON body made of tiny
 * values (`[[],[],…]`: JSON.parse takes one to several seconds over it, holding the event loop)
 * sent to the mock server, the admin API and MCP over HTTP, while another client asks the same
 * server for something plain again and again. The big body is parsed in slices
 * (core/sliced-json.ts): the other client is answered all along, and the big request's answer is
 * what it was (the rule matched, the template read the body, the project was created). Parsed at
 * once, the body kept the other client waiting most of the big request's time.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startAdminServer } from '../../src/api/http.js';
import { ALL_ROUTES } from '../../src/api/routes/index.js';
import { addEndpoint } from '../../src/app/endpoints.js';
import { createProject } from '../../src/app/projects.js';
import { startServer } from '../../src/app/server.js';
import type { AfterHook } from '../helpers/cli-inprocess.js';
import { bodyReadingProject, tempContext } from '../helpers/context.js';
import { rawRequest, type RawAnswer } from '../helpers/http.js';
import { openRawSession, startMcpHttp } from '../helpers/mcp.js';
import { assertServed, probeWhile } from '../helpers/probe.js';

/** About 10 MB of empty arrays: over three million JSON values. */
const TINY_VALUES = `[${'[],'.repeat(3_300_000)}[]]`;

const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * How much of the big request's time a probe may wait at most. Parsed at once, the body kept a
 * probe waiting 85–95% of it; in slices, 10–25%: the slices are a few ms, but the garbage
 * collector pauses up to ~100 ms over three million arrays, whoever makes them.
 */
const SHARE = 1 / 2;

/**
 * POSTs `body` to `base` + `path` while another client GETs `base` + `probe` again and again;
 * requires that client to have been served all along, and returns the big request's answer.
 */
async function postWhileProbed(
  base: string,
  path: string,
  request: { headers: Record<string, string>; body: string },
  probe: string,
): Promise<RawAnswer> {
  let answer: RawAnswer | undefined;
  const probed = await probeWhile(
    async () => (answer = await rawRequest(base, path, { method: 'POST', ...request })),
    {
      [`GET ${probe}`]: async () => {
        const r = await rawRequest(base, probe);
        assert.equal(r.status, 200, r.body.slice(0, 300));
      },
    },
  );
  assertServed(probed, `POST ${path}`, SHARE);
  return answer!;
}

describe('a large JSON body never freezes a server', () => {
  it('mock server: a body rule and a template read 10 MB of tiny values; another client is answered meanwhile', async (t: AfterHook) => {
    const ctx = tempContext(t, 'mockdev-large-json-');
    await bodyReadingProject(ctx, 'Shop');
    await addEndpoint(ctx, 'Shop', { method: 'GET', path: '/ping', body: '{"pong":true}' });
    const server = await startServer(ctx, { project: 'Shop', port: 0 });
    t.after(() => server.stop());

    const answer = await postWhileProbed(
      server.url,
      '/users',
      { headers: JSON_HEADERS, body: `{"items":${TINY_VALUES},"name":"Ada Lovelace"}` },
      '/ping',
    );
    assert.deepEqual([answer.status, answer.json], [200, { rule: 'matched', name: 'Ada Lovelace' }]);
  });

  it('admin API: a 10 MB body of tiny values to a route that takes JSON; another client is answered meanwhile', async (t: AfterHook) => {
    const ctx = tempContext(t, 'mockdev-large-json-');
    await createProject(ctx, { name: 'Shop' });
    const admin = await startAdminServer({ ctx, routes: ALL_ROUTES, host: '127.0.0.1', port: 0 });
    t.after(() => admin.close());

    const answer = await postWhileProbed(
      admin.url,
      '/api/v1/projects/Shop/endpoints',
      {
        headers: JSON_HEADERS,
        body: `{"filler":${TINY_VALUES},"method":"POST","path":"/big","body":"made"}`,
      },
      '/api/v1/health',
    );
    assert.equal(answer.status, 201, answer.body.slice(0, 300));
    const made = answer.json as { path: string; body: string };
    assert.deepEqual([made.path, made.body], ['/big', 'made']);
  });

  it('MCP over HTTP: a 10 MB message of tiny values; another client is answered meanwhile', async (t: AfterHook) => {
    const mcp = await startMcpHttp(t);
    const { headers } = await openRawSession(mcp.base);
    const answer = await postWhileProbed(
      mcp.base,
      '/mcp',
      {
        headers,
        body: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"create_project","arguments":{"filler":${TINY_VALUES},"name":"Big"}}}`,
      },
      '/mcp/health',
    );
    assert.equal(answer.status, 200, answer.body.slice(0, 300));
    const data = /^data: (.*)$/m.exec(answer.body)?.[1] ?? answer.body;
    const result = (JSON.parse(data) as { result: { isError?: boolean; content: { text: string }[] } })
      .result;
    assert.notEqual(result.isError, true, result.content[0]?.text);
    assert.match(result.content[0]!.text, /"name": ?"Big"/);
  });
});
