import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { after, describe, it } from 'node:test';
import { parseRequestFilters } from '../core/model/request.js';
import { BadBatchError, decodeBatch, PendingBatch } from './request-log-pending.js';
import { storedRow, type NewRequestRecord, type SharedResponse, type StoredRow } from './request-log-rows.js';
import { RequestLogWriter } from './request-log-writer.js';
import { RequestLog } from './request-log.js';

const dir = mkdtempSync(join(tmpdir(), 'mockdev-pending-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const allBytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const sharedA: SharedResponse = { headersJson: '{"A":"1"}', body: Buffer.from('a') };
const sharedB: SharedResponse = { headersJson: '{"B":"✓"}', body: null };

const rec = (n: number, extra: Partial<NewRequestRecord> = {}): NewRequestRecord => ({
  projectId: 'p',
  endpointId: 'e1',
  ts: 1_700_000_000_000 + n,
  method: 'GET',
  url: `/r/${n}`,
  rawHeaders: ['Host', 'x'],
  body: null,
  status: 200,
  durationMs: 0.125 + n,
  truncated: false,
  resHeadersJson: '{"Content-Type":"application/json"}',
  resBody: Buffer.from('{}'),
  ...extra,
});

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

const ids = new Map<SharedResponse, number>([
  [sharedA, 7],
  [sharedB, 2 ** 40],
]);
const idOf = (s: SharedResponse) => ids.get(s)!;

describe('pending batch format', () => {
  it('decodes to exactly the rows of the records written, every field kind included', () => {
    const batch = new PendingBatch();
    const records = variety();
    for (const r of records) batch.add(r);
    assert.equal(batch.count, records.length);
    assert.deepEqual(decodeBatch('p', batch.seal(idOf)), expected(records, idOf));
  });

  it('grows for large bodies and starts small again after a reset', () => {
    const batch = new PendingBatch(1024);
    const big = Buffer.alloc(2 * 1024 * 1024, 7);
    const records = [rec(0), rec(1, { body: big, method: 'PUT' }), rec(2)];
    for (const r of records) batch.add(r);
    assert.deepEqual(decodeBatch('p', Buffer.from(batch.seal(idOf))), expected(records, idOf));
    batch.reset();
    assert.equal(batch.count, 0);
    batch.add(rec(9));
    assert.ok(batch.bytes < 1024);
    assert.deepEqual(decodeBatch('p', batch.seal(idOf)), expected([rec(9)], idOf));
  });

  it('takes the trailer off when a write failed, so later records join the same batch', () => {
    const batch = new PendingBatch();
    batch.add(rec(0, { shared: sharedA }));
    batch.seal(() => 1); // the write failed: ids may differ on the next attempt
    batch.add(rec(1, { shared: sharedB }));
    batch.add(rec(2, { shared: sharedA }));
    const records = [rec(0, { shared: sharedA }), rec(1, { shared: sharedB }), rec(2, { shared: sharedA })];
    assert.deepEqual(decodeBatch('p', batch.seal(idOf)), expected(records, idOf));
  });

  it('still decodes the JSON batches of earlier versions', () => {
    const legacy = JSON.stringify([
      ['e1', 5, 'POST', '/a?b=1', ['Host', 'x'], 'caf\u00c3\u00a9', 201, 0.5, 1, null, '{"X":"1"}', 'ok'],
      [null, 6, 'GET', '/b', [], null, 200, 1, 0, 3, null, null],
    ]);
    assert.deepEqual(decodeBatch('p', legacy), [
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

  it('refuses damaged batches with BadBatchError', () => {
    const batch = new PendingBatch();
    for (const r of variety()) batch.add(r);
    const good = Buffer.from(batch.seal(idOf));
    const cut = Buffer.concat([good.subarray(0, 40), good.subarray(good.length - 4)]);
    const wrongFormat = Buffer.from(good);
    wrongFormat[0] = 99;
    for (const bad of [cut, wrongFormat, Buffer.alloc(2), '{"not":"an array"}', '[[1]]', 'not json']) {
      assert.throws(() => decodeBatch('p', bad), BadBatchError);
    }
  });

  it('a reader drops a damaged batch and expands the others', () => {
    const file = join(dir, 'damaged.db');
    const log = new RequestLog(file);
    const raw = new Database(file);
    try {
      log.append('p', 100, [rec(0)]);
      raw
        .prepare('INSERT INTO pending (project_id, n, keep, data) VALUES (?, ?, ?, ?)')
        .run('p', 3, 100, Buffer.from([1, 2, 3]));
      log.append('p', 100, [rec(1), rec(2)]);
      assert.deepEqual(
        log.list('p', parseRequestFilters({ limit: 10 })).map((r) => r.path),
        ['/r/2', '/r/1', '/r/0'],
      );
      assert.equal(log.damagedBatches, 1);
      assert.equal(log.pendingCount(), 0);
    } finally {
      raw.close();
      log.close();
    }
  });

  it('a writer keeps its batch while the log is locked and writes it all afterwards', () => {
    const file = join(dir, 'locked.db');
    const log = new RequestLog(file, { busyTimeoutMs: 10 });
    const other = new Database(file);
    const errors: unknown[] = [];
    try {
      const w = new RequestLogWriter(log, {
        projectId: 'p',
        limit: 100,
        idleExpandMs: 60_000,
        onError: (e) => errors.push(e),
      });
      w.push(rec(0, { shared: sharedA }));
      other.exec('BEGIN IMMEDIATE');
      assert.equal(w.flushNow(), false);
      assert.equal(errors.length, 1);
      w.push(rec(1, { shared: sharedA }));
      assert.equal(w.pending, 2);
      other.exec('COMMIT');
      assert.equal(w.flushNow(), true);
      w.close();
      const listed = log.list('p', parseRequestFilters({ limit: 10 }));
      assert.deepEqual(
        listed.map((r) => [r.path, r.response.body]),
        [
          ['/r/1', 'a'],
          ['/r/0', 'a'],
        ],
      );
    } finally {
      other.close();
      log.close();
    }
  });
});
