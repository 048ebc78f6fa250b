import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { NewRecording, RecordingStore, Stores } from '../../src/core/ports.js';
import { waitUntil } from '../helpers/wait.js';
import type { StoreImplementation } from './implementations.js';

/** A proxied exchange as a server hands it over. */
function exchange(n: number, extra: Partial<NewRecording['response']> = {}, endpointId = 'e1'): NewRecording {
  return {
    endpointId,
    ts: 1_700_000_000_000 + n,
    durationMs: 12.5,
    target: `http://up.example/base/r/${n}?n=${n}`,
    request: {
      method: 'POST',
      url: `/api/r/${n}?n=${n}&tag=a&tag=b`,
      rawHeaders: ['Host', 'localhost', 'Accept', 'a', 'Accept', 'b'],
      body: Buffer.from(`{"n":${n}}`),
      truncated: false,
    },
    response: {
      status: 201,
      rawHeaders: ['Content-Type', 'application/json', 'Set-Cookie', 'a=1', 'Set-Cookie', 'b=2'],
      body: Buffer.from(`{"ok":${n}}`),
      truncated: false,
      ...extra,
    },
  };
}

/** The RecordingStore contract: what every implementation of the interface does. */
export function recordingStoreContract(impl: StoreImplementation): void {
  describe(`RecordingStore contract: ${impl.name}`, () => {
    let stores: Stores;
    let again: () => Stores;
    let cleanup: () => Promise<void>;
    let recordings: RecordingStore;
    beforeEach(async () => {
      ({ stores, again, cleanup } = await impl.open());
      recordings = stores.recordings;
    });
    afterEach(() => cleanup());

    const write = async (items: NewRecording[], projectId = 'p1', bodyLimitBytes = 1024 * 1024) => {
      const writer = recordings.openWriter({ projectId, bodyLimitBytes });
      for (const r of items) writer.push(r);
      await writer.close();
      assert.equal(writer.lost, 0);
    };

    it('reads back what a writer stored, newest first, in the Recording shape', async () => {
      await write([exchange(1), exchange(2)]);
      const list = await recordings.list('e1');
      assert.equal(list.length, 2);
      const r = list[0]!;
      assert.match(r.id, /^[A-Za-z0-9_-]+$/);
      assert.equal(r.projectId, 'p1');
      assert.equal(r.endpointId, 'e1');
      assert.equal(r.timestamp, new Date(1_700_000_000_002).toISOString());
      assert.equal(r.durationMs, 12.5);
      assert.equal(r.target, 'http://up.example/base/r/2?n=2');
      assert.deepEqual(r.request, {
        method: 'POST',
        path: '/api/r/2',
        query: { n: '2', tag: ['a', 'b'] },
        headers: { Host: 'localhost', Accept: 'a, b' },
        body: '{"n":2}',
        bodyEncoding: 'utf8',
        truncated: false,
      });
      assert.deepEqual(r.response, {
        status: 201,
        headers: { 'Content-Type': 'application/json', 'Set-Cookie': 'a=1, b=2' },
        body: '{"ok":2}',
        bodyEncoding: 'utf8',
        truncated: false,
        decodedFrom: null,
      });
      assert.deepEqual(await recordings.get(r.id), r);
      assert.equal((await recordings.list('e1', { limit: 1 })).length, 1);
      // Another process sees them.
      assert.equal((await again().recordings.list('e1')).length, 2);
    });

    it('stores gzip and br bodies decoded, binary bodies as base64, and cuts bodies at the cap', async () => {
      await write([
        exchange(1, { rawHeaders: ['Content-Encoding', 'gzip'], body: gzipSync('hello gzip') }),
        exchange(2, { rawHeaders: ['Content-Encoding', 'br'], body: brotliCompressSync('hello br') }),
        exchange(3, { body: Buffer.from([0xff, 0xfe, 0x00, 0x01]) }),
        exchange(4, { body: Buffer.from('x'.repeat(10)), truncated: true }),
      ]);
      const [cut, binary, br, gz] = await recordings.list('e1');
      assert.equal(gz!.response.body, 'hello gzip');
      assert.equal(gz!.response.decodedFrom, 'gzip');
      assert.equal(gz!.response.headers['Content-Encoding'], 'gzip');
      assert.equal(br!.response.body, 'hello br');
      assert.equal(br!.response.decodedFrom, 'br');
      assert.equal(binary!.response.bodyEncoding, 'base64');
      assert.deepEqual(Buffer.from(binary!.response.body!, 'base64'), Buffer.from([0xff, 0xfe, 0x00, 0x01]));
      assert.equal(cut!.response.truncated, true);
    });

    it('deletes one, clears an endpoint, clears a project, counts per endpoint', async () => {
      await write([exchange(1), exchange(2), exchange(3, {}, 'e2')], 'p1');
      await write([exchange(4, {}, 'e3')], 'p2');
      assert.deepEqual(await recordings.countByEndpoint('p1'), { e1: 2, e2: 1 });
      const [first] = await recordings.list('e1');
      assert.equal(await recordings.delete(first!.id), true);
      assert.equal(await recordings.delete(first!.id), false);
      assert.equal(await recordings.get(first!.id), undefined);
      assert.equal(await recordings.delete('not-an-id'), false);
      assert.equal(await recordings.clearEndpoints(['e1', 'e2']), 2);
      assert.deepEqual(await recordings.countByEndpoint('p1'), {});
      assert.equal(await recordings.clearProject('p2'), 1);
      assert.deepEqual(await recordings.list('e3'), []);
    });

    it('stores what a running writer is given, batch after batch, without being closed', async () => {
      const writer = recordings.openWriter({ projectId: 'p1', bodyLimitBytes: 1024 });
      try {
        // Pushes land before, during and after a batch is stored (the first one opens the store).
        writer.push(exchange(1));
        await sleep(21);
        writer.push(exchange(2));
        await waitUntil(async () => (await recordings.list('e1')).length === 2, 'the first two');
        await sleep(30);
        writer.push(exchange(3));
        await waitUntil(
          async () => (await recordings.list('e1')).length === 3,
          'the third, stored while running',
        );
      } finally {
        await writer.close();
      }
      assert.equal(writer.lost, 0);
    });

    it('counts what reaches a closed writer as lost, and says so', async () => {
      const warnings: string[] = [];
      const writer = recordings.openWriter({
        projectId: 'p1',
        bodyLimitBytes: 1024,
        onWarning: (m) => warnings.push(m),
      });
      await writer.close();
      writer.push(exchange(1));
      assert.equal(writer.lost, 1);
      assert.match(warnings[0]!, /Lost 1 recording/);
    });
  });
}
