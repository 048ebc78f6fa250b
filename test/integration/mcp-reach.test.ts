/**
 * What MCP reaches (SPEC 4.3, DECISIONS "Trust and data"): every project inside the data
 * directory, folder projects there included (`npm start`'s demo), by id or name only; and a
 * project whose file is broken is listed as unreadable rather than left out.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { initProject } from '../../src/app/projects.js';
import type { ProjectDetail } from '../../src/core/model/project.js';
import { fails, ok, startInMemoryMcp, textOf, type InMemoryMcp } from '../helpers/mcp.js';

type Json = Record<string, unknown>;
type Listed = { projects: Json[]; unreadable?: Json[] };

async function inMemoryMcp(t: { after(fn: () => Promise<void>): void }): Promise<InMemoryMcp> {
  const mcp = await startInMemoryMcp();
  t.after(() => mcp.close());
  return mcp;
}

describe('MCP: every project inside the data directory, by id or name', () => {
  it('lists and reaches the demo of `npm start` (a folder project in the data directory), not a folder outside it', async (t) => {
    const mcp = await inMemoryMcp(t);
    const { client, ctx } = mcp;
    // What scripts/start-demo.mjs does: `mockdev init <data dir>/demo --name demo --with-examples`.
    const demo = await initProject(ctx, {
      path: join(ctx.dataDir, 'demo'),
      name: 'demo',
      withExamples: true,
    });
    const outside = await initProject(ctx, { path: join(mcp.dir, 'elsewhere'), name: 'Elsewhere' });
    const managed = await ok<ProjectDetail>(client, 'create_project', { name: 'Managed' });

    const { projects } = await ok<Listed>(client, 'list_projects');
    assert.deepEqual(projects.map((p) => p.id).sort(), [demo.id, managed.id].sort());
    const got = await ok<ProjectDetail>(client, 'get_project', { projectId: demo.id });
    assert.equal(got.endpoints.length, demo.endpoints.length);
    assert.equal((await ok<ProjectDetail>(client, 'get_project', { projectId: 'demo' })).id, demo.id);
    await fails(client, 'get_project', { projectId: outside.id }, /PROJECT_NOT_FOUND/);
    await fails(client, 'get_project', { projectId: outside.dir }, /PROJECT_NOT_FOUND/);
    await fails(client, 'get_project', { projectId: join(ctx.dataDir, 'demo') }, /PROJECT_NOT_FOUND/);
  });

  it('lists a project whose project.json is broken or from a newer mockdev as unreadable, with the file and the problem', async (t) => {
    const mcp = await inMemoryMcp(t);
    const { client, ctx } = mcp;
    const fine = await ok<ProjectDetail>(client, 'create_project', { name: 'Fine' });
    const broken = join(ctx.dataDir, 'projects', 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, 'project.json'), '{ "id": ');
    const newer = await ok<ProjectDetail>(client, 'create_project', { name: 'Newer' });
    const newerFile = join(ctx.dataDir, 'projects', newer.id, 'project.json');
    writeFileSync(newerFile, JSON.stringify({ schemaVersion: 99, id: newer.id, name: 'Newer' }));

    const r = await client.callTool({ name: 'list_projects', arguments: {} });
    const listed = r.structuredContent as Listed;
    assert.deepEqual(
      listed.projects.map((p) => p.id),
      [fine.id],
    );
    const unreadable = (listed.unreadable ?? []).map((u) => u.unreadable as Json);
    assert.deepEqual(
      unreadable.map((u) => [u.file, u.code]).sort(),
      [
        [join(broken, 'project.json'), 'CORRUPT_FILE'],
        [newerFile, 'UNSUPPORTED_VERSION'],
      ].sort(),
    );
    assert.match(
      String(unreadable.find((u) => u.code === 'UNSUPPORTED_VERSION')?.problem),
      /schemaVersion 99.*Upgrade mockdev/,
    );
    assert.match(textOf(r as never), /UNREADABLE .*broken\/project\.json/);
  });
});
