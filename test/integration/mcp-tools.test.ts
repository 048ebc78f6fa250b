/**
 * Every MCP tool with good and bad input, in process: the SDK's Client linked to the server
 * through its InMemoryTransport, on a temp data dir. (Spawned stdio/HTTP tests prove the wiring.)
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createContext, type AppContext } from '../../src/app/context.js';
import { initProject } from '../../src/app/projects.js';
import type { Endpoint } from '../../src/core/model/endpoint.js';
import type { ProjectDetail } from '../../src/core/model/project.js';
import type { RequestRecord } from '../../src/core/model/request.js';
import { createMcpServer, type CallRecord } from '../../src/mcp/server.js';
import { dataPaths } from '../../src/store/data-dir.js';
import { RequestLog, type NewRequestRecord } from '../../src/store/request-log.js';
import { tempDir } from '../helpers/cli.js';
import { TOOL_NAMES, fails, ok, textOf } from '../helpers/mcp.js';

let tmp: ReturnType<typeof tempDir>;
let ctx: AppContext;
let client: Client;
const calls: CallRecord[] = [];

before(async () => {
  tmp = tempDir('mockdev-mcp-');
  ctx = createContext({ dataDir: join(tmp.dir, 'data'), cwd: tmp.dir });
  const server = createMcpServer({ ctx, version: '0.0.0-test', onCall: (c) => calls.push(c) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 'mcp-tools-test', version: '1.0.0' });
  await client.connect(clientSide);
});
after(async () => {
  await client?.close();
  tmp.cleanup();
});

function seedRequests(
  projectId: string,
  endpointId: string | null,
  rows: { method: string; url: string; status: number }[],
): void {
  const log = new RequestLog(dataPaths(ctx.dataDir).requestLog);
  try {
    log.insert(
      rows.map((r, i): NewRequestRecord => ({
        projectId,
        endpointId,
        ts: Date.now() + i,
        method: r.method,
        url: r.url,
        rawHeaders: ['Accept', 'application/json'],
        body: null,
        status: r.status,
        durationMs: 1,
        truncated: false,
        resHeadersJson: '{"Content-Type":"application/json"}',
        resBody: '{"ok":true}',
      })),
    );
  } finally {
    log.close();
  }
}

describe('tools/list', () => {
  it('lists exactly the 18 tools, each described, annotated, with described inputs and an object output schema', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), TOOL_NAMES);
    for (const tool of tools) {
      assert.ok((tool.description ?? '').length > 40, `${tool.name} has a description`);
      assert.equal(tool.inputSchema.type, 'object');
      for (const [field, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        assert.ok((schema as { description?: string }).description, `${tool.name}.${field} is described`);
      }
      assert.equal(tool.outputSchema?.type, 'object', `${tool.name} has an object output schema`);
      const a = tool.annotations!;
      assert.equal(typeof a.readOnlyHint, 'boolean');
      assert.equal(typeof a.destructiveHint, 'boolean');
      assert.equal(typeof a.idempotentHint, 'boolean');
      if (
        tool.name.startsWith('list_') ||
        tool.name.startsWith('get_') ||
        tool.name === 'find_endpoint' ||
        tool.name === 'export_openapi'
      ) {
        assert.equal(a.readOnlyHint, true, `${tool.name} is read-only`);
      }
      if (tool.name.startsWith('delete_') || tool.name === 'clear_requests')
        assert.equal(a.destructiveHint, true, `${tool.name} is destructive`);
    }
  });
});

describe('project tools', () => {
  it('create, list, get, update and delete a project', async () => {
    assert.deepEqual(await ok(client, 'list_projects'), { projects: [] });
    const created = await ok<ProjectDetail>(client, 'create_project', {
      name: 'Shop',
      description: 'store API',
      port: 4100,
    });
    assert.equal(created.name, 'Shop');
    assert.equal(created.port, 4100);
    assert.deepEqual(created.endpoints, []);
    assert.match(created.id, /^[A-Za-z0-9_][A-Za-z0-9_-]*$/);
    const { projects } = await ok<{ projects: { id: string; endpointCount: number }[] }>(
      client,
      'list_projects',
    );
    assert.deepEqual(
      projects.map((p) => p.id),
      [created.id],
    );
    assert.equal((await ok<ProjectDetail>(client, 'get_project', { projectId: 'Shop' })).id, created.id);
    assert.equal((await ok<ProjectDetail>(client, 'get_project', { projectId: created.id })).name, 'Shop');
    const updated = await ok<ProjectDetail>(client, 'update_project', {
      projectId: created.id,
      name: 'Shop v2',
      port: 4200,
    });
    assert.equal(updated.name, 'Shop v2');
    assert.equal(updated.port, 4200);
    assert.equal(updated.description, 'store API');
    const deleted = await ok<{ id: string }>(client, 'delete_project', { projectId: 'Shop v2' });
    assert.equal(deleted.id, created.id);
    await fails(client, 'get_project', { projectId: created.id }, /PROJECT_NOT_FOUND.*list_projects/);
  });

  it('refuses bad project input with a message saying what to fix', async () => {
    await fails(client, 'create_project', {}, /missing required field "name"/i);
    await fails(client, 'create_project', { name: 42 }, /invalid "name" 42/i);
    await fails(client, 'create_project', { name: 'a/b' }, /must not contain "\/"/);
    await fails(client, 'create_project', { name: 'Low', port: 80 }, /"port" 80: must be from 1024 to 65535/);
    await fails(client, 'create_project', { name: 'Low', port: '4000' }, /port/);
    await ok(client, 'create_project', { name: 'Twice' });
    await fails(client, 'create_project', { name: 'twice' }, /CONFLICT.*already exists/);
    await fails(
      client,
      'update_project',
      { projectId: 'Twice' },
      /Nothing to update.*name, description or port/,
    );
    await fails(client, 'update_project', { projectId: 'Twice', port: 70000 }, /port/);
    await fails(client, 'update_project', { projectId: 'nope', port: 5000 }, /PROJECT_NOT_FOUND/);
    await fails(client, 'delete_project', { projectId: 'nope' }, /PROJECT_NOT_FOUND/);
    await fails(client, 'get_project', {}, /missing required field "projectId"/i);
  });

  it('never reaches a project outside the data directory, by path or by id', async () => {
    const outside = await initProject(ctx, { path: join(tmp.dir, 'outside'), name: 'Outside' });
    for (const ref of [
      outside.dir,
      '../outside',
      outside.id,
      'Outside',
      join(ctx.dataDir, '..', 'outside'),
    ]) {
      await fails(client, 'get_project', { projectId: ref }, /PROJECT_NOT_FOUND/);
      await fails(client, 'delete_project', { projectId: ref }, /PROJECT_NOT_FOUND/);
      await fails(client, 'list_endpoints', { projectId: ref }, /PROJECT_NOT_FOUND/);
    }
    const { projects } = await ok<{ projects: { name: string }[] }>(client, 'list_projects');
    assert.ok(!projects.some((p) => p.name === 'Outside'));
  });
});

describe('endpoint tools', () => {
  let projectId: string;
  before(async () => {
    projectId = (await ok<ProjectDetail>(client, 'create_project', { name: 'Users API' })).id;
  });

  it('create, list, get, update, find and delete endpoints', async () => {
    const byId = await ok<Endpoint>(client, 'create_endpoint', {
      projectId,
      path: '/api/users/{id}',
      body: '{"id":1}',
    });
    assert.equal(byId.method, 'GET');
    assert.equal(byId.status, 200);
    assert.equal(byId.contentType, 'application/json');
    assert.equal(byId.enabled, true);
    const me = await ok<Endpoint>(client, 'create_endpoint', {
      projectId,
      method: 'get',
      path: '/api/users/me',
      name: 'Me',
    });
    const post = await ok<Endpoint>(client, 'create_endpoint', {
      projectId,
      method: 'POST',
      path: 'api/users',
      status: 201,
      headers: { Location: '/api/users/2' },
      delay: 5,
    });
    assert.equal(post.path, '/api/users');
    assert.deepEqual(post.headers, { Location: '/api/users/2' });

    const { endpoints } = await ok<{ endpoints: Endpoint[] }>(client, 'list_endpoints', { projectId });
    assert.equal(endpoints.length, 3);
    assert.equal((await ok<Endpoint>(client, 'get_endpoint', { projectId, endpointId: 'Me' })).id, me.id);
    assert.equal(
      (await ok<Endpoint>(client, 'get_endpoint', { projectId, endpointId: 'POST /api/users' })).id,
      post.id,
    );
    assert.equal(
      (await ok<Endpoint>(client, 'get_endpoint', { projectId, endpointId: 'GET /api/users/:userId' })).id,
      byId.id,
    );

    const disabled = await ok<Endpoint>(client, 'update_endpoint', {
      projectId,
      endpointId: post.id,
      enabled: false,
      status: 202,
    });
    assert.equal(disabled.enabled, false);
    assert.equal(disabled.status, 202);
    assert.equal(disabled.path, '/api/users');
    const enabledOnly = await ok<{ endpoints: Endpoint[] }>(client, 'list_endpoints', {
      projectId,
      enabledOnly: true,
    });
    assert.deepEqual(enabledOnly.endpoints.map((e) => e.id).sort(), [byId.id, me.id].sort());

    const found = await ok<{ found: boolean; endpoint: Endpoint; params: Record<string, string> }>(
      client,
      'find_endpoint',
      {
        projectId,
        method: 'GET',
        path: '/api/users/42',
      },
    );
    assert.deepEqual([found.found, found.endpoint.id, found.params], [true, byId.id, { id: '42' }]);
    const literal = await ok<{ endpoint: Endpoint }>(client, 'find_endpoint', {
      projectId,
      path: '/api/users/me',
    });
    assert.equal(literal.endpoint.id, me.id, 'a literal segment beats a parameter');
    const viaUrl = await ok<{ endpoint: Endpoint }>(client, 'find_endpoint', {
      projectId,
      path: 'http://localhost:3001/api/users/7?x=1',
    });
    assert.equal(viaUrl.endpoint.id, byId.id);
    const none = await ok(client, 'find_endpoint', { projectId, method: 'DELETE', path: '/nothing/here' });
    assert.deepEqual(none, { found: false, endpoint: null, params: {} });

    assert.equal((await ok<Endpoint>(client, 'delete_endpoint', { projectId, endpointId: me.id })).id, me.id);
    await fails(client, 'get_endpoint', { projectId, endpointId: me.id }, /NOT_FOUND.*list_endpoints/);
  });

  it('refuses bad endpoint input with a message saying what to fix', async () => {
    await fails(client, 'create_endpoint', { projectId }, /missing required field "path"/i);
    await fails(client, 'create_endpoint', { path: '/x' }, /missing required field "projectId"/i);
    await fails(
      client,
      'create_endpoint',
      { projectId, path: '/x', method: 'FETCH' },
      /method.*must be one of GET/,
    );
    await fails(client, 'create_endpoint', { projectId, path: '/x', status: 700 }, /status.*100 to 599/);
    await fails(client, 'create_endpoint', { projectId, path: '/x', status: 'abc' }, /status/);
    await fails(client, 'create_endpoint', { projectId, path: '/x?y=1' }, /query string/);
    await fails(client, 'create_endpoint', { projectId, path: '/x', kind: 'proxy' }, /proxy target/);
    await fails(client, 'create_endpoint', { projectId, path: '/x', headers: 'nope' }, /headers/);
    await ok(client, 'create_endpoint', { projectId, path: '/dup' });
    await fails(client, 'create_endpoint', { projectId, path: '/dup' }, /CONFLICT.*clashes/);
    await fails(client, 'create_endpoint', { projectId: 'nope', path: '/x' }, /PROJECT_NOT_FOUND/);
    await fails(client, 'update_endpoint', { projectId, endpointId: 'GET /dup' }, /Nothing to update/);
    await fails(
      client,
      'update_endpoint',
      { projectId, endpointId: 'GET /dup', delay: -1 },
      /delay.*negative/,
    );
    await fails(client, 'update_endpoint', { projectId, endpointId: 'GET /gone', status: 500 }, /NOT_FOUND/);
    await fails(client, 'delete_endpoint', { projectId, endpointId: 'GET /gone' }, /NOT_FOUND/);
    await fails(client, 'find_endpoint', { projectId, method: 'BREW', path: '/x' }, /method/);
    await fails(client, 'find_endpoint', { projectId }, /missing required field "path"/i);
    await fails(client, 'list_endpoints', { projectId: '' }, /projectId.*must not be empty/);
    // Arguments that are not an object are refused by the protocol layer; the server keeps serving.
    await assert.rejects(
      client.callTool({ name: 'get_endpoint', arguments: 'nope' as unknown as Record<string, unknown> }),
      /arguments/,
    );
    await ok(client, 'list_endpoints', { projectId });
  });
});

describe('request tools', () => {
  let projectId: string;
  let ids: string[];
  before(async () => {
    projectId = (await ok<ProjectDetail>(client, 'create_project', { name: 'Logged' })).id;
    seedRequests(projectId, null, [
      { method: 'GET', url: '/api/users?page=2', status: 200 },
      { method: 'POST', url: '/api/users', status: 201 },
      { method: 'GET', url: '/missing', status: 404 },
      { method: 'DELETE', url: '/api/users/1', status: 500 },
    ]);
    const { requests } = await ok<{ requests: RequestRecord[] }>(client, 'list_requests', { projectId });
    ids = requests.map((r) => r.id);
  });

  it('lists requests newest first with the CLI filters', async () => {
    const all = await ok<{ requests: RequestRecord[] }>(client, 'list_requests', { projectId });
    assert.deepEqual(
      all.requests.map((r) => r.status),
      [500, 404, 201, 200],
    );
    assert.deepEqual(all.requests[3]!.query, { page: '2' });
    const four = await ok<{ requests: RequestRecord[] }>(client, 'list_requests', {
      projectId,
      status: '4xx',
    });
    assert.deepEqual(
      four.requests.map((r) => r.path),
      ['/missing'],
    );
    const list = await ok<{ requests: RequestRecord[] }>(client, 'list_requests', {
      projectId,
      status: '200,201',
    });
    assert.equal(list.requests.length, 2);
    const numeric = await ok<{ requests: RequestRecord[] }>(client, 'list_requests', {
      projectId,
      status: 500,
    });
    assert.equal(numeric.requests.length, 1);
    const gets = await ok<{ requests: RequestRecord[] }>(client, 'list_requests', {
      projectId,
      method: 'get',
      limit: 1,
    });
    assert.deepEqual(
      gets.requests.map((r) => r.path),
      ['/missing'],
    );
  });

  it('gets, stars, unstars and deletes requests', async () => {
    const one = await ok<RequestRecord>(client, 'get_request', { requestId: ids[1]! });
    assert.equal(one.path, '/missing');
    assert.equal(one.projectId, projectId);
    assert.equal((await ok<RequestRecord>(client, 'star_request', { requestId: ids[1]! })).starred, true);
    const starred = await ok<{ requests: RequestRecord[] }>(client, 'list_requests', {
      projectId,
      starred: true,
    });
    assert.deepEqual(
      starred.requests.map((r) => r.id),
      [ids[1]],
    );
    assert.equal(
      (await ok<RequestRecord>(client, 'star_request', { requestId: ids[1]!, starred: false })).starred,
      false,
    );
    assert.deepEqual(await ok(client, 'delete_request', { requestId: ids[0]! }), { deleted: [ids[0]] });
    assert.deepEqual(await ok(client, 'delete_request', { requestId: [ids[1]!, ids[2]!] }), {
      deleted: [ids[1], ids[2]],
    });
    assert.deepEqual(await ok(client, 'clear_requests', { projectId }), { deleted: 1 });
    assert.deepEqual(await ok(client, 'list_requests', { projectId }), { requests: [] });
  });

  it('refuses bad request input with a message saying what to fix', async () => {
    await fails(client, 'list_requests', { projectId, status: 'teapot' }, /status filter "teapot"/);
    await fails(client, 'list_requests', { projectId, limit: 0 }, /limit/);
    await fails(client, 'list_requests', { projectId, method: 'BREW' }, /method/);
    await fails(client, 'list_requests', { projectId: 'nope' }, /PROJECT_NOT_FOUND/);
    await fails(client, 'get_request', { requestId: '999999' }, /NOT_FOUND.*list_requests/);
    await fails(client, 'get_request', {}, /missing required field "requestId"/i);
    await fails(client, 'star_request', { requestId: '999999' }, /NOT_FOUND/);
    await fails(client, 'star_request', { requestId: '1', starred: 'yes' }, /starred/);
    await fails(client, 'delete_request', { requestId: [] }, /at least one/);
    await fails(client, 'delete_request', { requestId: '999999' }, /NOT_FOUND/);
    await fails(client, 'clear_requests', { projectId: 'nope' }, /PROJECT_NOT_FOUND/);
  });

  it('does not reach requests of a project outside the data directory', async () => {
    const outside = await initProject(ctx, { path: join(tmp.dir, 'outside-logged'), name: 'Outside logged' });
    seedRequests(outside.id, null, [{ method: 'GET', url: '/secret', status: 200 }]);
    const log = new RequestLog(dataPaths(ctx.dataDir).requestLog);
    const hiddenId = log.list(outside.id, {
      limit: 1,
      method: undefined,
      status: undefined,
      starred: undefined,
    })[0]!.id;
    log.close();
    await fails(client, 'get_request', { requestId: hiddenId }, /NOT_FOUND/);
    await fails(client, 'star_request', { requestId: hiddenId }, /NOT_FOUND/);
    await fails(client, 'delete_request', { requestId: hiddenId }, /NOT_FOUND/);
  });
});

describe('import/export tools', () => {
  const petstore = readFileSync(new URL('../fixtures/openapi/petstore-3.0.yaml', import.meta.url), 'utf8');

  it('imports a document given inline into a new project, and exports it back as yaml or json', async () => {
    const report = await ok<{
      project: { id: string; name: string; endpointCount: number };
      created: Endpoint[];
      replaced: Endpoint[];
      skipped: unknown[];
    }>(client, 'import_openapi', { text: petstore });
    assert.ok(report.created.length > 0);
    assert.equal(report.project.endpointCount, report.created.length);
    assert.deepEqual(report.replaced, []);
    const again = await ok<{ created: unknown[]; skipped: { reason: string }[] }>(client, 'import_openapi', {
      text: petstore,
      projectId: report.project.id,
    });
    assert.equal(again.created.length, 0);
    assert.equal(again.skipped.length, report.created.length);
    assert.match(again.skipped[0]!.reason, /overwrite: true/);
    const over = await ok<{ replaced: unknown[] }>(client, 'import_openapi', {
      text: petstore,
      projectId: report.project.id,
      overwrite: true,
    });
    assert.equal(over.replaced.length, report.created.length);

    const yaml = (await client.callTool({
      name: 'export_openapi',
      arguments: { projectId: report.project.id },
    })) as CallToolResult;
    assert.ok(!yaml.isError);
    const structured = yaml.structuredContent as { format: string; openapiVersion: string; text: string };
    assert.equal(structured.format, 'yaml');
    assert.match(structured.text, /^openapi: 3\.0\.3/m);
    assert.equal(textOf(yaml), structured.text, 'the readable text is the document itself');
    const json31 = await ok<{ text: string }>(client, 'export_openapi', {
      projectId: report.project.name,
      format: 'json',
      openapiVersion: '3.1',
    });
    const doc = JSON.parse(json31.text) as { openapi: string; paths: Record<string, unknown> };
    assert.equal(doc.openapi, '3.1.0');
    assert.ok(Object.keys(doc.paths).length > 0);
  });

  it('imports a file inside the data directory, and refuses one outside it', async () => {
    mkdirSync(join(ctx.dataDir, 'specs'), { recursive: true });
    writeFileSync(
      join(ctx.dataDir, 'specs', 'pets.yaml'),
      petstore.replace(/title: .*/, 'title: Pets From File'),
    );
    const report = await ok<{ project: { name: string } }>(client, 'import_openapi', {
      file: 'specs/pets.yaml',
    });
    assert.equal(report.project.name, 'Pets From File');
    writeFileSync(join(tmp.dir, 'outside.yaml'), petstore);
    await fails(
      client,
      'import_openapi',
      { file: join(tmp.dir, 'outside.yaml') },
      /outside the mockdev data directory/,
    );
    await fails(client, 'import_openapi', { file: '../outside.yaml' }, /outside the mockdev data directory/);
    symlinkSync(join(tmp.dir, 'outside.yaml'), join(ctx.dataDir, 'specs', 'link.yaml'));
    await fails(client, 'import_openapi', { file: 'specs/link.yaml' }, /outside the mockdev data directory/);
    await fails(client, 'import_openapi', { file: '/etc/passwd' }, /outside/);
  });

  it('refuses bad import/export input with a message saying what to fix', async () => {
    await fails(client, 'import_openapi', {}, /No OpenAPI document given.*text/);
    await fails(client, 'import_openapi', { text: 'openapi: [' }, /INVALID_INPUT/);
    await fails(
      client,
      'import_openapi',
      { text: '{"openapi":"3.0.3","info":{"title":"x"}}' },
      /not a valid OpenAPI document/,
    );
    await fails(client, 'import_openapi', { text: petstore, file: 'specs/pets.yaml' }, /either/);
    await fails(client, 'import_openapi', { file: 'specs/none.yaml' }, /Cannot read/);
    await fails(client, 'import_openapi', { text: petstore, projectId: 'nope' }, /PROJECT_NOT_FOUND/);
    await fails(client, 'export_openapi', { projectId: 'nope' }, /PROJECT_NOT_FOUND/);
    await fails(client, 'export_openapi', { projectId: 'Logged', format: 'xml' }, /format/);
    await fails(client, 'export_openapi', { projectId: 'Logged', openapiVersion: '2.0' }, /openapiVersion/);
  });
});

describe('the error boundary', () => {
  it('answers an unknown tool with isError and keeps serving', async () => {
    await fails(client, 'no_such_tool', {}, /Unknown tool "no_such_tool".*list_projects/);
    await ok(client, 'list_projects');
  });

  it('reports every call, with its outcome, to the call log hook', () => {
    const failed = calls.filter((c) => !c.ok);
    assert.ok(failed.length > 10);
    assert.ok(failed.every((c) => c.error && c.error.code && c.error.message));
    assert.ok(calls.some((c) => c.ok && c.tool === 'create_project'));
    assert.ok(calls.every((c) => typeof c.durationMs === 'number' && !Number.isNaN(Date.parse(c.time))));
  });
});
