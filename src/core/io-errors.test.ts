import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MockdevError, ioFailure, toMockdevError } from './errors.js';
import { ioCause, isDiskError } from './io-errors.js';

/** An error as node:fs throws it. */
const errno = (code: string, syscall: string, path?: string) =>
  Object.assign(new Error(`${code}: failed, ${syscall}${path ? ` '${path}'` : ''}`), { code, syscall, path });

describe('disk errors in words', () => {
  it('an errno error nobody wrapped is IO_ERROR naming the file and the cause, never INTERNAL', () => {
    const cases: [string, RegExp, RegExp][] = [
      ['ENOSPC', /the disk is full/, /Free some disk space/],
      ['EDQUOT', /the disk quota is used up/, /quota/],
      ['EROFS', /the file system is read-only/, /MOCKDEV_DATA_DIR/],
      ['EACCES', /permission denied/, /permissions/],
      ['EIO', /the disk reported an input\/output error/, /./],
      ['EFBIG', /larger than this system allows/, /ulimit -f/],
    ];
    for (const [code, cause, hint] of cases) {
      const e = toMockdevError(errno(code, 'write', '/data/requests.db-wal'));
      assert.equal(e.code, 'IO_ERROR', code);
      assert.match(
        e.message,
        new RegExp(`^Could not write /data/requests\\.db-wal: .*${cause.source}`),
        code,
      );
      if (code !== 'EIO') assert.match(e.hintText() ?? '', hint, code);
      assert.deepEqual(e.details, { file: '/data/requests.db-wal', cause: code });
      assert.doesNotMatch(e.describe(), /bug in mockdev/);
    }
    assert.match(
      toMockdevError(errno('ENOENT', 'open', '/x/y')).message,
      /^Could not open \/x\/y: it does not exist/,
    );
    assert.match(
      toMockdevError(errno('EACCES', 'scandir', '/x')).message,
      /^Could not read \/x: permission denied/,
    );
  });

  it('SQLite codes (extended ones too) are disk errors; other errors stay what they are', () => {
    const sqlite = (code: string) => Object.assign(new Error('database or disk is full'), { code });
    assert.equal(ioCause(sqlite('SQLITE_FULL')), 'the disk is full');
    assert.match(ioCause(sqlite('SQLITE_IOERR_WRITE')), /refused a read or write/);
    assert.equal(isDiskError(sqlite('SQLITE_CONSTRAINT_UNIQUE')), false);
    assert.equal(toMockdevError(sqlite('SQLITE_FULL')).code, 'IO_ERROR');
    assert.equal(toMockdevError(new TypeError('x is undefined')).code, 'INTERNAL');
    assert.equal(toMockdevError(Object.assign(new Error('odd'), { code: 'ERR_SOMETHING' })).code, 'INTERNAL');
  });

  it('ioFailure names the file given and keeps an unknown cause as its text', () => {
    const e = ioFailure('Could not write the lock /d/.lock', errno('ENOSPC', 'write'), '/d/.lock');
    assert.ok(e instanceof MockdevError);
    assert.equal(e.message, 'Could not write the lock /d/.lock: the disk is full');
    assert.deepEqual(e.details, { file: '/d/.lock', cause: 'ENOSPC' });
    assert.equal(ioFailure('Could not write /f', new Error('odd')).message, 'Could not write /f: odd');
  });
});
