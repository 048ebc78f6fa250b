import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { MockdevError } from '../../core/errors.js';
import { chooseDataDir, usableDataDir } from './data-dir.js';

describe('data directory', () => {
  it('is chosen by MOCKDEV_DATA_DIR, else the platform default, naming the variable that chose it', () => {
    assert.deepEqual(chooseDataDir({ MOCKDEV_DATA_DIR: '/d', XDG_DATA_HOME: '/x' }, 'linux'), {
      dir: '/d',
      variable: { name: 'MOCKDEV_DATA_DIR', value: '/d' },
    });
    assert.deepEqual(chooseDataDir({ MOCKDEV_DATA_DIR: ' ', XDG_DATA_HOME: '/x' }, 'linux'), {
      dir: join('/x', 'mockdev'),
      variable: { name: 'XDG_DATA_HOME', value: '/x' },
    });
    assert.deepEqual(chooseDataDir({}, 'linux'), { dir: join(homedir(), '.local', 'share', 'mockdev') });
    assert.equal(chooseDataDir({ APPDATA: 'C:\\A' }, 'win32').variable?.name, 'APPDATA');
    assert.equal(chooseDataDir({ XDG_DATA_HOME: '/x' }, 'darwin').variable, undefined);
  });

  it('is created with its parents when missing, and the check leaves nothing behind', (t) => {
    const tmp = mkdtempSync(join(tmpdir(), 'mockdev-datadir-unit-'));
    t.after(() => rmSync(tmp, { recursive: true, force: true }));
    const dir = join(tmp, 'a', 'b', 'data');
    assert.equal(usableDataDir({ MOCKDEV_DATA_DIR: dir }), dir);
    assert.deepEqual(readdirSync(dir), []);
    assert.equal(usableDataDir({ MOCKDEV_DATA_DIR: dir }), dir, 'an existing folder is fine');
  });

  it('a file in the way is INVALID_ARGUMENT naming the variable and the file', (t) => {
    const tmp = mkdtempSync(join(tmpdir(), 'mockdev-datadir-unit-'));
    t.after(() => rmSync(tmp, { recursive: true, force: true }));
    const file = join(tmp, 'f');
    writeFileSync(file, '');
    const refused = (env: NodeJS.ProcessEnv, message: string) =>
      assert.throws(
        () => usableDataDir(env, 'linux'),
        (e: unknown) =>
          e instanceof MockdevError && e.code === 'INVALID_ARGUMENT' && e.fullMessage === message,
      );
    refused(
      { MOCKDEV_DATA_DIR: join(file, 'x') },
      `MOCKDEV_DATA_DIR=${join(file, 'x')} is not a usable data directory: ${file} is a file, not a folder. Point it at a folder mockdev can create and write, or unset it`,
    );
    refused(
      { XDG_DATA_HOME: file },
      `XDG_DATA_HOME=${file} gives no usable data directory (${join(file, 'mockdev')}): ${file} is a file, not a folder. Point XDG_DATA_HOME at a folder mockdev can create and write, or set MOCKDEV_DATA_DIR to one`,
    );
  });
});
