/**
 * The project, endpoint and error-boundary behaviour of every MCP tool with good and bad input,
 * in process: the SDK's Client linked to the server through its InMemoryTransport, on a temp
 * data dir. (Spawned stdio/HTTP tests prove the wiring; mcp-tools-data.test.ts has the request
 * and import/export tools.)
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { initProject } from '../../src/app/projects.js';
import type { Endpoint } from '../../src/core/model/endpoint.js';
import type { ProjectDetail } from '../../src/core/model/project.js';
import { TOOL_NAMES, fails, ok, startInMemoryMcp, type InMemoryMcp } from '../helpers/mcp.js';

type TestContext = { after(fn: () => Promise<void>): void };

/** An MCP server and client of the test's own, on a fresh data dir, closed after the test. */
async function inMemoryMcp(t: TestContext): Promise<InMemoryMcp> {
  const mcp = await startInMemoryMcp();
  t.after(() => mcp.close());
  return mcp;
}

/** The same, with an empty project "Users API" for the endpoint tools. */
async function withProject(t: TestContext) {
  const mcp = await inMemoryMcp(t);
  const projectId = (await ok<ProjectDetail>(mcp.client, 'create_project', { name: 'Users API' })).id;
  return { ...mcp, projectId };
}

describe('tools/list', () => {
  it('lists exactly the 18 tools, each described, annotated, with described inputs and an object output schema', async (t) => {
    const { client } = await inMemoryMcp(t);
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
  it('create, list, get, update and delete a project', async (t) => {
    const { client } = await inMemoryMcp(t);
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

  it('refuses bad project input with a message saying what to fix', async (t) => {
    const { client } = await inMemoryMcp(t);
    await fails(client, 'create_project', {}, /missing required field "name"/i);
    await fails(client, 'create_project', { name: 42 }, /invalid name 42: /i);
    await fails(client, 'create_project', { name: 'a/b' }, /must not contain "\/"/);
    await fails(client, 'create_project', { name: 'Low', port: 80 }, /port 80: must be from 1024 to 65535/);
    await fails(client, 'create_project', { name: 'Low', port: '4000' }, /port/);
    await ok(client, 'create_project', { name: 'Twice' });
    await fails(client, 'create_project', { name: 'twice' }, /NAME_TAKEN.*already exists/);
    await fails(
      client,
      'update_project',
      { projectId: 'Twice' },
      /Nothing to update.*name, description, port or tls/,
    );
    await fails(client, 'update_project', { projectId: 'Twice', port: 70000 }, /port/);
    await fails(client, 'update_project', { projectId: 'nope', port: 5000 }, /PROJECT_NOT_FOUND/);
    await fails(client, 'delete_project', { projectId: 'nope' }, /PROJECT_NOT_FOUND/);
    await fails(client, 'get_project', {}, /missing required field "projectId"/i);
  });

  it('never reaches a project outside the data directory, by path or by id', async (t) => {
    const mcp = await inMemoryMcp(t);
    const { ctx, client } = mcp;
    const outside = await initProject(ctx, { path: join(mcp.dir, 'outside'), name: 'Outside' });
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
  it('create, list, get, update, find and delete endpoints', async (t) => {
    const { client, projectId } = await withProject(t);
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
    const withHeaders = await ok<Endpoint>(client, 'update_endpoint', {
      projectId,
      endpointId: post.id,
      headers: { 'X-A': '1', 'X-B': '2' },
    });
    assert.deepEqual(withHeaders.headers, { Location: '/api/users/2', 'X-A': '1', 'X-B': '2' });
    const merged = await ok<Endpoint>(client, 'update_endpoint', {
      projectId,
      endpointId: post.id,
      headers: { 'x-a': null, 'X-B': '3', 'X-C': '4' },
    });
    assert.deepEqual(
      merged.headers,
      { Location: '/api/users/2', 'X-B': '3', 'X-C': '4' },
      'null removes, others merge',
    );
    await fails(
      client,
      'update_endpoint',
      { projectId, endpointId: post.id, headers: { 'X-Gone': null } },
      /has no header "X-Gone" to remove/,
    );
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

  it('refuses bad endpoint input with a message saying what to fix', async (t) => {
    const { client, projectId } = await withProject(t);
    await fails(client, 'create_endpoint', { projectId }, /missing required field "path"/i);
    await fails(client, 'create_endpoint', { path: '/x' }, /missing required field "projectId"/i);
    await fails(
      client,
      'create_endpoint',
      { projectId, path: '/x', method: 'FETCH' },
      /method.*must be one of GET/,
    );
    await fails(client, 'create_endpoint', { projectId, path: '/x', status: 700 }, /status.*200 to 599/);
    await fails(client, 'create_endpoint', { projectId, path: '/x', status: 101 }, /status.*interim answer/);
    await fails(
      client,
      'create_endpoint',
      { projectId, path: '/bad', headers: { 'X Evil': 'a' } },
      /header name "X Evil": may contain only letters/,
    );
    await fails(
      client,
      'create_endpoint',
      { projectId, path: '/bad', headers: { 'X-Ok': 'a\r\nSet-Cookie: x=1' } },
      /value of header "X-Ok".*no line breaks/,
    );
    await fails(client, 'create_endpoint', { projectId, path: '/users/{id' }, /path.*unbalanced/);
    await fails(client, 'create_endpoint', { projectId, path: '/files/*' }, /wildcards are not supported/);
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

describe('the error boundary', () => {
  it('answers an unknown tool with isError and keeps serving', async (t) => {
    const { client } = await inMemoryMcp(t);
    await fails(client, 'no_such_tool', {}, /Unknown tool "no_such_tool".*list_projects/);
    await ok(client, 'list_projects');
  });

  it('reports every call, with its outcome, to the call log hook', async (t) => {
    const { client, calls } = await inMemoryMcp(t);
    const project = await ok<ProjectDetail>(client, 'create_project', { name: 'Logged' });
    await ok(client, 'list_projects');
    const bad: [string, Record<string, unknown>, RegExp][] = [
      ['create_project', {}, /name/],
      ['create_project', { name: 'a/b' }, /name/],
      ['create_project', { name: 'Low', port: 80 }, /port/],
      ['create_project', { name: 'logged' }, /NAME_TAKEN/],
      ['get_project', { projectId: 'nope' }, /PROJECT_NOT_FOUND/],
      ['update_project', { projectId: project.id }, /Nothing to update/],
      ['delete_project', { projectId: 'nope' }, /PROJECT_NOT_FOUND/],
      ['create_endpoint', { projectId: project.id, path: '/x', status: 700 }, /status/],
      ['create_endpoint', { projectId: project.id, path: '/x', method: 'FETCH' }, /method/],
      ['get_endpoint', { projectId: project.id, endpointId: 'nope' }, /NOT_FOUND/],
      ['find_endpoint', { projectId: project.id }, /path/],
      ['list_requests', { projectId: project.id, status: 'teapot' }, /status/],
    ];
    for (const [tool, args, re] of bad) await fails(client, tool, args, re);
    assert.equal(calls.length, bad.length + 2, 'one record per call');
    assert.deepEqual(
      calls.map((c) => [c.tool, c.ok]),
      [['create_project', true], ['list_projects', true], ...bad.map(([tool]) => [tool, false])],
    );
    const failed = calls.filter((c) => !c.ok);
    assert.ok(failed.length > 10);
    assert.ok(failed.every((c) => c.error && c.error.code && c.error.message));
    assert.ok(calls.some((c) => c.ok && c.tool === 'create_project'));
    assert.ok(calls.every((c) => typeof c.durationMs === 'number' && !Number.isNaN(Date.parse(c.time))));
  });
});
