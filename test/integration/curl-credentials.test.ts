/**
 * SPEC 5.4: cURL import recognises Basic credentials and Bearer tokens and reports them only in
 * the preview. Every way out is checked for the secret: endpoints.json, the created endpoint
 * (--json), endpoint show/list, project show, the OpenAPI export, the MCP tools, the warnings,
 * the error messages; and an endpoints.json written before (holding a password) still loads
 * without ever showing it.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Endpoint } from '../../src/core/model/endpoint.js';
import { json, type CliResult } from '../helpers/cli.js';
import { cliSandbox, runCliInProcess, type AfterHook } from '../helpers/cli-inprocess.js';
import { ok, startInMemoryMcp, textOf } from '../helpers/mcp.js';
import { writeEndpoints } from '../helpers/server.js';

const PASSWORD = 'pw-Zq81xSecret';
const TOKEN = 'tok-Ry72wSecret';
/** base64 of "admin:<PASSWORD>", as an Authorization: Basic header carries it. */
const BASIC = Buffer.from(`admin:${PASSWORD}`).toString('base64');
const SECRETS = [PASSWORD, TOKEN, BASIC];

/** Fails when `text` holds any of the secrets (the place is named in the message). */
function assertNoSecret(text: string, where: string): void {
  for (const s of SECRETS) assert.ok(!text.includes(s), `${where} holds the secret ${s}:\n${text}`);
}

const output = (r: CliResult) => `${r.stdout}\n${r.stderr}`;

/** Every file of the data dir's projects, concatenated. */
function storedFiles(dataDir: string): string {
  const root = join(dataDir, 'projects');
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => readFileSync(join(d.parentPath, d.name), 'utf8'))
    .join('\n');
}

async function withApi(t: AfterHook) {
  const sandbox = cliSandbox(t, 'mockdev-curl-cred-');
  const r = await sandbox.cli(['project', 'create', 'Api']);
  assert.equal(r.code, 0, r.stderr);
  return sandbox;
}

/** Commands carrying a credential in each way curl takes one, and what the endpoint keeps. */
const COMMANDS: { label: string; cmd: string; auth: unknown; headers: Record<string, string> }[] = [
  {
    label: '-u user:password',
    cmd: `curl -u admin:${PASSWORD} https://api.example.com/admin/a -H 'X-Api-Key: ${PASSWORD}'`,
    auth: { type: 'basic', username: 'admin' },
    headers: { 'X-Api-Key': '********' },
  },
  {
    label: 'Authorization: Basic',
    cmd: `curl https://api.example.com/admin/b -H 'Authorization: Basic ${BASIC}' -H 'Proxy-Authorization: Basic ${BASIC}'`,
    auth: { type: 'basic', username: 'admin' },
    headers: { Authorization: 'Basic ********', 'Proxy-Authorization': 'Basic ********' },
  },
  {
    label: 'credentials in the URL',
    cmd: `curl 'https://admin:${PASSWORD}@api.example.com/admin/c?key=${PASSWORD}'`,
    auth: { type: 'basic', username: 'admin' },
    headers: {},
  },
  {
    label: 'Authorization: Bearer',
    cmd: `curl -X POST https://api.example.com/admin/d -H 'authorization: Bearer ${TOKEN}' -H 'Cookie: t=${TOKEN}' --json '{"a":1}'`,
    auth: { type: 'bearer' },
    headers: {
      authorization: 'Bearer ********',
      Cookie: '********',
      'Content-Type': 'application/json',
      Accept: 'application/json',
    },
  },
  {
    label: '--oauth2-bearer',
    cmd: `curl --oauth2-bearer ${TOKEN} https://api.example.com/admin/e`,
    auth: { type: 'bearer' },
    headers: { Authorization: 'Bearer ********' },
  },
];

