import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiEvent, ApiStream, EventHub } from './route.js';

/**
 * The admin API's live events (GET /api/v1/events, Server-Sent Events). The hub numbers every
 * event (1, 2, 3, …), keeps the last 1,000 for clients that reconnect with `Last-Event-ID`,
 * and starts its sources (watchers.ts) when the first client subscribes.
 */

/** The event types (core/model/limits.ts: the web UI subscribes to the same list). */
export { EVENT_TYPES } from '../core/model/limits.js';

/** Events kept for replay. */
export const EVENT_BUFFER_SIZE = 1000;
/** A comment line this often keeps proxies and idle timeouts from closing the stream. */
export const HEARTBEAT_MS = 15_000;
/** What a client waits before reconnecting (the `retry:` field). */
export const RETRY_MS = 2000;

export interface EventHubOptions {
  /** Events kept for replay (default 1,000). */
  capacity?: number;
  /** Starts the event sources; called once, at the first subscriber. Returns their stop. */
  start?: (publish: EventHub['publish']) => () => Promise<void> | void;
}

export function createEventHub(options: EventHubOptions = {}): EventHub {
  const capacity = options.capacity ?? EVENT_BUFFER_SIZE;
  // A ring: `kept[i % capacity]` holds event i + 1 for the last `capacity` ids.
  const kept: ApiEvent[] = [];
  let lastId = 0;
  const subscribers = new Set<(event: ApiEvent) => void>();
  let stopSources: (() => Promise<void> | void) | undefined;
  let closed = false;

  const deliver = (send: (event: ApiEvent) => void, event: ApiEvent): void => {
    try {
      send(event);
    } catch {
      subscribers.delete(send); // a broken client does not stop the others
    }
  };

  /** The kept events after `id`, oldest first. */
  const after = (id: number): ApiEvent[] => {
    const first = Math.max(id + 1, lastId - kept.length + 1);
    const out: ApiEvent[] = [];
    for (let n = first; n <= lastId; n++) out.push(kept[(n - 1) % capacity]!);
    return out;
  };

  const hub: EventHub = {
    publish(type, data) {
      if (closed) return;
      const event: ApiEvent = { id: ++lastId, type, data };
      kept[(event.id - 1) % capacity] = event;
      for (const send of [...subscribers]) deliver(send, event);
    },

    subscribe(send, lastEventId) {
      if (!closed && !stopSources && options.start) stopSources = options.start(hub.publish);
      if (lastEventId !== undefined && Number.isFinite(lastEventId)) {
        // An id this hub never gave (the UI restarted since) misses everything kept.
        const from = lastEventId > lastId ? 0 : lastEventId;
        for (const event of after(from)) deliver(send, event);
      }
      subscribers.add(send);
      return () => void subscribers.delete(send);
    },

    async close() {
      closed = true;
      subscribers.clear();
      await stopSources?.();
    },
  };
  return hub;
}

/** One event in the Server-Sent Events format. */
export const formatEvent = (event: ApiEvent): string =>
  `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;

/** `Last-Event-ID` (or `?lastEventId=`, which an EventSource cannot send as a header) as a number. */
export function lastEventIdOf(header: string | undefined, query: string | undefined): number | undefined {
  const text = (header ?? query ?? '').trim();
  return /^\d{1,15}$/.test(text) ? Number(text) : undefined;
}

/** The streamed answer of GET /events: every event from now on (after a replay), and heartbeats. */
export function eventStream(
  hub: EventHub,
  queryLastEventId: string | undefined,
  heartbeatMs = HEARTBEAT_MS,
): ApiStream {
  return {
    stream(res: ServerResponse, req: IncomingMessage) {
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        // HTTP/2 forbids connection headers (its streams share one connection anyway).
        ...(req.httpVersionMajor === 2 ? {} : { Connection: 'keep-alive' }),
        'X-Accel-Buffering': 'no',
      });
      res.write(`retry: ${RETRY_MS}\n\n`);
      const header = req.headers['last-event-id'];
      const last = lastEventIdOf(Array.isArray(header) ? header[0] : header, queryLastEventId);
      const unsubscribe = hub.subscribe((event) => void res.write(formatEvent(event)), last);
      const beat = setInterval(() => res.write(': heartbeat\n\n'), heartbeatMs);
      beat.unref();
      const end = (): void => {
        clearInterval(beat);
        unsubscribe();
      };
      req.on('close', end);
      res.on('close', end);
    },
  };
}
