import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LoggedVariation } from '../core/ports.js';
import type { CompiledEndpoint } from './compile.js';

/** One request on its way through the pipeline (pipeline.ts): what each stage reads and adds. */
export interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly method: string;
  /** The request target as received: path and query. */
  readonly url: string;
  /** performance.now() when the request arrived. */
  readonly start: number;
  /** The request body, cut at the body cap; null when there is none. */
  body: Buffer | null;
  /** The body was longer than the cap. */
  bodyTruncated: boolean;
  /** Set by the match stage: the endpoint answering, or null. */
  endpoint: CompiledEndpoint | null;
  /** Set by the choose stage: the variation answering, or null (the endpoint's own, or none). */
  variation: LoggedVariation | null;
}
