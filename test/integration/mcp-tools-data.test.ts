/**
 * The request and import/export MCP tools with good and bad input, in process (see
 * mcp-tools.test.ts for the project and endpoint tools).
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { initProject } from '../../src/app/projects.js';
import type { Endpoint } from '../../src/core/model/endpoint.js';
import type { ProjectDetail } from '../../src/core/model/project.js';
import type { RequestRecord } from '../../src/core/model/request.js';
import { parseRequestFilters } from '../../src/core/model/request.js';
import { fails, ok, seedRequests, startInMemoryMcp, textOf, type InMemoryMcp } from '../helpers/mcp.js';

type TestContext = { after(fn: () => Promise<void>): void };

/** An MCP server and client of the test's own, on a fresh data dir, closed after the test. */
async function inMemoryMcp(t: TestContext): Promise<InMemoryMcp> {
  const mcp = await startInMemoryMcp();
  t.after(() => mcp.close());
  return mcp;
}

/** The same, with project "Logged" and four logged requests (`ids`: newest first). */
async function withRequests(t: TestContext) {
  const mcp = await inMemoryMcp(t);
  const { client, ctx } = mcp;
  const projectId = (await ok<ProjectDetail>(client, 'create_project', { name: 'Logged' })).id;
  await seedRequests(ctx, projectId, null, [
    { method: 'GET', url: '/api/users?page=2', status: 200 },
    { method: 'POST', url: '/api/users', status: 201 },
    { method: 'GET', url: '/missing', status: 404 },
    { method: 'DELETE', url: '/api/users/1', status: 500 },
  ]);
  const { requests } = await ok<{ requests: RequestRecord[] }>(client, 'list_requests', { projectId });
  return { ...mcp, projectId, ids: requests.map((r) => r.id) };
}

