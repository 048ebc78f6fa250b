/**
 * The local request log's own mechanics (the RequestLogStore contract, test/contract/, covers
 * what every implementation does): the spool as readers expand it, retention, the idle
 * expansion of a server's writer, stored responses, schema versions, failing writes.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { after, describe, it } from 'node:test';
import { parseRequestFilters, parseStatusFilter } from '../../core/model/request.js';
import type { NewRequestRecord } from '../../core/ports.js';
import { loggedResponse, record } from '../../../test/helpers/records.js';
import { waitUntil } from '../../../test/helpers/wait.js';
import { RequestDatabase } from './database.js';
import { RecordBatch } from './frame.js';
import { spoolDirOf } from './local-request-log.js';
import { headersObject, parseQuery } from './rows.js';
import { SpoolWriter } from './spool.js';
import { SpoolLogWriter, type SpoolLogWriterOptions } from './writer.js';

const dir = mkdtempSync(join(tmpdir(), 'mockdev-log-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
/** A fresh database file with its spool folder. */
const fresh = () => {
  const file = join(dir, `${++n}.db`);
  const spool = spoolDirOf(file);
  const db = new RequestDatabase(file, spool);
  return { file, spool, db };
};
const paths = (db: RequestDatabase, projectId = 'p') => {
  db.expand();
  return db.list(projectId, parseRequestFilters({ limit: 1000 })).map((r) => r.path);
};
/** Rows as stored, without expanding anything first. */
const storedCount = (file: string, projectId = 'p'): number => {
  const raw = new Database(file, { readonly: true });
  try {
    return raw.prepare('SELECT COUNT(*) FROM requests WHERE project_id = ?').pluck().get(projectId) as number;
  } finally {
    raw.close();
  }
};
const writeBatch = (writer: SpoolWriter, records: NewRequestRecord[], keep = 1000) => {
  const batch = new RecordBatch();
  for (const r of records) batch.add(r);
  writer.write(batch, keep);
};
const extensions = (spool: string) => readdirSync(spool).map((f) => f.slice(f.lastIndexOf('.')));

/** A spool file as a writer that is gone would leave it: header, whole frames, a cut tail. */
function spoolFileOf(pid: number, projectId: string, frames: Buffer[]): Buffer {
  const json = Buffer.from(JSON.stringify({ projectId, pid }));
  const len = Buffer.alloc(4);
  len.writeUInt32LE(json.length);
  return Buffer.concat([Buffer.from('MDSPOOL1'), len, json, ...frames]);
}
const frameOf = (records: NewRequestRecord[], keep = 100): Buffer => {
  const batch = new RecordBatch();
  for (const r of records) batch.add(r);
  return Buffer.from(batch.frame(keep));
};
const deadPid = (): number => spawnSync(process.execPath, ['-e', '0']).pid!;

