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
  /**
   * The request body, whole (up to the request size limit); null when there is none. A proxy
   * endpoint's body streams to its target and keeps here only what the log's cap holds.
   */
  body: Buffer | null;
  /** The log keeps less than the whole body (a streamed body past the cap, or a refused one). */
  bodyTruncated: boolean;
  /** Set by the match stage: the endpoint answering, or null. */
  endpoint: CompiledEndpoint | null;
  /** Set by the choose stage: the variation answering, or null (the endpoint's own, or none). */
  variation: LoggedVariation | null;
}