describe('request tools', () => {
  it('lists requests newest first with the CLI filters', async (t) => {
    const { client, projectId } = await withRequests(t);
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
    const users = await ok<{ requests: RequestRecord[] }>(client, 'list_requests', {
      projectId,
      path: '/api/users',
      method: 'POST',
    });
    assert.deepEqual(
      users.requests.map((r) => `${r.method} ${r.path}`),
      ['POST /api/users'],
    );
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

  it('lists only the requests a live contract check failed, with their verdicts', async (t) => {
    const { client, ctx, projectId, ids } = await withRequests(t);
    const violation = {
      requestId: ids[2]!,
      method: 'POST',
      path: '/api/users',
      operation: 'POST /api/users',
      in: 'request' as const,
      location: 'body.name',
      rule: 'required',
      message: "body must have required property 'name'",
      schemaPath: '#/paths/~1api~1users/post/requestBody/content/application~1json/schema/required',
    };
    await ctx.requests.setContractVerdicts([
      { id: ids[2]!, verdict: { ok: false, violations: [violation] } },
      { id: ids[0]!, verdict: { ok: true, violations: [] } },
    ]);
    const result = (await client.callTool({
      name: 'list_requests',
      arguments: { projectId, violations: true },
    })) as CallToolResult;
    const failing = result.structuredContent as { requests: RequestRecord[] };
    assert.deepEqual(
      failing.requests.map((r) => [r.id, r.contract]),
      [[ids[2], { ok: false, violations: [violation] }]],
    );
    assert.match(textOf(result), /\[1 contract violation\]/);
    const others = await ok<{ requests: RequestRecord[] }>(client, 'list_requests', {
      projectId,
      violations: false,
    });
    assert.deepEqual(
      others.requests.map((r) => r.id),
      [ids[0], ids[1], ids[3]],
    );
    await fails(client, 'list_requests', { projectId, violations: 'yes' }, /violations/);
  });

  it('gets, stars, unstars and deletes requests', async (t) => {
    const { client, projectId, ids } = await withRequests(t);
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

  it('refuses bad request input with a message saying what to fix', async (t) => {
    const { client, projectId } = await withRequests(t);
    await fails(client, 'list_requests', { projectId, status: 'teapot' }, /status filter "teapot"/);
    for (const limit of [0, -1, 1.5, '5', 1_000_001]) {
      await fails(
        client,
        'list_requests',
        { projectId, limit },
        /Invalid limit \S+: must be a whole number from 1 to 1000000\./,
      );
    }
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

  it('does not reach requests of a project outside the data directory', async (t) => {
    const mcp = await inMemoryMcp(t);
    const { client, ctx } = mcp;
    const outside = await initProject(ctx, { path: join(mcp.dir, 'outside-logged'), name: 'Outside logged' });
    await seedRequests(ctx, outside.id, null, [{ method: 'GET', url: '/secret', status: 200 }]);
    const hiddenId = (await ctx.requests.list(outside.id, parseRequestFilters({ limit: 1 })))[0]!.id;
    await fails(client, 'get_request', { requestId: hiddenId }, /NOT_FOUND/);
    await fails(client, 'star_request', { requestId: hiddenId }, /NOT_FOUND/);
    await fails(client, 'delete_request', { requestId: hiddenId }, /NOT_FOUND/);
  });
});

describe('import/export tools', () => {
  const petstore = readFileSync(new URL('../fixtures/openapi/petstore-3.0.yaml', import.meta.url), 'utf8');

  it('imports a document given inline into a new project, and exports it back as yaml or json', async (t) => {
    const { client } = await inMemoryMcp(t);
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
    const over = await ok<{ updated: unknown[] }>(client, 'import_openapi', {
      text: petstore,
      projectId: report.project.id,
      overwrite: true,
    });
    assert.equal(over.updated.length, report.created.length);
    const replace = await ok<{ replaced: unknown[] }>(client, 'import_openapi', {
      text: petstore,
      projectId: report.project.id,
      replace: true,
    });
    assert.equal(replace.replaced.length, report.created.length);

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

  it('imports what can be read and returns the warnings, as the CLI does; strict: true refuses', async (t) => {
    const { client } = await inMemoryMcp(t);
    const blockfrost = readFileSync(
      new URL('../fixtures/openapi/real-world/blockfrost-excerpt.yaml', import.meta.url),
      'utf8',
    );
    const r = (await client.callTool({
      name: 'import_openapi',
      arguments: { text: blockfrost },
    })) as CallToolResult;
    assert.ok(!r.isError, textOf(r));
    const report = r.structuredContent as {
      created: unknown[];
      warnings: { message: string; pointer: string; line: number; column: number }[];
      warningCount: number;
    };
    assert.equal(report.created.length, 4);
    assert.equal(report.warningCount, 2);
    assert.deepEqual(
      report.warnings.map((w) => [w.pointer, w.line, w.column]),
      [
        ['#/components/schemas/drep_metadata/properties/json_metadata/anyOf/6/type', 186, 15],
        ['#/components/schemas/proposal_metadata/properties/json_metadata/anyOf/6/type', 298, 15],
      ],
    );
    assert.match(
      textOf(r),
      /\nwarning: #\/components\/schemas\/drep_metadata\/.* \(line 186, column 15\): must be equal to one of/,
    );
    await fails(
      client,
      'import_openapi',
      { text: blockfrost, strict: true },
      /not a valid OpenAPI document: at #\/components\/schemas\/drep_metadata\/properties\/json_metadata\/anyOf\/6\/type \(line 186, column 15\).*import without the "strict" argument/,
    );
    const { projects } = await ok<{ projects: unknown[] }>(client, 'list_projects');
    assert.equal(projects.length, 1, 'the strict import wrote nothing');
  });

  it('imports a file inside the data directory, and refuses one outside it', async (t) => {
    const mcp = await inMemoryMcp(t);
    const { client, ctx } = mcp;
    mkdirSync(join(ctx.dataDir, 'specs'), { recursive: true });
    writeFileSync(
      join(ctx.dataDir, 'specs', 'pets.yaml'),
      petstore.replace(/title: .*/, 'title: Pets From File'),
    );
    const report = await ok<{ project: { name: string } }>(client, 'import_openapi', {
      file: 'specs/pets.yaml',
    });
    assert.equal(report.project.name, 'Pets From File');
    writeFileSync(join(mcp.dir, 'outside.yaml'), petstore);
    await fails(
      client,
      'import_openapi',
      { file: join(mcp.dir, 'outside.yaml') },
      /outside the mockdev data directory/,
    );
    await fails(client, 'import_openapi', { file: '../outside.yaml' }, /outside the mockdev data directory/);
    symlinkSync(join(mcp.dir, 'outside.yaml'), join(ctx.dataDir, 'specs', 'link.yaml'));
    await fails(client, 'import_openapi', { file: 'specs/link.yaml' }, /outside the mockdev data directory/);
    await fails(client, 'import_openapi', { file: '/etc/passwd' }, /outside/);

    // A $ref to a file outside the data directory is not read: a warning, or with strict an error.
    const refOut = [
      'openapi: 3.0.3',
      "info: { title: Ref Out, version: '1' }",
      'paths:',
      '  /x:',
      '    get:',
      '      responses:',
      "        '200': { $ref: '../outside.yaml#/paths/~1pets/get/responses/200' }",
    ].join('\n');
    const lenient = await ok<{ created: Endpoint[]; warnings: { message: string }[] }>(
      client,
      'import_openapi',
      {
        text: refOut,
      },
    );
    assert.deepEqual(
      lenient.created.map((e) => [e.path, e.body]),
      [['/x', '']],
    );
    assert.match(
      lenient.warnings[0]!.message,
      /^#\/paths\/~1x\/get\/responses\/200 \(line 7, column 9\): the \$ref "\.\.\/outside\.yaml#.*" cannot be resolved: .*outside the mockdev data directory/,
    );
    await fails(
      client,
      'import_openapi',
      { text: refOut, strict: true },
      /has a \$ref that cannot be resolved: .*outside the mockdev data directory/,
    );
  });

  it('refuses bad import/export input with a message saying what to fix', async (t) => {
    const { client } = await inMemoryMcp(t);
    await ok(client, 'create_project', { name: 'Logged' });
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
