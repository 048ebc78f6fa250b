/**
 * A JSON value nested too deeply to be written back (200,000 levels of `[`) in a field the
 * admin API or MCP checks: a clear INVALID_ARGUMENT naming the field, never INTERNAL ("a bug in
 * mockdev"). The message quoting the value it was given used to overflow the stack.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rawRequest } from '../helpers/http.js';
import { apiSandbox } from '../helpers/api.js';
import { openRawSession, startMcpHttp } from '../helpers/mcp.js';

const DEPTH = 200_000;
/** A JSON array nested DEPTH levels deep, as text (JSON.stringify of it would overflow). */
const deep = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;

describe('a deeply nested JSON value', () => {
  it('the admin API answers 400 naming the field, not 500', async (t) => {
    const api = apiSandbox(t);
    const cases: [string, string, string, RegExp][] = [
      ['POST', '/api/v1/projects', `{"name":${deep}}`, /^Invalid name: /],
      ['PATCH', '/api/v1/settings', `{"theme":${deep}}`, /theme/],
    ];
    for (const [method, url, body, detail] of cases) {
      const r = await api.call(method, url, { body, type: 'application/json' });
      const problem = r.json as { code: string; detail: string };
      assert.equal(r.status, 400, `${method} ${url}: ${r.body.slice(0, 300)}`);
      assert.equal(problem.code, 'INVALID_ARGUMENT');
      assert.match(problem.detail, detail);
    }
    const made = await api.call('POST', '/api/v1/projects', { body: { name: 'Deep' } });
    assert.equal(made.status, 201);
    const endpoint = await api.call('POST', '/api/v1/projects/Deep/endpoints', {
      body: `{"method":"GET","path":"/x","headers":${deep}}`,
      type: 'application/json',
    });
    assert.equal(endpoint.status, 400, endpoint.body.slice(0, 300));
    assert.match((endpoint.json as { detail: string }).detail, /^Invalid headers/);
  });

  it('an MCP tool call answers a tool error naming the field, not INTERNAL', async (t) => {
    const mcp = await startMcpHttp(t);
    const { headers } = await openRawSession(mcp.base);
    const call = await rawRequest(mcp.base, '/mcp', {
      method: 'POST',
      headers,
      body: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"create_project","arguments":{"name":${deep}}}}`,
    });
    assert.equal(call.status, 200);
    const data = /^data: (.*)$/m.exec(call.body)?.[1] ?? call.body;
    const result = (JSON.parse(data) as { result: { isError: boolean; content: { text: string }[] } }).result;
    assert.equal(result.isError, true);
    assert.match(result.content[0]!.text, /INVALID_ARGUMENT/);
    assert.doesNotMatch(result.content[0]!.text, /INTERNAL|bug in mockdev/);
  });
});
