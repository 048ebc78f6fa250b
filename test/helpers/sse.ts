import { within } from './wait.js';

/** One Server-Sent Event as received. */
export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
  /** When it arrived (Date.now()). */
  at: number;
}

export interface SseClient {
  /** The HTTP status and content type of the answer. */
  status: number;
  contentType: string;
  /** Every event so far, in order. */
  events: SseEvent[];
  /** The `retry:` values and comment lines seen. */
  retry: number[];
  comments: string[];
  /** The first event (from the start, or after `from` events) that fits; fails after `timeoutMs`. */
  next(fits: (e: SseEvent, data: unknown) => boolean, what: string, timeoutMs?: number): Promise<SseEvent>;
  close(): void;
}

/** Opens an event stream with fetch and parses it as it arrives. */
export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const abort = new AbortController();
  const res = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const events: SseEvent[] = [];
  const retry: number[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  if (res.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end;
          while ((end = buffer.indexOf('\n\n')) !== -1) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event: SseEvent = { data: '', at: Date.now() };
            let isEvent = false;
            for (const line of block.split('\n')) {
              const value = (prefix: string): string => line.slice(prefix.length).trim();
              if (line.startsWith(':')) comments.push(value(':'));
              else if (line.startsWith('retry:')) retry.push(Number(value('retry:')));
              else if (line.startsWith('id:')) event.id = value('id:');
              else if (line.startsWith('event:')) event.event = value('event:');
              else if (line.startsWith('data:')) event.data += value('data:');
              else continue;
              if (!line.startsWith(':') && !line.startsWith('retry:')) isEvent = true;
            }
            if (isEvent) events.push(event);
            for (const w of [...waiters]) w();
          }
        }
      } catch {
        /* closed */
      }
    })();
  }
  const parse = (e: SseEvent): unknown => {
    try {
      return JSON.parse(e.data) as unknown;
    } catch {
      return undefined;
    }
  };
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    events,
    retry,
    comments,
    next(fits, what, timeoutMs = 10_000) {
      const find = () => events.find((e) => fits(e, parse(e)));
      return within(
        new Promise<SseEvent>((resolve) => {
          const check = () => {
            const found = find();
            if (found) {
              waiters.delete(check);
              resolve(found);
            }
          };
          waiters.add(check);
          check();
        }),
        timeoutMs,
        what,
      );
    },
    close: () => abort.abort(),
  };
}