describe('cURL credentials are reported in the preview only', () => {
  it('the preview (--json) reports them in full, as SPEC 5.4 says', async (t) => {
    const { cli } = cliSandbox(t, 'mockdev-curl-cred-');
    const basic = json<{ auth: unknown; headers: Record<string, string> }>(
      await cli(['curl', COMMANDS[1]!.cmd, '--preview', '--json']),
    );
    assert.deepEqual(basic.auth, { type: 'basic', username: 'admin', password: PASSWORD });
    assert.equal(basic.headers.Authorization, `Basic ${BASIC}`);
    const bearer = json<{ auth: unknown }>(await cli(['curl', COMMANDS[3]!.cmd, '--preview', '--json']));
    assert.deepEqual(bearer.auth, { type: 'bearer', token: TOKEN });
  });

  for (const { label, cmd, auth, headers } of COMMANDS) {
    it(`${label}: the endpoint keeps the kind and user, never the secret, in any output`, async (t) => {
      const { cli, dataDir } = await withApi(t);
      const created = await cli(['curl', cmd, '-p', 'Api', '--json']);
      assert.equal(created.code, 0, created.stderr);
      assertNoSecret(output(created), 'curl --json');
      const e = json<Endpoint>(created);
      assert.deepEqual(e.request?.auth, auth);
      for (const [name, value] of Object.entries(headers))
        assert.equal(e.request?.headers[name], value, name);
      assert.equal(Object.keys(e.request!.headers).length, Object.keys(headers).length);

      assertNoSecret(storedFiles(dataDir), 'the stored project files');
      const human = await cli(['curl', cmd.replace('/admin/', '/admin/again/'), '-p', 'Api']);
      assert.equal(human.code, 0, human.stderr);
      assertNoSecret(output(human), 'curl');
      for (const args of [
        ['endpoint', 'show', 'Api', e.id, '--json'],
        ['endpoint', 'show', 'Api', e.id],
        ['endpoint', 'list', 'Api', '--json'],
        ['project', 'show', 'Api', '--json'],
        ['export', 'Api'],
        ['export', 'Api', '-f', 'json'],
      ]) {
        const r = await cli(args);
        assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
        assertNoSecret(output(r), args.join(' '));
      }
    });
  }

  it('warnings and errors quoting the command show no secret outside the preview', async (t) => {
    const { cli } = await withApi(t);
    const warned = await cli([
      'curl',
      `curl https://api.example.com/w -H 'Authorization: Bearer ${TOKEN}' https://api.example.com/other?t=${TOKEN}`,
      '-p',
      'Api',
    ]);
    assert.equal(warned.code, 0, warned.stderr);
    assert.match(warned.stderr, /warning: Only the first URL is imported/);
    assertNoSecret(output(warned), 'the warnings');
    for (const [bad, code] of [
      [`curl https://api.example.com/x -H 'Authorization: Bearer ${TOKEN}`, 2], // cut inside a quote
      [`curl "https://admin:${PASSWORD}@api.example.com/a b"`, 1],
    ] as const) {
      const r = await cli(['curl', bad, '-p', 'Api']);
      assert.equal(r.code, code, r.stderr);
      assertNoSecret(output(r), `the error for ${bad}`);
    }
  });

  it('an endpoints.json written before still loads; the secret is never shown and goes at the next write', async (t) => {
    const { cli, dataDir } = await withApi(t);
    const id = json<{ id: string }>(await cli(['project', 'show', 'Api', '--json'])).id;
    const file = join(dataDir, 'projects', id, 'endpoints.json');
    const old = (path: string, auth: Record<string, string>, headers: Record<string, string>) => ({
      name: `old ${path.slice(1)}`,
      path,
      request: { headers, query: {}, body: null, auth },
    });
    writeEndpoints(join(dataDir, 'projects', id), [
      old(
        '/basic',
        { type: 'basic', username: 'admin', password: PASSWORD },
        { Authorization: `Basic ${BASIC}` },
      ),
      old('/bearer', { type: 'bearer', token: TOKEN }, { Authorization: `Bearer ${TOKEN}` }),
    ]);
    const list = await cli(['endpoint', 'list', 'Api', '--json']);
    assert.equal(list.code, 0, list.stderr);
    assertNoSecret(output(list), 'endpoint list --json of an old file');
    assert.deepEqual(
      json<Endpoint[]>(list).map((e) => [e.request?.auth, e.request?.headers]),
      [
        [{ type: 'basic', username: 'admin' }, { Authorization: 'Basic ********' }],
        [{ type: 'bearer' }, { Authorization: 'Bearer ********' }],
      ],
    );
    for (const args of [
      ['endpoint', 'show', 'Api', 'old basic', '--json'],
      ['project', 'show', 'Api', '--json'],
      ['export', 'Api', '-f', 'json'],
    ]) {
      const r = await cli(args);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      assertNoSecret(output(r), `${args.join(' ')} of an old file`);
    }
    const updated = await cli(['endpoint', 'update', 'Api', 'old basic', '-s', '201']);
    assert.equal(updated.code, 0, updated.stderr);
    assertNoSecret(readFileSync(file, 'utf8'), 'endpoints.json after the next write');
  });
});

describe('cURL credentials and the MCP tools', () => {
  it('get_endpoint, list_endpoints and get_project never return them; create_endpoint does not store them', async (t) => {
    const mcp = await startInMemoryMcp();
    t.after(() => mcp.close());
    const { client } = mcp;
    const dataDir = join(mcp.dir, 'data');
    const cli = (args: string[]) => runCliInProcess(args, { dataDir, cwd: mcp.dir });
    assert.equal((await cli(['project', 'create', 'Api'])).code, 0);
    for (const { cmd } of COMMANDS) assert.equal((await cli(['curl', cmd, '-p', 'Api'])).code, 0, cmd);

    const call = async (name: string, args: Record<string, unknown>) => {
      const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
      assert.ok(!r.isError, `${name}: ${textOf(r)}`);
      assertNoSecret(`${textOf(r)}\n${JSON.stringify(r.structuredContent)}`, name);
      return r.structuredContent as Record<string, unknown>;
    };
    const { endpoints } = (await call('list_endpoints', { projectId: 'Api' })) as { endpoints: Endpoint[] };
    assert.equal(endpoints.length, COMMANDS.length);
    for (const e of endpoints) await call('get_endpoint', { projectId: 'Api', endpointId: e.id });
    await call('get_project', { projectId: 'Api' });
    await call('export_openapi', { projectId: 'Api' });

    // An assistant that hands a password or token to create_endpoint / update_endpoint.
    const created = await ok<Endpoint>(client, 'create_endpoint', {
      projectId: 'Api',
      path: '/mcp/made',
      request: {
        headers: { Authorization: `Bearer ${TOKEN}` },
        auth: { type: 'basic', username: 'admin', password: PASSWORD },
      },
    });
    assert.deepEqual(created.request?.auth, { type: 'basic', username: 'admin' });
    assertNoSecret(JSON.stringify(created), 'create_endpoint');
    const patched = await ok<Endpoint>(client, 'update_endpoint', {
      projectId: 'Api',
      endpointId: created.id,
      request: { auth: { type: 'bearer', token: TOKEN }, headers: { 'Proxy-Authorization': TOKEN } },
    });
    assert.deepEqual(patched.request?.auth, { type: 'bearer' });
    assert.deepEqual(patched.request?.headers, { 'Proxy-Authorization': '********' });
    assertNoSecret(storedFiles(dataDir), 'the stored project files');
  });
});