describe('request spool and database', () => {
  it('readers expand a running writer’s file as it grows, never twice; a finished file goes once read', () => {
    const { spool, db, file } = fresh();
    const other = new RequestDatabase(file, spool);
    try {
      const writer = new SpoolWriter(spool, 'p', { rotateAfter: 1e9 });
      writeBatch(writer, [record(0), record(1), record(2)]);
      assert.deepEqual(extensions(spool), ['.open']);
      assert.deepEqual(paths(other), ['/r/2', '/r/1', '/r/0']);
      writeBatch(writer, [record(3), record(4)]);
      assert.equal(db.expand().inserted, 2, 'only the new frame');
      assert.equal(other.expand().inserted, 0, 'nothing twice');
      assert.deepEqual(extensions(spool), ['.open'], 'the running writer’s file stays');
      writeBatch(writer, [record(5)]);
      writer.close();
      assert.deepEqual(paths(other), ['/r/5', '/r/4', '/r/3', '/r/2', '/r/1', '/r/0']);
      assert.deepEqual(readdirSync(spool), [], 'a finished file is deleted once read');
    } finally {
      db.close();
      other.close();
    }
  });

  it('a writer starts a new file after so many bytes or records, and drops its files retention would', () => {
    const { spool, db } = fresh();
    try {
      const bytes = new SpoolWriter(spool, 'p', { rotateAfter: 1e9, rotateAfterBytes: 1 });
      for (let i = 0; i < 3; i++) writeBatch(bytes, [record(i)]);
      assert.deepEqual(extensions(spool), ['.spool', '.spool', '.spool']);
      assert.deepEqual(paths(db), ['/r/2', '/r/1', '/r/0']);
      assert.deepEqual(readdirSync(spool), []);
      // Under load nobody reads: files wholly older than the newest `keep` records are deleted unread.
      const busy = new SpoolWriter(spool, 'q', { rotateAfter: 3 });
      for (let b = 0; b < 4; b++)
        writeBatch(
          busy,
          [0, 1, 2].map((i) => record(b * 3 + i)),
          4,
        );
      assert.equal(readdirSync(spool).length, 2, 'two files hold the newest 4 records');
      busy.close();
      db.expand({ project: { id: 'q', limit: 4 } });
      assert.deepEqual(paths(db, 'q'), ['/r/11', '/r/10', '/r/9', '/r/8']);
    } finally {
      db.close();
    }
  });

  it('reads the whole frames of a writer that died, drops its cut-off tail and deletes the file', () => {
    const { spool, db } = fresh();
    try {
      mkdirSync(spool, { recursive: true });
      const cut = frameOf([record(9)]);
      writeFileSync(
        join(spool, '000000001-1-000001.open'),
        spoolFileOf(deadPid(), 'p', [frameOf([record(0), record(1)]), cut.subarray(0, cut.length - 5)]),
      );
      assert.deepEqual(paths(db), ['/r/1', '/r/0']);
      assert.deepEqual(readdirSync(spool), []);
    } finally {
      db.close();
    }
  });

  it('a damaged spool file does not block the log; a foreign file is left alone', () => {
    const { spool, db } = fresh();
    try {
      mkdirSync(spool, { recursive: true });
      writeFileSync(
        join(spool, '000000001-1-000001.spool'),
        spoolFileOf(process.pid, 'p', [frameOf([record(0)]), Buffer.alloc(40, 0xab)]),
      );
      writeFileSync(join(spool, '000000001-1-000002.spool'), 'not a spool file');
      const result = db.expand();
      assert.deepEqual(result, { inserted: 1, damaged: 1, more: false });
      assert.deepEqual(paths(db), ['/r/0']);
      assert.deepEqual(readdirSync(spool), ['000000001-1-000002.spool']);
    } finally {
      db.close();
    }
  });

  it('applies retention when expanding, in steps when asked to keep pauses short', () => {
    const { spool, db, file } = fresh();
    try {
      const writer = new SpoolWriter(spool, 'p', { rotateAfter: 1e9 });
      writeBatch(writer, [record(0), record(1)]);
      db.expand();
      const oldest = db.list('p', parseRequestFilters({ limit: 100 })).at(-1)!;
      db.setStarred(oldest.id, true);
      writeBatch(
        writer,
        Array.from({ length: 10 }, (_, i) => record(10 + i)),
        4,
      );
      assert.deepEqual(db.expand({ maxPrune: 3 }), { inserted: 10, damaged: 0, more: true });
      assert.equal(storedCount(file), 9);
      while (db.expand({ project: { id: 'p', limit: 4 }, maxPrune: 3 }).more) {
        /* prune on */
      }
      assert.deepEqual(paths(db), ['/r/19', '/r/18', '/r/17', '/r/0']);
      writer.close();
    } finally {
      db.close();
    }
  });

  it('stores each distinct shared response once, and collects the ones no record refers to', () => {
    const { spool, db, file } = fresh();
    try {
      const shared = loggedResponse({ X: '1' }, '{"shared":"é"}');
      const writer = new SpoolWriter(spool, 'p', { rotateAfter: 1e9 });
      writeBatch(writer, [record(0, { response: shared }), record(1, { response: shared })]);
      db.expand();
      writeBatch(writer, [record(2, { response: shared })]);
      db.expand();
      const raw = new Database(file, { readonly: true });
      assert.equal(raw.prepare('SELECT COUNT(*) FROM responses').pluck().get(), 1);
      db.clear('p');
      assert.equal(db.collectGarbage(), 1);
      assert.equal(raw.prepare('SELECT COUNT(*) FROM responses').pluck().get(), 0);
      raw.close();
      writeBatch(writer, [record(3, { response: shared })]);
      db.expand();
      assert.deepEqual(db.list('p', parseRequestFilters({ limit: 1 }))[0]!.response, {
        status: 200,
        headers: { X: '1' },
        body: '{"shared":"é"}',
      });
      writer.close();
    } finally {
      db.close();
    }
  });
});

