import { randomBytes } from 'node:crypto';
import { constants as h2 } from 'node:http2';
import { delaySampler, faultChooser, type Random } from '../core/latency.js';
import { parseFault, type FaultKind } from '../core/model/fault.js';
import type { Delay } from '../core/model/fields.js';
import type { LoggedResponse } from '../core/ports.js';
import type { Answer } from './answer.js';
import type { Exchange } from './exchange.js';

/**
 * Delays and faults at run time (docs/faults.md). A response's delay and fault are compiled
 * into its plan once per endpoint change (planTiming); per request the pipeline samples the
 * delay, rolls the fault (rollFault) and, for a request that gets one, sends it (createFaults)
 * instead of the plain answer. A plan without them carries only its fixed delay: nothing more
 * per request.
 */

/** A fault compiled into a response plan. */
export interface PlanFault {
  /** As stored, and as the request log records it (`reset`, `drip:1024`). */
  readonly text: string;
  readonly kind: FaultKind;
  /** For `drip`: bytes of the answer sent per second. */
  readonly bytesPerSecond: number;
  /** Whether a request gets it: always, never, or at random (faultRate). */
  readonly chance: boolean | (() => boolean);
}

/** The timing part of a response plan (runtime/compile.ts ResponsePlan). */
export interface PlanTiming {
  /** Milliseconds before the response is sent (a fixed delay; 0 with a distribution). */
  delay: number;
  /** Samples the delay of one request (a distribution); unset: `delay` is the delay. */
  sampleDelay?: () => number;
  /** A fault some or all requests get; unset: none. */
  fault?: PlanFault;
}

/** The delay and fault of a response, compiled. `random` is for tests (a seeded source). */
export function planTiming(
  r: { delay: Delay; fault?: string; faultRate?: number },
  random: Random = Math.random,
): PlanTiming {
  const sampled = delaySampler(r.delay, random);
  const timing: PlanTiming =
    typeof sampled === 'number' ? { delay: sampled } : { delay: 0, sampleDelay: sampled };
  const parsed = r.fault === undefined ? null : parseFault(r.fault);
  const chance = faultChooser(r.faultRate ?? 1, random);
  if (parsed !== null && chance !== false)
    timing.fault = {
      text: r.fault!,
      kind: parsed.kind,
      bytesPerSecond: parsed.bytesPerSecond ?? 0,
      chance,
    };
  return timing;
}

/** The fault this request gets, or null. */
export const rollFault = (fault: PlanFault): PlanFault | null =>
  fault.chance === true || (fault.chance !== false && fault.chance()) ? fault : null;

/** What the log keeps of a request answered by a fault that sends no HTTP answer. */
const NOTHING_LOGGED: LoggedResponse = { headersJson: '{}', body: null, truncated: false, shared: true };
/** Status 0 in the log: no HTTP answer was sent (reset, empty, garbage). */
export const NO_ANSWER: Answer = {
  status: 0,
  headers: [],
  body: '',
  logged: NOTHING_LOGGED,
  loggedHead: NOTHING_LOGGED,
};

/** How often a drip sends a chunk, at the least: milliseconds. */
const DRIP_TICK_MS = 100;

export interface Faults {
  /**
   * Sends the request's fault (ex.fault) in place of `answer`: what was sent, for the log.
   * `head` writes the status line and headers (or what stands in for them), as plain sending does.
   */
  send(ex: Exchange, answer: Answer, head: (ex: Exchange, answer: Answer) => Answer): Answer;
  /** Sends the rest of every dripping answer now (the server is stopping). */
  flush(): void;
}

export function createFaults(): Faults {
  const drips = new Set<() => void>();

  const drip = (ex: Exchange, answer: Answer, bytesPerSecond: number) => {
    const res = ex.res;
    const body = typeof answer.body === 'string' ? Buffer.from(answer.body, 'utf8') : answer.body;
    const tick = Math.max(DRIP_TICK_MS, Math.ceil(1000 / bytesPerSecond));
    const chunk = Math.max(1, Math.round((bytesPerSecond * tick) / 1000));
    const started = performance.now();
    let at = 0;
    let timer: NodeJS.Timeout | undefined;
    const stop = () => {
      clearTimeout(timer);
      drips.delete(rest);
    };
    const rest = () => {
      stop();
      if (!res.destroyed) res.end(body.subarray(at));
    };
    const next = () => {
      if (res.destroyed) return stop();
      res.write(body.subarray(at, at + chunk));
      at += chunk;
      if (at >= body.length) {
        stop();
        res.end();
        return;
      }
      const ticks = at / chunk + 1;
      timer = setTimeout(next, Math.max(0, started + ticks * tick - performance.now()));
    };
    drips.add(rest);
    res.once('close', stop);
    timer = setTimeout(next, tick);
  };

  /** No HTTP answer: a reset, a close, or bytes that are not HTTP (HTTP/2: the stream is reset). */
  const noAnswer = (ex: Exchange, kind: FaultKind): Answer => {
    if (ex.req.httpVersionMajor === 2) {
      // The session carries other streams: only this one ends.
      (ex.res as unknown as { stream: { close(code: number): void } }).stream.close(
        h2.NGHTTP2_INTERNAL_ERROR,
      );
      return NO_ANSWER;
    }
    const socket = ex.req.socket;
    if (kind === 'reset') socket.resetAndDestroy();
    else if (kind === 'empty') socket.end();
    else {
      const bytes = randomBytes(64 + Math.floor(Math.random() * 448));
      // Never the start of a status line ("HTTP/"): a client must see something that is not HTTP.
      if (bytes[0] === 0x48) bytes[0] = 0;
      socket.end(bytes);
    }
    return NO_ANSWER;
  };

  return {
    send(ex, answer, head) {
      const fault = ex.fault!;
      if (fault.kind !== 'drip') return noAnswer(ex, fault.kind);
      const sent = head(ex, answer);
      if (ex.method === 'HEAD' || sent.body.length === 0) ex.res.end();
      else drip(ex, sent, fault.bytesPerSecond);
      return sent;
    },
    flush() {
      for (const rest of [...drips]) rest();
    },
  };
}
