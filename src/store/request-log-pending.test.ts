import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { after, describe, it } from 'node:test';
import { parseRequestFilters } from '../core/model/request.js';
import {
  BadBatchError,
  decodeFrame,
  decodeLegacy,
  FRAME_MAGIC,
  PendingBatch,
  scanFrames,
} from './request-log-pending.js';
import { storedRow, type NewRequestRecord, type SharedResponse, type StoredRow } from './request-log-rows.js';
import { RequestLogWriter } from './request-log-writer.js';
import { record } from '../../test/helpers/records.js';
import { RequestLog } from './request-log.js';

const dir = mkdtempSync(join(tmpdir(), 'mockdev-pending-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const allBytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const sharedA: SharedResponse = { headersJson: '{"A":"1"}', body: Buffer.from('a') };
const sharedB: SharedResponse = { headersJson: '{"B":"✓"}', body: null };

const rec = (n: number, extra: Partial<NewRequestRecord> = {}) =>
  record('p', n, { durationMs: 0.125 + n, ...extra });

/** Every kind of field the wire can bring, one record each. */
const variety = (): NewRequestRecord[] => [
  rec(0),
  rec(1, { endpointId: null, status: 404, resBody: 'not found ✓', resHeadersJson: '{"X":"ü✓"}' }),
  rec(2, { endpointId: 'ид-é', shared: sharedA }),
  rec(3, {
    method: 'POST',
    url: `/caf\u00e9/${'long-segment/'.repeat(5)}?q=\u00ff&r=1`,
    rawHeaders: [
      'X-Latin',
      'caf\u00e9 \u00ff',
      'User-Agent',
      'Mozilla/5.0 (X11; Linux x86_64) Long',
      'Empty',
      '',
    ],
    body: allBytes,
    truncated: true,
    shared: sharedB,
  }),
  rec(4, { rawHeaders: [], method: 'HEAD', resBody: null }),
  rec(5, { shared: sharedA, status: 599, durationMs: 1234.5678 }),
];

/** What decoding must give: the direct row form, response bodies as bytes. */
const expected = (records: NewRequestRecord[], resId: (s: SharedResponse) => number): StoredRow[] =>
  records.map((r) => {
    const row = storedRow(r, r.shared ? resId(r.shared) : null);
    if (typeof row[12] === 'string') row[12] = Buffer.from(row[12], 'utf8');
    return row;
  });

/** Response ids as an expansion would store them: one per distinct response. */
const resolver = () => {
  const calls: string[] = [];
  const ids = new Map([
    ['{"A":"1"}', 7],
    ['{"B":"✓"}', 2 ** 40],
  ]);
  const responseId = (headersJson: string, body: Buffer | null) => {
    calls.push(`${headersJson} ${body === null ? 'null' : body.toString()}`);
    return ids.get(headersJson)!;
  };
  const idOf = (s: SharedResponse) => ids.get(s.headersJson)!;
  return { calls, responseId, idOf };
};

/** The rows of every frame in `data`. */
const paths = (log: RequestLog) => log.list('p', parseRequestFilters({ limit: 100 })).map((r) => r.path);

const decodeAll = (data: Buffer, responseId: (h: string, b: Buffer | null) => number) =>
  scanFrames(data, 0).frames.flatMap((f) => decodeFrame('p', data, f, responseId));

describe('pending batch format', () => {
  it('decodes to exactly the rows of the records written, every field kind included', () => {
    const batch = new PendingBatch();
    const records = variety();
    for (const r of records) batch.add(r);
    assert.equal(batch.count, records.length);
    const data = Buffer.from(batch.frame(77));
    const { frames, end, damaged } = scanFrames(data, 0);
    assert.deepEqual(frames, [{ start: 0, end: data.length, count: records.length, keep: 77 }]);
    assert.equal(end, data.length);
    assert.equal(damaged, false);
    const { calls, responseId, idOf } = resolver();
    assert.deepEqual(decodeFrame('p', data, frames[0]!, responseId), expected(records, idOf));
    assert.deepEqual(calls, ['{"A":"1"} a', '{"B":"✓"} null'], 'each shared response written once');
  });

  it('grows for large bodies and starts small again after a reset', () => {
    const batch = new PendingBatch(1024);
    const big = Buffer.alloc(2 * 1024 * 1024, 7);
    const records = [rec(0), rec(1, { body: big, method: 'PUT' }), rec(2)];
    for (const r of records) batch.add(r);
    const { responseId, idOf } = resolver();
    assert.deepEqual(decodeAll(Buffer.from(batch.frame(10)), responseId), expected(records, idOf));
    batch.reset();
    assert.equal(batch.count, 0);
    batch.add(rec(9));
    assert.ok(batch.bytes < 1024);
    assert.deepEqual(decodeAll(Buffer.from(batch.frame(10)), responseId), expected([rec(9)], idOf));
  });

  it('writes responses inline once a batch has 65,535 distinct ones', () => {
    const batch = new PendingBatch();
    const many = Array.from({ length: 0xffff + 2 }, (_, i) => ({ headersJson: `{"N":"${i}"}`, body: null }));
    const records = many.map((shared, i) =>
      rec(i, { shared, resHeadersJson: shared.headersJson, resBody: null, rawHeaders: [] }),
    );
    for (const r of records) batch.add(r);
    const ids = new Map(many.map((s, i) => [s.headersJson, i + 1]));
    const rows = decodeAll(Buffer.from(batch.frame(10)), (h) => ids.get(h)!);
    assert.equal(rows.length, records.length);
    assert.deepEqual(rows.at(-3)!.slice(10, 12), [0xffff, null], 'the last slot');
    assert.deepEqual(rows.at(-1)!.slice(10, 12), [null, '{"N":"65536"}'], 'inline after that');
  });

  it('takes the slots off when a write failed, so later records join the same frame', () => {
    const batch = new PendingBatch();
    batch.add(rec(0, { shared: sharedA }));
    batch.frame(10); // the write failed
    batch.add(rec(1, { shared: sharedB }));
    batch.add(rec(2, { shared: sharedA }));
    const records = [rec(0, { shared: sharedA }), rec(1, { shared: sharedB }), rec(2, { shared: sharedA })];
    const { responseId, idOf } = resolver();
    const data = Buffer.from(batch.frame(10));
    assert.equal(scanFrames(data, 0).frames.length, 1);
    assert.deepEqual(decodeAll(data, responseId), expected(records, idOf));
  });

  it('finds whole frames only: a frame still being written is left for later', () => {
    const batch = new PendingBatch();
    batch.add(rec(0));
    const first = Buffer.from(batch.frame(5));
    batch.reset();
    batch.add(rec(1));
    batch.add(rec(2));
    const second = Buffer.from(batch.frame(5));
    const file = Buffer.concat([first, second.subarray(0, second.length - 3)]);
    const scan = scanFrames(file, 0);
    assert.deepEqual(
      scan.frames.map((f) => f.count),
      [1],
    );
    assert.equal(scan.end, first.length);
    assert.equal(scan.damaged, false);
    const whole = Buffer.concat([first, second]);
    assert.deepEqual(
      scanFrames(whole, first.length).frames.map((f) => [f.start, f.count]),
      [[first.length, 2]],
    );
  });

  it('still decodes the JSON batches of earlier versions', () => {
    const legacy = JSON.stringify([
      ['e1', 5, 'POST', '/a?b=1', ['Host', 'x'], 'caf\u00c3\u00a9', 201, 0.5, 1, null, '{"X":"1"}', 'ok'],
      [null, 6, 'GET', '/b', [], null, 200, 1, 0, 3, null, null],
    ]);
    assert.deepEqual(decodeLegacy('p', legacy), [
      [
        'p',
        'e1',
        5,
        'POST',
        '/a?b=1',
        'Host\nx',
        Buffer.from('café'),
        201,
        0.5,
        1,
        null,
        '{"X":"1"}',
        Buffer.from('ok'),
      ],
      ['p', null, 6, 'GET', '/b', '', null, 200, 1, 0, 3, null, null],
    ]);
  });

  it('refuses damaged data with BadBatchError', () => {
    const batch = new PendingBatch();
    for (const r of variety()) batch.add(r);
    const good = Buffer.from(batch.frame(5));
    const { responseId } = resolver();
    const wrongMagic = Buffer.from(good);
    wrongMagic.writeUInt32LE(FRAME_MAGIC + 1, 0);
    assert.equal(scanFrames(wrongMagic, 0).damaged, true);
    // A frame whose records were damaged inside (lengths pointing past the end).
    const garbled = Buffer.from(good);
    garbled.fill(0xee, 40, 80);
    assert.throws(() => decodeAll(garbled, responseId), BadBatchError);
    const wrongFormat = Buffer.from(good);
    wrongFormat[16] = 99;
    assert.throws(() => decodeAll(wrongFormat, responseId), BadBatchError);
    for (const bad of ['{"not":"an array"}', '[[1]]', 'not json', Buffer.from('[]')]) {
      assert.throws(() => decodeLegacy('p', bad), BadBatchError);
    }
  });

  it('a reader drops a damaged legacy row and expands the others', () => {
    const file = join(dir, 'damaged.db');
    const log = new RequestLog(file);
    const raw = new Database(file);
    try {
      const add = raw.prepare('INSERT INTO pending (project_id, n, keep, data) VALUES (?, ?, ?, ?)');
      add.run('p', 1, 100, JSON.stringify([[null, 1, 'GET', '/r/0', [], null, 200, 1, 0, null, '{}', null]]));
      add.run('p', 3, 100, 'not json');
      add.run('p', 1, 100, JSON.stringify([[null, 2, 'GET', '/r/1', [], null, 200, 1, 0, null, '{}', null]]));
      assert.equal(log.pendingCount(), 5);
      assert.deepEqual(
        log.list('p', parseRequestFilters({ limit: 10 })).map((r) => r.path),
        ['/r/1', '/r/0'],
      );
      assert.equal(log.damagedBatches, 1);
      assert.equal(log.pendingCount(), 0);
    } finally {
      raw.close();
      log.close();
    }
  });

  it('a writer keeps its batch when a spool write fails and writes it all afterwards', () => {
    const log = new RequestLog(join(dir, 'failing.db'));
    const warnings: string[] = [];
    try {
      const w = new RequestLogWriter(log, {
        projectId: 'p',
        limit: 100,
        idleExpandMs: 60_000,
        onWarning: (m) => warnings.push(m),
      });
      w.push(rec(0, { shared: sharedA }));
      assert.equal(w.flushNow(), true);
      // The spool file's descriptor goes bad under the writer (as on an I/O error).
      const spool = (w as unknown as { spool: { fd: number } }).spool;
      closeSync(spool.fd);
      w.push(rec(1, { shared: sharedA }));
      assert.equal(w.flushNow(), false);
      assert.equal(w.pending, 1, 'the failed batch is kept');
      assert.equal(warnings.length, 1);
      assert.match(warnings[0]!, /^Could not write the request log \(.+\); records are kept in memory/);
      w.push(rec(2, { shared: sharedB }));
      assert.equal(w.flushNow(), true, 'the next write starts a new spool file');
      w.close();
      assert.deepEqual(
        log.list('p', parseRequestFilters({ limit: 10 })).map((r) => [r.path, r.response.headers]),
        [
          ['/r/2', { B: '✓' }],
          ['/r/1', { A: '1' }],
          ['/r/0', { A: '1' }],
        ],
      );
      assert.equal(warnings.length, 1, 'one warning for a run of failures');
    } finally {
      log.close();
    }
  });

  /** A log whose spool folder's name is taken by a file (every write fails), and its writer. */
  const blocked = (name: string, maxHeldBytes?: number) => {
    const log = new RequestLog(join(dir, `${name}.db`));
    const spool = join(dir, `${name}-spool`);
    writeFileSync(spool, 'in the way');
    const warnings: string[] = [];
    const w = new RequestLogWriter(log, {
      projectId: 'p',
      limit: 100,
      idleExpandMs: 60_000,
      maxHeldBytes,
      onWarning: (m) => warnings.push(m),
    });
    return { log, w, warnings, unblock: () => rmSync(spool) };
  };

  it('drops records, and says so, when more than the cap waits; recovers when writes work again', () => {
    const { log, w, warnings, unblock } = blocked('blocked', 1000);
    try {
      for (let i = 0; i < 3; i++) w.push(rec(i));
      assert.equal(w.flushNow(), false);
      assert.equal(w.pending, 3, 'under the cap: kept');
      for (let i = 3; i < 20; i++) w.push(rec(i));
      assert.equal(w.flushNow(), false);
      assert.equal(w.pending, 0);
      assert.equal(w.dropped, 20);
      assert.deepEqual(warnings.slice(1), [
        'Dropped 20 request log records: more than 1000 bytes were waiting to be written',
      ]);
      unblock();
      w.push(rec(20));
      w.close();
      assert.deepEqual(paths(log), ['/r/20']);
    } finally {
      log.close();
    }
  });

  it('says how many records a stop could not write', () => {
    const { log, w, warnings } = blocked('stopped');
    try {
      w.push(rec(0));
      w.push(rec(1));
      w.close();
      assert.equal(w.dropped, 2);
      assert.equal(
        warnings.at(-1),
        'Dropped 2 request log records: they could not be written before the stop',
      );
    } finally {
      log.close();
    }
  });
});
