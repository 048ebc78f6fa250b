/**
 * No log line and no error message quotes a secret value, a license key or a token (issue 20,
 * part 2): secret-looking values fed through the error paths of the CLI, the admin API handler,
 * MCP and a running server's templates; the value appears nowhere in what they print or answer
 * (no 8-character piece of it either).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiSandbox, type ApiResult } from '../helpers/api.js';
import { tamper, testSigner } from '../helpers/license.js';
import { startInMemoryMcp, ok as mcpOk, textOf } from '../helpers/mcp.js';
import { PRO_ENV, proSandbox } from '../helpers/pro.js';
import { leakedPieces } from '../helpers/secrets.js';
import { startServe, waitUntil } from '../helpers/server.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const SECRET = 'zq7Vx2Lm9Pw4Rt6Yb3Nc';
const TOKEN = 'tk9fGh2JkL5mNp8QrSw1';

function assertQuotesNone(text: string, what: string, ...values: string[]): void {
  assert.deepEqual(leakedPieces(text, ...values), [], `${what} quotes a secret: ${text}`);
}

describe('no error message or log line quotes a secret, a license key or a token', () => {
  it('the CLI, in its error paths', async (t) => {
    const { cli, key } = await proSandbox(t);
    assert.equal((await cli(['project', 'create', 'api'])).code, 0);
    const runs: [string[], string?][] = [
      [['environment', 'create', '-n', 'dev', '--secret', `bad-key=${SECRET}`]],
      [['environment', 'create', '-n', 'dev', '--var', `BAD-KEY=${SECRET}`, '--secret', 'BAD-KEY']],
      [['environment', 'update', 'nope', '--secret', `K=${SECRET}`]],
      [['endpoint', 'add', 'api', '-p', '/x', '-H', `Authorization: Bearer ${SECRET}\u0001`]],
      [['endpoint', 'add', 'api', '-p', '/x', '-H', `X-Api-Key: ${SECRET}\u0007`]],
      [['license', 'activate', tamper(key)]],
      [['license', 'activate', `${key}!`]],
      [['license', 'activate', key.replace('.', '')]],
      [['license', 'activate', '-'], `${key}x\n`],
      [['ui', '--token', TOKEN, '--host', '0.0.0.0', '-p', '80']],
      [['ui', '--token', TOKEN, '-p', '80']],
      [['mcp', '--http', '--token', TOKEN, '--host', '0.0.0.0', '-p', '80']],
      [['ui', '--token', TOKEN, '--token-file', '/nonexistent/token']],
    ];
    for (const [args, input] of runs) {
      const r = await cli(args, input === undefined ? {} : { input });
      assert.notEqual(r.code, 0, `${args.join(' ')} fails`);
      assertQuotesNone(r.stdout + r.stderr, `mockdev ${args[0]} ${args[1]}`, SECRET, TOKEN, key);
    }
  });

  it('the admin API handler, in its error paths', async (t) => {
    const signer = testSigner();
    const api = apiSandbox(t, { env: { MOCKDEV_LICENSE_PUBLIC_KEY: signer.publicKeyPem } });
    const key = signer.key();
    const activated = await api.call('POST', '/api/v1/license/activate', { body: { key } });
    assert.equal(activated.status, 200, activated.body);
    assert.equal((await api.call('POST', '/api/v1/projects', { body: { name: 'api' } })).status, 201);
    const calls: [string, string, unknown, string?][] = [
      ['POST', '/api/v1/environments', { name: 'a', secrets: { 'bad-key': SECRET } }],
      ['POST', '/api/v1/environments', { name: 'a', secrets: { OK: [SECRET] } }],
      [
        'POST',
        '/api/v1/environments',
        { name: 'a', variables: { 'bad key': SECRET }, secretKeys: ['bad key'] },
      ],
      ['POST', '/api/v1/environments', { name: 'a', variables: { OK: { v: SECRET } } }],
      ['POST', '/api/v1/license/activate', { key: [key] }],
      ['POST', '/api/v1/license/activate', { key: `${key}!` }],
      ['POST', '/api/v1/license/activate', { key: tamper(key) }],
      ['POST', '/api/v1/license/activate', `{"key": ${key}}`, 'application/json'],
      [
        'POST',
        '/api/v1/projects/api/endpoints',
        { path: '/x', headers: { Authorization: `Bearer ${SECRET}\n` } },
      ],
    ];
    const answers: ApiResult[] = [];
    for (const [method, url, body, type] of calls) answers.push(await api.call(method, url, { body, type }));

    const guarded = apiSandbox(t, { token: TOKEN });
    for (const body of [{ token: [TOKEN] }, { token: `${TOKEN}x` }, `{"token": ${TOKEN}}`])
      answers.push(
        await guarded.call(
          'POST',
          '/api/v1/session',
          typeof body === 'string' ? { body, type: 'application/json' } : { body },
        ),
      );
    for (const [i, answer] of answers.entries()) {
      assert.ok(answer.status >= 400, `call ${i} fails: ${answer.body}`);
      assertQuotesNone(answer.body, `call ${i}`, SECRET, TOKEN, key);
    }
  });

  it('MCP tools, in their error paths', async (t) => {
    const mcp = await startInMemoryMcp();
    t.after(() => mcp.close());
    await mcpOk(mcp.client, 'create_project', { name: 'api' });
    const created = await mcpOk<{ id: string }>(mcp.client, 'create_endpoint', {
      projectId: 'api',
      path: '/ok',
    });
    for (const [name, args] of [
      ['create_endpoint', { projectId: 'api', path: '/x', headers: { Authorization: `Bearer ${SECRET}\n` } }],
      ['create_endpoint', { projectId: 'api', path: '/x', headers: { 'X-Auth-Token': `${TOKEN}\u0000` } }],
      [
        'update_endpoint',
        { projectId: 'api', endpointId: created.id, headers: { Cookie: `s=${SECRET}\r\n` } },
      ],
    ] as const) {
      const r = (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;
      assert.equal(r.isError, true, textOf(r));
      assertQuotesNone(textOf(r), name, SECRET, TOKEN);
    }
  });

  it("a running server's template errors: not on its stderr, not in the 500, not in the log", async (t) => {
    const sandbox = await proSandbox(t);
    const { cli, dataDir } = sandbox;
    const ok = async (args: string[]) => {
      const r = await cli(args);
      assert.equal(r.code, 0, r.stderr);
    };
    await ok(['project', 'create', 'api']);
    await ok(['endpoint', 'add', 'api', '-p', '/faker', '-b', '{{faker (lowercase env.TOKEN)}}']);
    await ok(['endpoint', 'add', 'api', '-p', '/status', '-b', '{}', '--status-text', 'Hi {{env.LINES}}']);
    await ok(['endpoint', 'add', 'api', '-p', '/proxy/*', '--proxy', '{{uppercase env.TOKEN}}/v1']);
    await ok(['environment', 'create', '-n', 'dev', '-p', 'api', '--secret', `TOKEN=${SECRET}`]);
    await ok(['environment', 'update', 'dev', '--secret', `LINES=one\n${TOKEN}`]);
    await ok(['environment', 'activate', 'api', 'dev']);
    const server = await startServe(['api'], {
      dataDir,
      env: { MOCKDEV_LICENSE_PUBLIC_KEY: PRO_ENV.MOCKDEV_LICENSE_PUBLIC_KEY },
    });
    sandbox.defer(() => server.stop());
    for (const path of ['/faker', '/status', '/proxy/a']) {
      const r = await fetch(`${server.url}${path}`, { signal: AbortSignal.timeout(10_000) });
      const text = await r.text();
      assert.equal(r.status, 500, `${path}: ${text}`);
      assert.match(text, /Template error/);
      assertQuotesNone(text, path, SECRET, TOKEN);
    }
    await waitUntil(
      () => (server.stderr() + server.stdout()).split('Template error in endpoint').length > 3,
      'the three errors logged',
    );
    assertQuotesNone(server.stderr() + server.stdout(), "serve's output", SECRET, TOKEN);
    const listed = await cli(['requests', 'list', 'api', '--json']);
    for (const { id } of JSON.parse(listed.stdout) as { id: string }[]) {
      const shown = await cli(['requests', 'show', id, '--json']);
      assertQuotesNone(shown.stdout, `requests show ${id}`, SECRET, TOKEN);
    }
  });
});