describe('a server’s request log writer', () => {
  const writerOn = (extra: Partial<SpoolLogWriterOptions> = {}) => {
    const { file, spool, db } = fresh();
    const warnings: string[] = [];
    const writer = new SpoolLogWriter({
      projectId: 'p',
      limit: 100,
      spoolDir: spool,
      idleExpandMs: 60_000,
      onWarning: (m) => warnings.push(m),
      expander: {
        expand: (project, maxPrune) => db.expand({ project, maxPrune }),
        collectGarbage: () => db.collectGarbage(),
      },
      ...extra,
    });
    return { file, spool, db, writer, warnings };
  };

  it('expands when idle, and prunes its project once shortly after it starts, without any request', async () => {
    const { file, spool, db, writer } = writerOn({ idleExpandMs: 20, flushIntervalMs: 1 });
    try {
      writer.push(record(0));
      await waitUntil(() => storedCount(file) === 1, 'the idle expansion');
      await writer.close();
      // A log over its limit (the limit was lowered): the next server prunes it when idle.
      const seed = new SpoolWriter(spool, 'p', { rotateAfter: 1e9 });
      writeBatch(
        seed,
        Array.from({ length: 30 }, (_, i) => record(i + 1)),
      );
      seed.close();
      db.expand();
      assert.equal(storedCount(file), 31);
      const next = new SpoolLogWriter({
        projectId: 'p',
        limit: 5,
        spoolDir: spool,
        idleExpandMs: 20,
        maxPrunePerExpand: 7,
        expander: {
          expand: (project, maxPrune) => db.expand({ project, maxPrune }),
          collectGarbage: () => 0,
        },
      });
      await waitUntil(() => storedCount(file) === 5, 'the start-up housekeeping, in steps of 7');
      await next.close();
    } finally {
      db.close();
    }
  });

  it('keeps its batch when spool writes fail, warns once, and writes it all when they work again', async () => {
    const { spool, db, writer, warnings } = writerOn({ flushIntervalMs: 1 });
    try {
      writeFileSync(spool, 'in the way'); // the spool folder's name is taken: every write fails
      writer.push(record(0, { response: loggedResponse({ A: '1' }) }));
      writer.push(record(1));
      await waitUntil(() => warnings.length > 0, 'the failed write');
      assert.match(
        warnings[0]!,
        /^Could not write the request log spool in .+-spool \(.+\); records are kept in memory/,
      );
      writer.push(record(2));
      rmSync(spool);
      await waitUntil(() => existsSync(spool) && readdirSync(spool).length > 0, 'the retried write');
      await writer.close();
      assert.deepEqual(paths(db), ['/r/2', '/r/1', '/r/0']);
      assert.equal(warnings.length, 1, 'one warning for a run of failures');
      assert.equal(writer.lost, 0);
    } finally {
      db.close();
    }
  });

  it('loses records, and says how many, beyond the memory cap and at a stop it cannot write', async () => {
    const { spool, db, writer, warnings } = writerOn({ flushIntervalMs: 1, maxHeldBytes: 1000 });
    try {
      writeFileSync(spool, 'in the way');
      for (let i = 0; i < 20; i++) writer.push(record(i));
      await waitUntil(() => writer.lost === 20, 'the cap to be exceeded');
      assert.ok(
        warnings.includes('Lost 20 request log records: more than 1000 bytes were waiting to be written'),
      );
      writer.push(record(20));
      writer.push(record(21));
      await writer.close();
      assert.equal(writer.lost, 22);
      assert.equal(warnings.at(-1), 'Lost 2 request log records: they could not be written before the stop');
    } finally {
      rmSync(spool, { force: true });
      db.close();
    }
  });
});

describe('request log rows', () => {
  it('parses status filters and rejects bad ones', () => {
    assert.deepEqual(parseStatusFilter('404'), [{ min: 404, max: 404 }]);
    assert.deepEqual(parseStatusFilter('5XX'), [{ min: 500, max: 599 }]);
    assert.deepEqual(parseStatusFilter('200, 2xx'), [
      { min: 200, max: 200 },
      { min: 200, max: 299 },
    ]);
    for (const bad of ['', '99', '600', '4x', 'x', '200,,201'])
      assert.throws(() => parseStatusFilter(bad), /Invalid status filter/);
    assert.throws(() => parseRequestFilters({ method: 'FETCH' }), /Invalid method/);
    assert.throws(() => parseRequestFilters({ limit: 0 }), /Invalid limit/);
  });

  it('turns raw headers and queries into objects', () => {
    assert.deepEqual(parseQuery('a=1&b=2&a=3&c'), { a: ['1', '3'], b: '2', c: '' });
    assert.deepEqual(headersObject(['X', '1', 'x', '2']), { X: '1', x: '2' });
  });
});
