import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { MockdevError } from '../../src/core/errors.js';
import { newId } from '../../src/core/ids.js';
import type { Endpoint } from '../../src/core/model/endpoint.js';
import type { ProjectFile } from '../../src/core/model/project.js';
import type { ProjectChange, ProjectStore, StoredProject, Stores } from '../../src/core/ports.js';
import { waitUntil } from '../helpers/wait.js';
import type { StoreImplementation } from './implementations.js';

let seq = 0;
export const projectFile = (name: string, extra: Partial<ProjectFile> = {}): ProjectFile => ({
  schemaVersion: 1,
  id: newId(),
  name,
  description: '',
  port: 3001,
  createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, ++seq)).toISOString(),
  updatedAt: new Date(Date.UTC(2026, 0, 1)).toISOString(),
  ...extra,
});

export const endpoint = (n: number): Endpoint => ({
  id: `e${n}`,
  name: `endpoint ${n}`,
  method: 'GET',
  path: `/p/${n}`,
  status: 200,
  headers: {},
  body: `{"n":${n}}`,
  contentType: 'application/json',
  delay: 0,
  enabled: true,
  kind: 'mock',
  variations: [],
});

export const rejectsWithCode = (p: Promise<unknown>, code: string, re?: RegExp) =>
  assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof MockdevError, `expected a MockdevError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    if (re) assert.match(e.message, re);
    return true;
  });

/** The ProjectStore contract: what every implementation of the interface does. */
export function projectStoreContract(impl: StoreImplementation): void {
  describe(`ProjectStore contract: ${impl.name}`, () => {
    let stores: Stores;
    let again: () => Stores;
    let cleanup: () => Promise<void>;
    let projects: ProjectStore;
    // Every test gets fresh, empty stores: none sees what another left behind.
    beforeEach(async () => {
      ({ stores, again, cleanup } = await impl.open());
      projects = stores.projects;
    });
    afterEach(() => cleanup());

    it('creates a managed project that get, find, summaries and list return', async () => {
      const file = projectFile('Alpha');
      const created = await projects.create(file, [endpoint(1)]);
      assert.equal(created.managed, true);
      assert.deepEqual(created.project, file);
      const byId = await projects.get(file.id);
      assert.deepEqual(byId?.project, file);
      assert.deepEqual(byId?.endpoints, [endpoint(1)]);
      assert.equal(byId?.key, created.key);
      assert.deepEqual(
        (await projects.find(file.id)).map((p) => p.project.id),
        [file.id],
      );
      assert.deepEqual(
        (await projects.find('Alpha')).map((p) => p.project.id),
        [file.id],
      );
      assert.deepEqual(
        (await projects.find('alpha')).map((p) => p.project.id),
        [file.id],
        'case-insensitive when no exact match',
      );
      assert.deepEqual(
        (await projects.summaries()).filter((n) => n.id === file.id),
        [{ id: file.id, name: 'Alpha', port: file.port, managed: true }],
      );
      const { projects: all, unreadable } = await projects.list();
      assert.deepEqual(unreadable, []);
      assert.ok(all.some((p) => p.project.id === file.id && p.endpoints.length === 1));
      assert.equal(await projects.get('no-such-id'), undefined);
      assert.deepEqual(await projects.find('No such project'), []);
    });

    it('lists projects oldest first', async () => {
      const a = projectFile('Order A', { createdAt: '2020-01-01T00:00:00.000Z' });
      const b = projectFile('Order B', { createdAt: '2019-01-01T00:00:00.000Z' });
      await projects.create(a, []);
      await projects.create(b, []);
      const ids = (await projects.list()).projects.map((p) => p.project.id);
      assert.ok(ids.indexOf(b.id) < ids.indexOf(a.id));
    });

    it('refuses a managed name another project has, case-insensitively (NAME_TAKEN)', async () => {
      await projects.create(projectFile('Taken'), []);
      await rejectsWithCode(projects.create(projectFile('TAKEN'), []), 'NAME_TAKEN', /Taken/);
      assert.equal((await projects.find('TAKEN')).length, 1);
    });

    it('updates endpoints and settings; a rename frees the old name and refuses a taken one', async () => {
      const file = projectFile('Before');
      const { key } = await projects.create(file, []);
      const result = await projects.update(key, (current) => ({
        endpoints: [...current.endpoints, endpoint(2)],
        project: { ...current.project, name: 'After', port: 4000 },
        result: 'done',
      }));
      assert.equal(result, 'done');
      const read = await projects.read(key);
      assert.equal(read.project.name, 'After');
      assert.equal(read.project.port, 4000);
      assert.deepEqual(read.endpoints, [endpoint(2)]);
      assert.deepEqual(await projects.find('Before'), []);
      assert.equal((await projects.find('After'))[0]?.project.id, file.id);
      assert.deepEqual(
        (await again().projects.summaries()).filter((n) => n.id === file.id).map((n) => [n.name, n.port]),
        [['After', 4000]],
        'summaries see the new name and port, from another handle too',
      );
      await projects.create(projectFile('Before'), []);
      await projects.create(projectFile('Other'), []);
      await rejectsWithCode(
        projects.update(key, (c) => ({ project: { ...c.project, name: 'other' }, result: undefined })),
        'NAME_TAKEN',
      );
      assert.equal((await projects.read(key)).project.name, 'After', 'nothing written');
    });

    it('writes nothing when a change throws', async () => {
      const { key } = await projects.create(projectFile('Unchanged'), [endpoint(1)]);
      await assert.rejects(
        projects.update(key, () => {
          throw new Error('no');
        }),
        /no/,
      );
      assert.deepEqual((await projects.read(key)).endpoints, [endpoint(1)]);
    });

    it('serialises concurrent changes, from this handle and another, so none is lost', async () => {
      const { key } = await projects.create(projectFile('Busy'), []);
      const other = again().projects;
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? other : projects).update(key, (current) => ({
            endpoints: [...current.endpoints, endpoint(100 + i)],
            result: undefined,
          })),
        ),
      );
      assert.equal((await projects.read(key)).endpoints.length, 20);
    });

    it('removes a project: gone from get, find, list and read', async () => {
      const file = projectFile('Doomed');
      const { key } = await projects.create(file, [endpoint(1)]);
      await projects.remove(key);
      assert.equal(await projects.get(file.id), undefined);
      assert.deepEqual(await projects.find('Doomed'), []);
      assert.ok(!(await projects.list()).projects.some((p) => p.project.id === file.id));
      await rejectsWithCode(projects.read(key), 'PROJECT_NOT_FOUND');
      await projects.create(projectFile('Doomed'), []);
    });

    it('feeds changes made through another handle to watchers of one project and of all', async () => {
      const file = projectFile('Watched');
      const { key } = await projects.create(file, []);
      const one: ProjectChange[] = [];
      const all: ProjectChange[] = [];
      const a = projects.watch((c) => one.push(c), { key });
      const b = projects.watch((c) => all.push(c));
      try {
        const other = again().projects;
        await other.update(key, () => ({ endpoints: [endpoint(9)], result: undefined }));
        await waitUntil(
          () => one.some((c) => c.change === 'updated'),
          'the project watcher to hear the change',
        );
        assert.ok(one.every((c) => c.projectId === file.id && c.key === key));
        await waitUntil(
          () => all.some((c) => c.projectId === file.id && c.change === 'updated'),
          'the data-wide watcher to hear the change',
        );
        const created = projectFile('Newcomer');
        await other.create(created, []);
        await waitUntil(
          () => all.some((c) => c.projectId === created.id && c.change === 'created'),
          'the creation to be heard',
        );
        const { key: newKey } = (await projects.find('Newcomer'))[0]!;
        await other.remove(newKey);
        await waitUntil(
          () => all.some((c) => c.projectId === created.id && c.change === 'deleted'),
          'the deletion to be heard',
        );
      } finally {
        a.close();
        b.close();
      }
    });
  });

  if (impl.folderProjects) folderProjectContract(impl);
}

const ids = (found: StoredProject[]) => found.map((p) => p.project.id).sort();

/**
 * Folder projects (ProjectStore in core/ports.ts): a project in a folder the user chose is known
 * to the store once created there or opened by its folder, and found by id and name like a
 * managed one, until its folder holds no project.
 */
function folderProjectContract(impl: StoreImplementation): void {
  describe(`ProjectStore contract, folder projects: ${impl.name}`, () => {
    let projects: ProjectStore;
    let again: () => Stores;
    let cleanup: () => Promise<void>;
    let folders: string;
    const extra: (() => Promise<void>)[] = [];
    beforeEach(async () => {
      const opened = await impl.open();
      ({ again, cleanup } = opened);
      projects = opened.stores.projects;
      folders = opened.folders!;
    });
    afterEach(async () => {
      for (const fn of extra.splice(0)) await fn();
      await cleanup();
    });

    it('knows a project created in a folder: found by id and name, listed as not managed', async () => {
      const file = projectFile('Folder One');
      const created = await projects.create(file, [endpoint(1)], { folder: { path: 'one', cwd: folders } });
      assert.equal(created.managed, false);
      for (const ref of [file.id, 'Folder One', 'folder one']) {
        const found = await projects.find(ref);
        assert.deepEqual(ids(found), [file.id], ref);
        assert.equal(found[0]!.managed, false);
        assert.deepEqual(found[0]!.endpoints, [endpoint(1)]);
      }
      assert.deepEqual(await again().projects.find('Folder One').then(ids), [file.id], 'another process');
      const { projects: all, unreadable } = await projects.list();
      assert.deepEqual(unreadable, []);
      assert.deepEqual(
        all.filter((p) => p.project.id === file.id).map((p) => p.managed),
        [false],
      );
      // The managed-only views (the MCP server's reach) leave it out.
      assert.deepEqual(await projects.find(file.id, { managedOnly: true }), []);
      assert.equal(await projects.get(file.id), undefined);
      assert.deepEqual(
        (await projects.summaries()).filter((n) => n.id === file.id),
        [{ id: file.id, name: 'Folder One', port: file.port, managed: false }],
      );
      assert.ok(!(await projects.summaries({ managedOnly: true })).some((n) => n.id === file.id));
      assert.ok(!(await projects.list({ managedOnly: true })).projects.some((p) => p.project.id === file.id));
    });

    it('knows a folder project once opened by its folder, until the folder holds none', async () => {
      // Made through the stores of another data directory: this one has never seen it.
      const elsewhere = await impl.open();
      extra.push(elsewhere.cleanup);
      const file = projectFile('Opened Later');
      const made = await elsewhere.stores.projects.create(file, [], {
        folder: { path: join(folders, 'later'), cwd: folders },
      });
      assert.deepEqual(await projects.find('Opened Later'), []);
      assert.ok(!(await projects.list()).projects.some((p) => p.project.id === file.id));
      assert.equal((await projects.openFolder('later', folders))?.project.id, file.id);
      assert.deepEqual(await projects.find('Opened Later').then(ids), [file.id]);
      assert.deepEqual(await projects.find(file.id).then(ids), [file.id]);
      assert.ok((await projects.list()).projects.some((p) => p.project.id === file.id));
      // Its project files deleted (by anyone): no longer found or listed.
      await elsewhere.stores.projects.remove(made.key);
      assert.deepEqual(await projects.find(file.id), []);
      assert.deepEqual(await projects.find('Opened Later'), []);
      assert.ok(!(await projects.list()).projects.some((p) => p.project.id === file.id));
    });

    it('finds a folder project by its new name after a rename, not by the old one', async () => {
      const file = projectFile('Old Folder Name');
      const { key } = await projects.create(file, [], { folder: { path: 'renamed', cwd: folders } });
      await again().projects.update(key, (c) => ({
        project: { ...c.project, name: 'New Folder Name' },
        result: undefined,
      }));
      assert.deepEqual(await projects.find('Old Folder Name'), []);
      assert.deepEqual(await projects.find('new folder name').then(ids), [file.id]);
    });

    it('a name a managed and a folder project share finds both; an exact match beats another case', async () => {
      const managed = projectFile('Shared');
      const inFolder = projectFile('Shared');
      await projects.create(managed, []);
      await projects.create(inFolder, [], { folder: { path: 'shared', cwd: folders } });
      assert.deepEqual(await projects.find('Shared').then(ids), [managed.id, inFolder.id].sort());
      assert.deepEqual(await projects.find('shared').then(ids), [managed.id, inFolder.id].sort());
      const lower = projectFile('shared');
      await projects.create(lower, [], { folder: { path: 'lower', cwd: folders } });
      assert.deepEqual(await projects.find('shared').then(ids), [lower.id], 'the exact name wins');
      assert.deepEqual(await projects.find(managed.id).then(ids), [managed.id], 'an id is one project');
    });

    it('a removed folder project is no longer found or listed', async () => {
      const file = projectFile('Removed Folder');
      const { key } = await projects.create(file, [], { folder: { path: 'removed', cwd: folders } });
      assert.deepEqual(await projects.find('Removed Folder').then(ids), [file.id]);
      await projects.remove(key);
      assert.deepEqual(await projects.find(file.id), []);
      assert.ok(!(await projects.list()).projects.some((p) => p.project.id === file.id));
      assert.equal(await projects.openFolder('removed', folders), undefined);
    });
  });
}
