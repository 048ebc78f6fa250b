import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { preparePrivateFile, tightenDataDir } from './private.js';

let root: string;
beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'mockdev-private-'))));
afterEach(() => rmSync(root, { recursive: true, force: true }));
const modeOf = (path: string) => statSync(path).mode & 0o7777;

describe('a private data directory', () => {
  it('a shared folder (sticky bit, as /tmp) is never tightened; a private one has nothing to say', () => {
    chmodSync(root, 0o1777);
    writeFileSync(join(root, 'settings.json'), '{}');
    chmodSync(join(root, 'settings.json'), 0o644);
    assert.equal(tightenDataDir(root), undefined);
    assert.equal(modeOf(root), 0o1777);
    assert.equal(modeOf(join(root, 'settings.json')), 0o644);
    chmodSync(root, 0o700);
    assert.equal(tightenDataDir(root), undefined, 'already private: not walked, nothing said');
    assert.equal(tightenDataDir(join(root, 'missing')), undefined);
  });

  it('follows no link out of the data directory', () => {
    const outside = mkdtempSync(join(tmpdir(), 'mockdev-outside-'));
    try {
      writeFileSync(join(outside, 'x.json'), '{}');
      chmodSync(join(outside, 'x.json'), 0o644);
      chmodSync(outside, 0o755);
      symlinkSync(outside, join(root, 'projects'));
      chmodSync(root, 0o755);
      assert.match(tightenDataDir(root) ?? '', /private \(0700\)/);
      assert.equal(modeOf(join(outside, 'x.json')), 0o644);
      assert.equal(modeOf(outside), 0o755);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('a database file is created private, and an existing one with its -wal and -shm made so', () => {
    const db = join(root, 'requests.db');
    preparePrivateFile(db);
    assert.equal(modeOf(db), 0o600);
    for (const f of [db, `${db}-wal`, `${db}-shm`]) {
      writeFileSync(f, '');
      chmodSync(f, 0o644);
    }
    preparePrivateFile(db);
    for (const f of [db, `${db}-wal`, `${db}-shm`]) assert.equal(modeOf(f), 0o600, f);
  });
});
