import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientAddress } from '../../core/client-address.js';
import type { LoggedResponse, NewRequestRecord } from '../../core/ports.js';
import { loggedResponse, record } from '../../../test/helpers/records.js';
import {
  BadFrameError,
  decodeFrame,
  FRAME_MAGIC,
  RecordBatch,
  scanFrames,
  type DecodedFrame,
} from './frame.js';
import type { StoredRow } from './rows.js';

const allBytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const sharedA = loggedResponse({ A: '1' }, 'a');
const sharedB = loggedResponse({ B: '✓' }, null);

const rec = (n: number, extra: Partial<NewRequestRecord> = {}) =>
  record(n, { durationMs: 0.125 + n, ...extra });

/** Every kind of field the wire can bring, one record each. */
const variety = (): NewRequestRecord[] => [
  rec(0),
  rec(1, { endpointId: null, status: 404, response: loggedResponse({ X: 'ü✓' }, 'not found ✓', false) }),
  rec(2, { endpointId: 'ид-é', response: sharedA }),
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
    response: sharedB,
  }),
  rec(4, { rawHeaders: [], method: 'HEAD', response: loggedResponse({}, null, false) }),
  rec(5, { response: sharedA, status: 599, durationMs: 1234.5678 }),
  rec(6, { response: { ...loggedResponse({}, 'cut', false), truncated: true } }),
  rec(7, { variation: { id: 'v-1', name: 'slow ✓ ünïcode' }, response: sharedA }),
  rec(8, { variation: null, status: 404 }),
  rec(9, { httpMajor: 2 }),
  rec(10, { httpMajor: 1, remoteAddress: '203.0.113.5' }),
  rec(11, { httpMajor: 2, remoteAddress: '::1', rawHeaders: ['X-Forwarded-For', '198.51.100.1, 10.0.0.1'] }),
  rec(12, { remoteAddress: undefined }),
  rec(13, { delayMs: 250, response: sharedA }),
  rec(14, { fault: 'reset', status: 0, delayMs: 0 }),
  rec(15, { fault: 'drip:1024 ✓', delayMs: 600_000, status: 599, variation: { id: 'v', name: 'n' } }),
];

/**
 * What decoding must give, worked out independently of the encoder: the row of each record,
 * shared responses as slots in the order they first appear.
 */
function expected(records: NewRequestRecord[], format = 5): DecodedFrame {
  const slots: LoggedResponse[] = [];
  const rowSlots: number[] = [];
  const rows = records.map((r): StoredRow => {
    const shared = r.response.shared;
    if (shared && !slots.includes(r.response)) slots.push(r.response);
    rowSlots.push(shared ? slots.indexOf(r.response) + 1 : 0);
    return [
      'p',
      r.endpointId,
      r.ts,
      r.method,
      r.url,
      r.rawHeaders.join('\n'),
      r.body,
      r.status,
      r.durationMs,
      r.truncated || r.response.truncated ? 1 : 0,
      null,
      shared ? null : r.response.headersJson,
      shared ? null : r.response.body,
      r.variation?.id ?? null,
      r.variation?.name ?? null,
      format < 4 ? null : r.httpMajor === 2 ? 'h2' : 'http/1.1',
      format < 4 ? null : (clientAddress(r.remoteAddress, r.rawHeaders) ?? null),
      r.delayMs ? r.delayMs : null,
      r.fault ?? null,
    ];
  });
  return { rows, rowSlots, slots: slots.map((s) => ({ headersJson: s.headersJson, body: s.body })) };
}

const decodeAll = (data: Buffer): DecodedFrame[] =>
  scanFrames(data, 0).frames.map((f) => decodeFrame('p', data, f));

