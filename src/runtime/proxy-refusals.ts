import { MockdevError } from '../core/errors.js';
import type { Endpoint } from '../core/model/endpoint.js';
import { problemAnswer, type Answer } from './answer.js';
import type { Exchange } from './exchange.js';

/** What a proxy endpoint answers instead of forwarding (proxy.ts): a loop, a target it cannot use. */

/**
 * The 508 of a request that has passed MAX_PROXY_HOPS mockdev proxies: the endpoint's target
 * leads back to a mockdev proxy. Its body is not read (nor forwarded): the connection closes.
 */
export function loopDetected(e: Endpoint, ex: Exchange, hops: number, bodyLimitBytes: number): Answer {
  ex.res.shouldKeepAlive = false;
  ex.req.resume();
  return problemAnswer(
    new MockdevError(
      'PROXY_LOOP',
      `The request has passed ${hops} mockdev proxies (its Via header says so): proxy endpoint "${e.name}" (${e.method} ${e.path}) forwards to ${e.proxy!.target}, which leads back to a mockdev proxy endpoint`,
      { hint: 'Point the target at another server' },
    ),
    { endpointId: e.id, endpoint: e.name, hops, target: e.proxy!.target },
    bodyLimitBytes,
    false,
  );
}

/**
 * The 500 of a proxy endpoint whose target cannot be forwarded to (not an http: or https: URL;
 * stored by a hand edit, or a template's rendering): nothing is sent.
 */
export function targetRefused(
  e: Endpoint,
  target: string,
  why: string,
  bodyLimitBytes: number,
  rendered = false,
): Answer {
  return problemAnswer(
    new MockdevError(
      'PROXY_BAD_TARGET',
      `The ${rendered ? 'rendered' : 'proxy'} target ${JSON.stringify(target)} of endpoint "${e.name}" (${e.method} ${e.path}) ${why}; nothing was sent`,
      { hint: "Change the endpoint's proxy target" },
    ),
    { endpointId: e.id, target, reason: why },
    bodyLimitBytes,
    false,
  );
}
