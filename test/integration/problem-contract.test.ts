/**
 * One error shape on every HTTP surface: the mock server, the admin API and MCP over HTTP answer
 * their refusals and failures as application/problem+json that ProblemSchema (core) accepts,
 * with the error catalogue's status and title for the code, and the status of the status line.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { addEndpoint } from '../../src/app/endpoints.js';
import { createProject } from '../../src/app/projects.js';
import { startServer } from '../../src/app/server.js';
import { updateSettings } from '../../src/app/settings.js';
import { startAdminServer } from '../../src/api/http.js';
import { ALL_ROUTES } from '../../src/api/routes/index.js';
import { ERROR_CATALOGUE } from '../../src/core/errors.js';
import { ProblemSchema } from '../../src/core/model/problem.js';
import { tempContext } from '../helpers/context.js';
import { rawRequest, type RawAnswer, type RawRequest } from '../helpers/http.js';
import { startMcpHttp } from '../helpers/mcp.js';

/** The answer to bytes that are not HTTP, read off the socket. */
function malformed(base: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect(Number(port), hostname, () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
    socket.setEncoding('utf8').on('data', (d: string) => (text += d));
    socket.on('error', reject);
    socket.on('end', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const m = /^HTTP\/1\.1 (\d{3}) (.*)$/.exec(statusLine);
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(m?.[1]), statusText: m?.[2] ?? '', headers, body, json: JSON.parse(body) });
    });
  });
}

/** Checks one answer against the contract and returns its code. */
function assertProblem(answer: RawAnswer, expected: { status: number; code: string }, what: string): void {
  assert.equal(answer.status, expected.status, `${what}: ${answer.body}`);
  assert.match(String(answer.headers['content-type']), /^application\/problem\+json$/, what);
  const parsed = ProblemSchema.safeParse(answer.json);
  assert.ok(parsed.success, `${what}: ${answer.body}`);
  const problem = parsed.data;
  assert.equal(problem.code, expected.code, what);
  assert.equal(problem.status, answer.status, `${what}: the status line's`);
  assert.equal(ERROR_CATALOGUE[problem.code].httpStatus, problem.status, `${what}: the catalogue's status`);
  assert.equal(problem.title, ERROR_CATALOGUE[problem.code].title, `${what}: the catalogue's title`);
  assert.equal(problem.type, 'about:blank');
  assert.ok(problem.detail.length > 10, what);
  assert.doesNotMatch(answer.body, /\n\s+at /, `${what}: no stack`);
}

type Case = [what: string, path: string, request: RawRequest, expected: { status: number; code: string }];

async function check(base: string, cases: Case[]): Promise<void> {
  for (const [what, path, request, expected] of cases)
    assertProblem(await rawRequest(base, path, request), expected, what);
  assertProblem(await malformed(base), { status: 400, code: 'MALFORMED_REQUEST' }, 'not HTTP');
}

const FOREIGN_HOST = { host: 'attacker.test' };
const FOREIGN_ORIGIN = { origin: 'http://evil.example' };
const big = (bytes: number) => ({ 'content-length': String(bytes), 'content-type': 'application/json' });

describe('the problem contract, on every HTTP surface', () => {
  it('the mock server', async (t) => {
    const ctx = tempContext(t, 'mockdev-problem-');
    await createProject(ctx, { name: 'Contract' });
    await addEndpoint(ctx, 'Contract', { method: 'POST', path: '/echo', body: '{"n":"{{body.n}}"}' });
    await addEndpoint(ctx, 'Contract', { path: '/broken', body: '{{faker "person.nope"}}' });
    await updateSettings(ctx, { requestSizeLimitBytes: 1024 });
    const server = await startServer(ctx, { project: 'Contract', port: 0 });
    t.after(() => server.stop());
    await check(server.url, [
      ['no endpoint', '/nothing', {}, { status: 404, code: 'NO_MATCHING_ENDPOINT' }],
      ['a template that fails', '/broken', {}, { status: 500, code: 'TEMPLATE_FAILED' }],
      [
        'a body over the limit',
        '/echo',
        { method: 'POST', headers: big(4096), body: '{' },
        { status: 413, code: 'PAYLOAD_TOO_LARGE' },
      ],
    ]);
  });

  it('the admin API', async (t) => {
    const ctx = tempContext(t, 'mockdev-problem-');
    const api = await startAdminServer({
      ctx,
      routes: ALL_ROUTES,
      host: '127.0.0.1',
      port: 0,
      token: 'api-s3cret',
    });
    t.after(() => api.close());
    const auth = { authorization: 'Bearer api-s3cret' };
    await check(api.url, [
      [
        'a rebound Host',
        '/api/v1/projects',
        { headers: { ...auth, ...FOREIGN_HOST } },
        { status: 403, code: 'FORBIDDEN_HOST' },
      ],
      [
        'a foreign Origin',
        '/api/v1/projects',
        { headers: { ...auth, ...FOREIGN_ORIGIN } },
        { status: 403, code: 'FORBIDDEN_ORIGIN' },
      ],
      ['no token', '/api/v1/projects', {}, { status: 401, code: 'UNAUTHORIZED' }],
      ['an unknown route', '/api/v1/nothing', { headers: auth }, { status: 404, code: 'NOT_FOUND' }],
      [
        'another method',
        '/api/v1/health',
        { method: 'DELETE', headers: auth },
        { status: 405, code: 'METHOD_NOT_ALLOWED' },
      ],
      [
        'a form post',
        '/api/v1/projects',
        { method: 'POST', headers: { ...auth, 'content-type': 'text/plain' }, body: 'x' },
        { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
      ],
      [
        'a body over the limit',
        '/api/v1/projects',
        { method: 'POST', headers: { ...auth, ...big(2 * 1024 * 1024) }, body: '{' },
        { status: 413, code: 'PAYLOAD_TOO_LARGE' },
      ],
      [
        'a bad field',
        '/api/v1/projects',
        { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"name":""}' },
        { status: 400, code: 'INVALID_ARGUMENT' },
      ],
      [
        'no such project',
        '/api/v1/projects/nope',
        { headers: auth },
        { status: 404, code: 'PROJECT_NOT_FOUND' },
      ],
    ]);
  });

  it('MCP over HTTP (its side paths and refusals; /mcp itself answers JSON-RPC)', async (t) => {
    const mcp = await startMcpHttp(t, { token: 'mcp-s3cret' });
    const auth = { authorization: 'Bearer mcp-s3cret' };
    await check(mcp.base, [
      [
        'a rebound Host',
        '/mcp/health',
        { headers: { ...auth, ...FOREIGN_HOST } },
        { status: 403, code: 'FORBIDDEN_HOST' },
      ],
      [
        'a foreign Origin',
        '/mcp',
        { method: 'POST', headers: { ...auth, ...FOREIGN_ORIGIN } },
        { status: 403, code: 'FORBIDDEN_ORIGIN' },
      ],
      ['no token', '/mcp', { method: 'POST' }, { status: 401, code: 'UNAUTHORIZED' }],
      ['an unknown path', '/nothing', { headers: auth }, { status: 404, code: 'NOT_FOUND' }],
      [
        'another method',
        '/mcp/health',
        { method: 'POST', headers: auth },
        { status: 405, code: 'METHOD_NOT_ALLOWED' },
      ],
      ['a bad limit', '/mcp/logs?limit=0', { headers: auth }, { status: 400, code: 'INVALID_ARGUMENT' }],
    ]);
  });
});
