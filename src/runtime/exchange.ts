import type { IncomingMessage, ServerResponse } from 'node:http';
import { SLICED_JSON_MIN_LENGTH } from '../core/json-limits.js';
import type { LoggedVariation } from '../core/ports.js';
import type { CompiledEndpoint } from './compile.js';
import type { PlanFault } from './timing.js';

/** One request on its way through the pipeline (pipeline.ts): what each stage reads and adds. */
export interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly method: string;
  /** The request target as received: path and query. */
  readonly url: string;
  /** performance.now() when the request arrived. */
  readonly start: number;
  /**
   * The request body, whole (up to the request size limit); null when there is none. A proxy
   * endpoint's body streams to its target and keeps here only what the log's cap holds.
   */
  body: Buffer | null;
  /** The log keeps less than the whole body (a streamed body past the cap, or a refused one). */
  bodyTruncated: boolean;
  /**
   * The body as JSON, parsed at most once and shared by rules and templates (bodyJson):
   * undefined until first read; NOT_JSON when there is no body, it was cut, or it is not JSON.
   */
  json: unknown;
  /** Set by the match stage: the endpoint answering, or null. */
  endpoint: CompiledEndpoint | null;
  /** Set by the choose stage: the variation answering, or null (the endpoint's own, or none). */
  variation: LoggedVariation | null;
  /** Set by the delay stage: the milliseconds the response was held back. */
  delayMs: number;
  /** Set by the delay stage: the fault this request gets (timing.ts), or null. */
  fault: PlanFault | null;
}

/** The JSON of a request without a JSON body (none, cut, or not JSON). */
export const NOT_JSON: unique symbol = Symbol('not JSON');

const readable = (ex: Exchange): ex is Exchange & { body: Buffer } =>
  ex.body !== null && ex.body.length > 0 && !ex.bodyTruncated;

/** The request body as JSON (NOT_JSON when there is none), parsed on first read. */
export function bodyJson(ex: Exchange): unknown {
  if (ex.json === undefined) {
    ex.json = NOT_JSON;
    if (readable(ex))
      try {
        ex.json = JSON.parse(ex.body.toString('utf8')) as unknown;
      } catch {
        // Not JSON: rules see no body, templates the text.
      }
  }
  return ex.json;
}

/** Whether the body is too large to parse at once (JSON.parse would hold the event loop). */
export const largeBody = (ex: Exchange): boolean =>
  ex.json === undefined && readable(ex) && ex.body.length > SLICED_JSON_MIN_LENGTH;

/**
 * Parses a large body ahead of the stages that read it, in slices (core/sliced-json.ts): other
 * requests are served in between. Never rejects: a body that is not JSON is NOT_JSON.
 */
export async function parseBodyAhead(ex: Exchange): Promise<void> {
  let json: unknown = NOT_JSON;
  try {
    if (readable(ex)) {
      // Loaded on the first large body: a starting server does not need it.
      const { parseJsonSliced } = await import('../core/sliced-json.js');
      json = await parseJsonSliced(ex.body.toString('utf8'));
    }
  } catch {
    // Not JSON, as bodyJson says.
  }
  ex.json = json;
}
