/**
 * The folder store's own behaviour (the ProjectStore contract, test/contract/, covers what every
 * implementation does): the files on disk, broken and old files, folders the user chose, the
 * name index, locks.
 */
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdtempSync,
  promises as fsPromises,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { flow } from '../../../test/contract/project-flows.contract.js';
import { endpoint, projectFile, rejectsWithCode } from '../../../test/contract/project-store.contract.js';
import { readLock, removeStale, withLock } from './lock.js';
import { FolderProjectStore } from './project-store.js';

let root: string;
let dataDir: string;
let store: FolderProjectStore;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mockdev-store-'));
  dataDir = join(root, 'data');
  store = new FolderProjectStore(dataDir);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The files read while `fn` runs (project.json, endpoints.json and the index). */
async function readsDuring<T>(fn: () => Promise<T>): Promise<{ result: T; reads: string[] }> {
  const original = fsPromises.readFile;
  const reads: string[] = [];
  fsPromises.readFile = ((...args: Parameters<typeof original>) => {
    reads.push(String(args[0]));
    return original.apply(fsPromises, args);
  }) as typeof original;
  try {
    return { result: await fn(), reads };
  } finally {
    fsPromises.readFile = original;
  }
}

describe('FolderProjectStore', () => {
  it('writes pretty, stable JSON: project.json and endpoints.json in <data>/projects/<id>', async () => {
    const file = projectFile('Alpha');
    const created = await store.create(file, []);
    assert.equal(created.key, join(dataDir, 'projects', file.id));
    assert.equal(
      readFileSync(join(created.key, 'project.json'), 'utf8'),
      `${JSON.stringify(file, null, 2)}\n`,
    );
    assert.equal(readFileSync(join(created.key, 'endpoints.json'), 'utf8'), '[]\n');
  });

  it('creates a project in a folder the user chose; refuses one that holds a project unless told to', async () => {
    const folder = { path: 'mine', cwd: root };
    const created = await store.create(projectFile('Mine'), [endpoint(1)], { folder });
    assert.equal(created.managed, false);
    assert.equal(created.location, join(root, 'mine'));
    assert.equal((await store.openFolder('mine', root))?.project.name, 'Mine');
    assert.equal(await store.openFolder('nowhere', root), undefined);
    await rejectsWithCode(store.create(projectFile('Again'), [], { folder }), 'CONFLICT', /already exists/);
    assert.equal((await store.openFolder('mine', root))?.project.name, 'Mine', 'untouched');
    await store.create(projectFile('Again'), [], { folder: { ...folder, overwrite: true } });
    assert.equal((await store.openFolder('mine', root))?.project.name, 'Again');
    assert.deepEqual(
      (await store.find('Again')).map((p) => [p.project.name, p.managed, p.location]),
      [['Again', false, join(root, 'mine')]],
      'a folder project is found by name, and is not a managed project',
    );
    assert.deepEqual(await store.find('Mine'), [], 'the overwritten project is gone');
  });

  it('reports a corrupt project.json by name and never overwrites it', async () => {
    const { key } = await store.create(projectFile('Broken'), []);
    writeFileSync(join(key, 'project.json'), '{ "id": "broken", ');
    await rejectsWithCode(store.read(key), 'CORRUPT_FILE', /project\.json is not valid JSON/);
    await rejectsWithCode(
      store.update(key, () => ({ endpoints: [], result: 1 })),
      'CORRUPT_FILE',
    );
    assert.equal(readFileSync(join(key, 'project.json'), 'utf8'), '{ "id": "broken", ');
    const { unreadable } = await store.list();
    assert.ok(
      unreadable.some(
        (u) => u.error.code === 'CORRUPT_FILE' && u.file === join(key, 'project.json') && u.key === key,
      ),
    );
    await store.remove(key);
  });

  it('names the broken file when a project found by name has a corrupt endpoints.json: it never disappears', async () => {
    const file = projectFile('Half broken');
    const { key } = await store.create(file, []);
    writeFileSync(join(key, 'endpoints.json'), '[{"id": ');
    for (const ref of ['Half broken', 'half BROKEN', file.id])
      await rejectsWithCode(store.find(ref), 'CORRUPT_FILE', /endpoints\.json is not valid JSON/);
    writeFileSync(
      join(key, 'endpoints.json'),
      JSON.stringify([{ id: 'e1', name: 'x', method: 'GET', path: '/x', status: 999 }]),
    );
    await rejectsWithCode(
      store.read(key),
      'CORRUPT_FILE',
      /endpoints\.json has an invalid value at 0\.status/,
    );
    await store.remove(key);
  });

  it('migrates a project.json without schemaVersion and refuses one from a newer mockdev', async () => {
    const file = projectFile('Old');
    const { key } = await store.create(file, []);
    const { schemaVersion: _drop, ...legacy } = file;
    writeFileSync(join(key, 'project.json'), JSON.stringify(legacy));
    assert.equal((await store.read(key)).project.schemaVersion, 1);
    writeFileSync(join(key, 'project.json'), JSON.stringify({ ...file, schemaVersion: 7 }));
    await rejectsWithCode(store.read(key), 'UNSUPPORTED_VERSION', /schemaVersion 7/);
    await store.remove(key);
  });

  it('finds a project by name or id reading only that project, whatever the others hold', async () => {
    const many = await Promise.all(
      Array.from({ length: 30 }, (_, i) => store.create(projectFile(`Many ${i}`), [])),
    );
    const target = many[17]!;
    await store.find('warm the index');
    for (const ref of ['Many 17', target.project.id]) {
      const { result, reads } = await readsDuring(() => store.find(ref));
      assert.deepEqual(
        result.map((p) => p.project.id),
        [target.project.id],
      );
      const others = reads.filter(
        (f) => !f.includes(target.project.id) && !f.endsWith('.index.json') && !f.endsWith('folders.json'),
      );
      assert.deepEqual(others, [], `no other project read for ${ref}`);
    }
    for (const p of many) await store.remove(p.key);
  });

  it('keeps its name index honest: hand renames, copied folders and a lost index are found', async () => {
    const file = projectFile('Renamed by hand');
    const { key } = await store.create(file, []);
    await store.find('Renamed by hand');
    writeFileSync(join(key, 'project.json'), JSON.stringify({ ...file, name: 'New hand name' }));
    assert.equal((await store.find('New hand name'))[0]?.project.id, file.id);
    assert.deepEqual(await store.find('Renamed by hand'), []);
    const copied = join(dataDir, 'projects', 'copied-by-hand');
    renameSync(key, copied);
    assert.equal((await store.find(file.id))[0]?.key, copied);
    rmSync(join(dataDir, 'projects', '.index.json'));
    assert.equal((await store.find('new hand name'))[0]?.key, copied);
    writeFileSync(join(dataDir, 'projects', '.index.json'), '{ broken');
    assert.equal((await store.get(file.id))?.key, copied);
    await store.remove(copied);
  });

  it('looks up nothing in a data directory that does not exist, without creating it', async () => {
    const empty = new FolderProjectStore(join(root, 'never-made'));
    assert.deepEqual(await empty.find('anything'), []);
    assert.equal(await empty.get('abc'), undefined);
    assert.deepEqual(await empty.summaries(), []);
    assert.equal(existsSync(join(root, 'never-made')), false);
  });

  it('removes a managed project folder, but only mockdev’s files of a folder elsewhere', async () => {
    const inside = await store.create(projectFile('Gone'), []);
    await store.remove(inside.key);
    assert.equal(existsSync(inside.key), false);
    const outside = mkdtempSync(join(root, 'outside-'));
    writeFileSync(join(outside, 'README.md'), 'mine');
    const made = await store.create(projectFile('Out'), [], { folder: { path: outside, cwd: root } });
    await store.remove(made.key);
    assert.deepEqual(readdirSync(outside), ['README.md']);
  });

  it('leaves no temp or lock files behind after concurrent changes', async () => {
    const { key } = await store.create(projectFile('Concurrent'), []);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store.update(key, (c) => ({ endpoints: [...c.endpoints, endpoint(i)], result: undefined })),
      ),
    );
    assert.equal((await store.read(key)).endpoints.length, 10);
    assert.deepEqual(
      readdirSync(key).filter((f) => f.endsWith('.tmp') || f.endsWith('.lock')),
      [],
    );
  });

  it('writes flows.json once a project has flows, and a folder project’s removal leaves none behind', async () => {
    const outside = mkdtempSync(join(root, 'flows-'));
    writeFileSync(join(outside, 'README.md'), 'mine');
    const { key } = await store.create(projectFile('Flowing'), [endpoint(1)], {
      folder: { path: outside, cwd: root },
    });
    assert.equal(existsSync(join(key, 'flows.json')), false, 'none until it has flows');
    await store.update(key, () => ({ flows: [flow(1)], result: undefined }));
    assert.deepEqual(JSON.parse(readFileSync(join(key, 'flows.json'), 'utf8')), [flow(1)]);
    await store.remove(key);
    assert.deepEqual(readdirSync(outside), ['README.md']);
  });

  it('reports a corrupt flows.json by name (CORRUPT_FILE) and never overwrites it', async () => {
    const { key } = await store.create(projectFile('Broken flows'), [], { flows: [flow(1)] });
    writeFileSync(join(key, 'flows.json'), '[{"id": ');
    await rejectsWithCode(store.read(key), 'CORRUPT_FILE', /flows\.json is not valid JSON/);
    await rejectsWithCode(store.find('Broken flows'), 'CORRUPT_FILE', /flows\.json/);
    await rejectsWithCode(
      store.update(key, () => ({ flows: [], result: 1 })),
      'CORRUPT_FILE',
      /flows\.json/,
    );
    assert.equal(readFileSync(join(key, 'flows.json'), 'utf8'), '[{"id": ', 'untouched');
    writeFileSync(
      join(key, 'flows.json'),
      JSON.stringify([{ ...flow(1), steps: [{ id: 's', trigger: {} }] }]),
    );
    await rejectsWithCode(store.read(key), 'CORRUPT_FILE', /flows\.json has an invalid value at 0\.steps\.0/);
    const { unreadable } = await store.list();
    assert.ok(unreadable.some((u) => u.error.code === 'CORRUPT_FILE' && u.file === join(key, 'flows.json')));
  });
});

