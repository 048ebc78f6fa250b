/**
 * The data directory's list of known folder projects (folders.json), through the folder store:
 * what only this implementation has (the file, symlinks, broken files, a data directory that
 * cannot be written). The ProjectStore contract (test/contract/) covers what every store does.
 */
import assert from 'node:assert/strict';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { endpoint, projectFile, rejectsWithCode } from '../../../test/contract/project-store.contract.js';
import { realFolder } from './folder-registry.js';
import { FolderProjectStore } from './project-store.js';

let root: string;
let dataDir: string;
let store: FolderProjectStore;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mockdev-folders-'));
  dataDir = join(root, 'data');
  store = new FolderProjectStore(dataDir);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const knownFolders = (): string[] => {
  const parsed = JSON.parse(readFileSync(join(dataDir, 'folders.json'), 'utf8')) as {
    folders: Record<string, unknown>;
  };
  return Object.keys(parsed.folders);
};

/** A folder project this data directory has not seen (written by a store of another one). */
async function folderElsewhere(name: string, path: string) {
  const file = projectFile(name);
  await new FolderProjectStore(join(root, 'other-data')).create(file, [endpoint(1)], {
    folder: { path, cwd: root },
  });
  return file;
}

describe('known folder projects (folders.json)', () => {
  it('records a folder when a project is made there or opened by it, once, by its real path', async () => {
    await store.create(projectFile('Made'), [], { folder: { path: 'made', cwd: root } });
    const opened = await folderElsewhere('Opened', 'opened');
    assert.equal((await store.openFolder('opened', root))?.project.id, opened.id);
    // The same folder through a symlink and through its path: one project, not two.
    symlinkSync(join(root, 'opened'), join(root, 'link'));
    assert.equal((await store.openFolder('link', root))?.project.id, opened.id);
    assert.equal((await store.openFolder(join(root, 'opened'), '/'))?.project.id, opened.id);
    assert.deepEqual(
      knownFolders().sort(),
      [await realFolder(join(root, 'made')), await realFolder(join(root, 'opened'))].sort(),
    );
    assert.equal((await store.find(opened.id)).length, 1);
  });

  it('never records a data-directory project reached through a symlink: it is found once', async () => {
    const managed = await store.create(projectFile('Managed'), []);
    symlinkSync(dataDir, join(root, 'alias'));
    const opened = await store.openFolder(join('alias', 'projects', managed.project.id), root);
    assert.equal(opened?.project.id, managed.project.id);
    assert.deepEqual(
      (await store.find(managed.project.id)).map((p) => p.managed),
      [true],
    );
    assert.equal((await store.list()).projects.length, 1);
  });

  it('drops a folder that was deleted, when it is next read', async () => {
    const gone = await folderElsewhere('Gone', 'gone');
    const kept = await folderElsewhere('Kept', 'kept');
    await store.openFolder('gone', root);
    await store.openFolder('kept', root);
    assert.equal(knownFolders().length, 2);
    rmSync(join(root, 'gone'), { recursive: true });
    assert.deepEqual(await store.find(gone.id), []);
    assert.deepEqual(
      (await store.list()).projects.map((p) => p.project.id),
      [kept.id],
    );
    assert.deepEqual(knownFolders(), [await realFolder(join(root, 'kept'))], 'written back without it');
  });

  it('a broken project.json of a known folder is reported by its file when asked for, never as not found', async () => {
    const file = await folderElsewhere('Fragile Folder', 'fragile');
    await store.openFolder('fragile', root);
    writeFileSync(join(root, 'fragile', 'project.json'), '{"id": ');
    for (const ref of ['Fragile Folder', file.id])
      await rejectsWithCode(store.find(ref), 'CORRUPT_FILE', /fragile\/project\.json is not valid JSON/);
    assert.deepEqual(await store.find('Something else'), []);
    const { unreadable } = await store.list();
    assert.match(unreadable[0]?.error.message ?? '', /fragile\/project\.json/);
    assert.deepEqual(
      [unreadable[0]?.id, unreadable[0]?.name, unreadable[0]?.file],
      [file.id, 'Fragile Folder', join(realpathSync(root), 'fragile', 'project.json')],
      'the id and name known from before, and the file',
    );
    assert.equal(readFileSync(join(root, 'fragile', 'project.json'), 'utf8'), '{"id": ', 'left as it is');
  });

  it('a broken folders.json is never overwritten: it is moved aside, with a warning naming both files', async () => {
    const warnings: string[] = [];
    const warned = new FolderProjectStore(dataDir, { onWarning: (m) => warnings.push(m) });
    const first = await folderElsewhere('First', 'first');
    await warned.openFolder('first', root);
    writeFileSync(join(dataDir, 'folders.json'), '{ broken');
    assert.deepEqual(await warned.find('First'), []);
    const aside = readdirSync(dataDir).filter((n) => n.startsWith('folders.json.broken-'));
    assert.equal(aside.length, 1, 'moved aside once');
    assert.equal(readFileSync(join(dataDir, aside[0]!), 'utf8'), '{ broken', 'kept as it was');
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0]!, /folders\.json is not valid JSON.*moved it to .*folders\.json\.broken-/);
    await warned.openFolder('first', root);
    assert.deepEqual(
      (await warned.find('First')).map((p) => p.project.id),
      [first.id],
    );
    assert.equal(warnings.length, 1, 'said once');
  });

  it('a folders.json of the wrong shape is moved aside too; one of a newer mockdev is left alone', async () => {
    const warnings: string[] = [];
    const warned = new FolderProjectStore(dataDir, { onWarning: (m) => warnings.push(m) });
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'folders.json'), '{"version": 1, "folders": []}');
    await folderElsewhere('Second', 'second');
    await warned.openFolder('second', root);
    assert.equal(readdirSync(dataDir).filter((n) => n.startsWith('folders.json.broken-')).length, 1);
    assert.match(warnings[0]!, /folders\.json has an invalid value/);
    const newer = '{"version": 2, "folders": {}, "more": true}';
    writeFileSync(join(dataDir, 'folders.json'), newer);
    await warned.openFolder('second', root);
    await warned.list();
    assert.equal(readFileSync(join(dataDir, 'folders.json'), 'utf8'), newer, 'not overwritten');
    assert.match(warnings[1]!, /written by a newer mockdev \(version 2\)/);
    assert.equal(warnings.length, 2);
  });

  it('opening a folder project works when the data directory cannot be written', async () => {
    const file = await folderElsewhere('Read Only', 'ro');
    const blocked = join(root, 'blocked');
    writeFileSync(blocked, 'a file where the data directory should be');
    const readOnly = new FolderProjectStore(join(blocked, 'data'));
    assert.equal(
      (await readOnly.openFolder('ro', root))?.project.id,
      file.id,
      'not remembered, and no error',
    );
    const made = await readOnly.create(projectFile('Made Anyway'), [], {
      folder: { path: 'anyway', cwd: root },
    });
    assert.equal((await readOnly.openFolder('anyway', root))?.project.id, made.project.id);
  });

  it('loses no registration when two processes open folders at once', async () => {
    const made = await Promise.all(
      Array.from({ length: 12 }, (_, i) => folderElsewhere(`Parallel ${i}`, `parallel-${i}`)),
    );
    const other = new FolderProjectStore(dataDir);
    mkdirSync(dataDir, { recursive: true });
    await Promise.all(made.map((_, i) => (i % 2 ? other : store).openFolder(`parallel-${i}`, root)));
    for (const file of made)
      assert.deepEqual(
        (await store.find(file.name)).map((p) => p.project.id),
        [file.id],
      );
  });
});
