import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, readdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MockdevError } from '../core/errors.js';
import { ProjectStore, readEndpointsSync } from './project-store.js';
import { withLock } from './lock.js';

let dataDir: string;
let store: ProjectStore;
const now = '2026-01-01T00:00:00.000Z';
const projectFile = (id: string, name = 'p') => ({
  schemaVersion: 1 as const,
  id,
  name,
  description: '',
  port: 3001,
  createdAt: now,
  updatedAt: now,
});

before(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'mockdev-store-'));
  store = new ProjectStore(dataDir);
});
after(() => rmSync(dataDir, { recursive: true, force: true }));

const rejectsWith = async (p: Promise<unknown>, code: string, re?: RegExp) => {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof MockdevError, `expected MockdevError, got ${String(e)}`);
    assert.equal(e.code, code);
    if (re) assert.match(e.fullMessage, re);
    return true;
  });
};

describe('ProjectStore', () => {
  it('creates, reads back and lists a project with pretty, stable JSON', async () => {
    const dir = store.dirFor('abc');
    await store.create({ dir, project: projectFile('abc', 'Alpha'), endpoints: [] });
    const text = readFileSync(join(dir, 'project.json'), 'utf8');
    assert.equal(text, `${JSON.stringify(projectFile('abc', 'Alpha'), null, 2)}\n`);
    assert.equal(readFileSync(join(dir, 'endpoints.json'), 'utf8'), '[]\n');
    const state = await store.read(dir);
    assert.equal(state.project.name, 'Alpha');
    const { states } = await store.list();
    assert.deepEqual(
      states.map((s) => s.project.id),
      ['abc'],
    );
  });

  it('refuses to create over an existing project unless told to overwrite', async () => {
    const dir = store.dirFor('abc');
    await rejectsWith(
      store.create({ dir, project: projectFile('abc'), endpoints: [] }),
      'CONFLICT',
      /already exists/,
    );
    await store.create({ dir, project: projectFile('abc', 'Alpha'), endpoints: [] }, { overwrite: true });
  });

  it('reports a corrupt project.json by name and never overwrites it', async () => {
    const dir = join(dataDir, 'broken');
    await store.create({ dir, project: projectFile('broken'), endpoints: [] });
    writeFileSync(join(dir, 'project.json'), '{ "id": "broken", ');
    await rejectsWith(store.read(dir), 'CORRUPT_FILE', /project\.json is not valid JSON/);
    await rejectsWith(
      store.update(dir, (s) => ({ state: { ...s }, result: 1 })),
      'CORRUPT_FILE',
    );
    assert.equal(readFileSync(join(dir, 'project.json'), 'utf8'), '{ "id": "broken", ');
  });

  it('reports an endpoints.json of the wrong shape with the field path', async () => {
    const dir = join(dataDir, 'badshape');
    await store.create({ dir, project: projectFile('badshape'), endpoints: [] });
    writeFileSync(
      join(dir, 'endpoints.json'),
      JSON.stringify([{ id: 'e1', name: 'x', method: 'GET', path: '/x', status: 999 }]),
    );
    await rejectsWith(store.read(dir), 'CORRUPT_FILE', /endpoints\.json has an invalid value at 0\.status/);
    assert.throws(() => readEndpointsSync(dir), /0\.status/);
  });

  it('migrates a project.json without schemaVersion and refuses one from a newer mockdev', async () => {
    const dir = join(dataDir, 'old');
    await store.create({ dir, project: projectFile('old'), endpoints: [] });
    const { schemaVersion: _drop, ...legacy } = projectFile('old');
    writeFileSync(join(dir, 'project.json'), JSON.stringify(legacy));
    assert.equal((await store.read(dir)).project.schemaVersion, 1);
    writeFileSync(join(dir, 'project.json'), JSON.stringify({ ...projectFile('old'), schemaVersion: 7 }));
    await rejectsWith(store.read(dir), 'UNSUPPORTED_VERSION', /schemaVersion 7.*Upgrade mockdev/);
  });

  it('serialises concurrent read-modify-write updates so no change is lost', async () => {
    const dir = store.dirFor('conc');
    await store.create({ dir, project: projectFile('conc'), endpoints: [] });
    await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        store.update(dir, (s) => ({
          state: {
            ...s,
            endpoints: [
              ...s.endpoints,
              {
                id: `e${i}`,
                name: `n${i}`,
                method: 'GET' as const,
                path: `/p${i}`,
                status: 200,
                headers: {},
                body: '',
                contentType: 'application/json',
                delay: 0,
                enabled: true,
                kind: 'mock' as const,
                variations: [],
              },
            ],
          },
          result: undefined,
        })),
      ),
    );
    const { endpoints } = await store.read(dir);
    assert.equal(endpoints.length, 25);
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.endsWith('.tmp') || f.endsWith('.lock')),
      [],
    );
  });

  it('removes a data-dir project folder, but only mockdev files of a folder elsewhere', async () => {
    const inside = store.dirFor('gone');
    await store.create({ dir: inside, project: projectFile('gone'), endpoints: [] });
    await store.remove(inside);
    assert.equal(existsSync(inside), false);
    const outside = mkdtempSync(join(tmpdir(), 'mockdev-outside-'));
    writeFileSync(join(outside, 'README.md'), 'mine');
    await store.create({ dir: outside, project: projectFile('out'), endpoints: [] });
    await store.remove(outside);
    assert.deepEqual(readdirSync(outside), ['README.md']);
    rmSync(outside, { recursive: true, force: true });
  });
});

describe('withLock', () => {
  it('takes over a lock left by a dead process', async () => {
    const lockFile = join(dataDir, 'dead.lock');
    writeFileSync(lockFile, `999999999\n${(await import('node:os')).hostname()}\n`);
    assert.equal(await withLock(lockFile, async () => 'ran', { timeoutMs: 2000 }), 'ran');
  });

  it('times out with a LOCKED error when a live process holds it', async () => {
    const lockFile = join(dataDir, 'live.lock');
    writeFileSync(lockFile, `${process.pid}\n${(await import('node:os')).hostname()}\n`);
    await rejectsWith(
      withLock(lockFile, async () => 'ran', { timeoutMs: 200 }),
      'LOCKED',
      /held by another mockdev process/,
    );
    rmSync(lockFile);
  });
});