describe('withLock', () => {
  it('takes over a lock left by a dead process', async () => {
    const lockFile = join(root, 'dead.lock');
    writeFileSync(lockFile, `999999999\n${hostname()}\n`);
    assert.equal(await withLock(lockFile, async () => 'ran', { timeoutMs: 2000 }), 'ran');
  });

  it('is held by one at a time when many find the same abandoned lock at once', async () => {
    const lockFile = join(root, 'contended.lock');
    // Many rounds: the race between taking over the abandoned lock and a fresh one is narrow.
    for (let round = 0; round < 25; round++) {
      writeFileSync(lockFile, `999999999\n${hostname()}\n`);
      let holders = 0;
      let most = 0;
      await Promise.all(
        Array.from({ length: 40 }, () =>
          withLock(lockFile, async () => {
            most = Math.max(most, ++holders);
            await new Promise((r) => setTimeout(r, 1));
            holders--;
          }),
        ),
      );
      assert.equal(most, 1, `never two holders (round ${round})`);
      assert.equal(existsSync(lockFile), false);
      assert.deepEqual(
        readdirSync(root).filter((f) => f.includes('.stale') || f.includes('.break')),
        [],
      );
    }
  });

  it('does not remove a lock taken after it was found abandoned', async () => {
    const lockFile = join(root, 'raced.lock');
    writeFileSync(lockFile, `999999999\n${hostname()}\n`);
    const abandoned = (await readLock(lockFile))!;
    // Meanwhile its owner's lock went and another process took the lock.
    rmSync(lockFile);
    writeFileSync(lockFile, `${process.pid}\n${hostname()}\n`);
    await removeStale(lockFile, abandoned);
    assert.equal(readFileSync(lockFile, 'utf8'), `${process.pid}\n${hostname()}\n`, 'the new lock stays');
    await removeStale(lockFile, (await readLock(lockFile))!);
    assert.equal(existsSync(lockFile), false, 'the lock that was read goes');
    assert.deepEqual(
      readdirSync(root).filter((f) => f.includes('.stale')),
      [],
    );
  });

  it('times out with a LOCKED error when a live process holds it', async () => {
    const lockFile = join(root, 'live.lock');
    writeFileSync(lockFile, `${process.pid}\n${hostname()}\n`);
    await rejectsWithCode(
      withLock(lockFile, async () => 'ran', { timeoutMs: 200 }),
      'LOCKED',
      /held by another mockdev process/,
    );
    rmSync(lockFile);
  });
});
