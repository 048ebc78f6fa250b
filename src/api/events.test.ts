import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createEventHub,
  EVENT_BUFFER_SIZE,
  eventStream,
  formatEvent,
  lastEventIdOf,
  RETRY_MS,
} from './events.js';
import type { ApiEvent } from './route.js';

describe('event hub', () => {
  it('numbers events from 1, by one, and hands each to every subscriber', () => {
    const hub = createEventHub();
    const a: ApiEvent[] = [];
    const b: ApiEvent[] = [];
    hub.subscribe((e) => a.push(e));
    const off = hub.subscribe((e) => b.push(e));
    hub.publish('projects', { projectId: 'p1' });
    off();
    hub.publish('request', { id: '7' });
    assert.deepEqual(a, [
      { id: 1, type: 'projects', data: { projectId: 'p1' } },
      { id: 2, type: 'request', data: { id: '7' } },
    ]);
    assert.deepEqual(
      b.map((e) => e.id),
      [1],
    );
  });

  it('replays what a client missed after its Last-Event-ID, then goes on live', () => {
    const hub = createEventHub();
    for (let i = 0; i < 5; i++) hub.publish('request', i);
    const got: number[] = [];
    hub.subscribe((e) => got.push(e.id), 3);
    hub.publish('request', 5);
    assert.deepEqual(got, [4, 5, 6]);
    const none: number[] = [];
    hub.subscribe((e) => none.push(e.id), 6);
    assert.deepEqual(none, [], 'nothing missed');
    const fresh: number[] = [];
    hub.subscribe((e) => fresh.push(e.id));
    assert.deepEqual(fresh, [], 'a first connection gets no history');
  });

  it('keeps the last 1,000: an older id gets everything kept; an id it never gave (a restart) too', () => {
    const hub = createEventHub();
    for (let i = 0; i < EVENT_BUFFER_SIZE + 500; i++) hub.publish('request', i);
    const old: number[] = [];
    hub.subscribe((e) => old.push(e.id), 10);
    assert.equal(old.length, EVENT_BUFFER_SIZE);
    assert.equal(old[0], 501);
    assert.equal(old.at(-1), 1500);
    const later: number[] = [];
    hub.subscribe((e) => later.push(e.id), 1200);
    assert.deepEqual(
      later,
      Array.from({ length: 300 }, (_, i) => 1201 + i),
    );
    const restarted: number[] = [];
    hub.subscribe((e) => restarted.push(e.id), 99_999);
    assert.equal(restarted.length, EVENT_BUFFER_SIZE);
  });

  it('starts its sources at the first subscriber, once, and stops them on close', async () => {
    let started = 0;
    let stopped = 0;
    let publish: ((type: string, data: unknown) => void) | undefined;
    const hub = createEventHub({
      start: (p) => {
        started++;
        publish = p;
        return () => void stopped++;
      },
    });
    hub.publish('server', 'before');
    assert.equal(started, 0, 'lazy');
    const got: ApiEvent[] = [];
    hub.subscribe((e) => got.push(e));
    hub.subscribe(() => undefined);
    assert.equal(started, 1);
    publish!('server', { change: 'started' });
    assert.deepEqual(got, [{ id: 2, type: 'server', data: { change: 'started' } }]);
    await hub.close();
    assert.equal(stopped, 1);
    publish!('server', 'after');
    assert.equal(got.length, 1, 'nothing after close');
  });

  it('drops a subscriber that throws, not the others', () => {
    const hub = createEventHub();
    const got: number[] = [];
    hub.subscribe(() => {
      throw new Error('gone');
    });
    hub.subscribe((e) => got.push(e.id));
    hub.publish('a', 1);
    hub.publish('a', 2);
    assert.deepEqual(got, [1, 2]);
  });

  it('formats Server-Sent Events and reads Last-Event-ID', () => {
    assert.equal(
      formatEvent({ id: 3, type: 'request', data: { a: 'x\ny' } }),
      'id: 3\nevent: request\ndata: {"a":"x\\ny"}\n\n',
    );
    assert.equal(lastEventIdOf('12', undefined), 12);
    assert.equal(lastEventIdOf(undefined, '7'), 7);
    assert.equal(lastEventIdOf('abc', undefined), undefined);
    assert.equal(lastEventIdOf(undefined, undefined), undefined);
  });

  it('streams: headers, the retry hint, replay from Last-Event-ID, heartbeats, and stops on close', async () => {
    const hub = createEventHub();
    hub.publish('request', 'one');
    hub.publish('request', 'two');
    const req = Object.assign(new EventEmitter(), { headers: { 'last-event-id': '1' } });
    const written: string[] = [];
    let head: { status: number; headers: Record<string, string> } | undefined;
    const res = Object.assign(new EventEmitter(), {
      writeHead: (status: number, headers: Record<string, string>) => (head = { status, headers }),
      write: (chunk: string) => written.push(chunk),
    });
    eventStream(hub, undefined, 20).stream(
      res as unknown as ServerResponse,
      req as unknown as IncomingMessage,
    );
    assert.equal(head?.status, 200);
    assert.match(head!.headers['Content-Type']!, /^text\/event-stream/);
    assert.equal(written[0], `retry: ${RETRY_MS}\n\n`);
    assert.equal(written[1], 'id: 2\nevent: request\ndata: "two"\n\n', 'replayed after id 1');
    hub.publish('server', { change: 'started' });
    assert.equal(written[2], 'id: 3\nevent: server\ndata: {"change":"started"}\n\n');
    await sleep(70);
    assert.ok(written.includes(': heartbeat\n\n'), 'a heartbeat comment');
    req.emit('close');
    const count = written.length;
    hub.publish('request', 'after');
    await sleep(50);
    assert.equal(written.length, count, 'nothing written after the client left');
  });
});