describe('spool frames', () => {
  it('decode to exactly the records written, every field kind included; shared responses once', () => {
    const batch = new RecordBatch();
    const records = variety();
    for (const r of records) batch.add(r);
    assert.equal(batch.count, records.length);
    const data = Buffer.from(batch.frame(77));
    const { frames, end, damaged } = scanFrames(data, 0);
    assert.deepEqual(frames, [{ start: 0, end: data.length, count: records.length, keep: 77 }]);
    assert.equal(end, data.length);
    assert.equal(damaged, false);
    const decoded = decodeFrame('p', data, frames[0]!);
    assert.deepEqual(decoded, expected(records));
    assert.equal(decoded.slots.length, 3, 'each shared response written once');
  });

  it('read frames written before variations (format 2), protocols and clients (3) were logged, without them', () => {
    const batch = new RecordBatch();
    // Records of 127.0.0.1 over HTTP/1.1: the layout of formats 2 and 3.
    const records = variety().filter(
      (r) => !r.variation && !r.httpMajor && r.remoteAddress === '127.0.0.1' && !r.delayMs && !r.fault,
    );
    assert.ok(records.length >= 5);
    for (const r of records) batch.add(r);
    const data = Buffer.from(batch.frame(5));
    assert.equal(data[16], 5, 'this format');
    for (const format of [2, 3, 4]) {
      data[16] = format;
      assert.deepEqual(decodeAll(data), [expected(records, format)]);
    }
  });

  it('write the client address only when it is not 127.0.0.1, and the protocol as a flag', () => {
    const size = (r: NewRequestRecord) => {
      const batch = new RecordBatch();
      batch.add(r);
      return batch.bytes;
    };
    assert.equal(size(rec(0, { httpMajor: 2 })), size(rec(0)));
    assert.equal(size(rec(0, { remoteAddress: '203.0.113.5' })), size(rec(0)) + 4 + '203.0.113.5'.length);
    assert.equal(size(rec(0, { delayMs: 0, fault: null })), size(rec(0)), 'no delay, no fault: nothing more');
    assert.equal(size(rec(0, { delayMs: 12, fault: 'empty' })), size(rec(0)) + 4 + 4 + 'empty'.length);
  });

  it('grow for large bodies and start small again after a reset', () => {
    const batch = new RecordBatch(1024);
    const big = Buffer.alloc(2 * 1024 * 1024, 7);
    const records = [rec(0), rec(1, { body: big, method: 'PUT' }), rec(2)];
    for (const r of records) batch.add(r);
    assert.deepEqual(decodeAll(Buffer.from(batch.frame(10))), [expected(records)]);
    batch.reset();
    assert.equal(batch.count, 0);
    batch.add(rec(9));
    assert.ok(batch.bytes < 1024);
    assert.deepEqual(decodeAll(Buffer.from(batch.frame(10))), [expected([rec(9)])]);
  });

  it('write shared responses inline once a frame has 65,535 distinct ones', () => {
    const batch = new RecordBatch();
    const records = Array.from({ length: 0xffff + 2 }, (_, i) =>
      rec(i, { response: loggedResponse({ N: String(i) }, null), rawHeaders: [] }),
    );
    for (const r of records) batch.add(r);
    const [decoded] = decodeAll(Buffer.from(batch.frame(10)));
    assert.equal(decoded!.rows.length, records.length);
    assert.equal(decoded!.slots.length, 0xffff);
    assert.equal(decoded!.rowSlots.at(-3), 0xffff, 'the last slot');
    assert.equal(decoded!.rowSlots.at(-1), 0, 'inline after that');
    assert.equal(decoded!.rows.at(-1)![11], '{"N":"65536"}');
  });

  it('take the slots off when a write failed, so later records join the same frame', () => {
    const batch = new RecordBatch();
    batch.add(rec(0, { response: sharedA }));
    batch.frame(10); // the write failed
    batch.add(rec(1, { response: sharedB }));
    batch.add(rec(2, { response: sharedA }));
    const records = [
      rec(0, { response: sharedA }),
      rec(1, { response: sharedB }),
      rec(2, { response: sharedA }),
    ];
    const data = Buffer.from(batch.frame(10));
    assert.equal(scanFrames(data, 0).frames.length, 1);
    assert.deepEqual(decodeAll(data), [expected(records)]);
  });

  it('are found whole only: a frame still being written is left for later', () => {
    const batch = new RecordBatch();
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

  it('refuse damaged data: not a frame at all, or a frame damaged inside (BadFrameError)', () => {
    const batch = new RecordBatch();
    for (const r of variety()) batch.add(r);
    const good = Buffer.from(batch.frame(5));
    const wrongMagic = Buffer.from(good);
    wrongMagic.writeUInt32LE(FRAME_MAGIC + 1, 0);
    assert.equal(scanFrames(wrongMagic, 0).damaged, true);
    const garbled = Buffer.from(good);
    garbled.fill(0xee, 40, 80);
    assert.throws(() => decodeAll(garbled), BadFrameError);
    const wrongFormat = Buffer.from(good);
    wrongFormat[16] = 99;
    assert.throws(() => decodeAll(wrongFormat), BadFrameError);
  });
});
