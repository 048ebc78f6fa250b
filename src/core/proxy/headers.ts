/**
 * Header rules of a proxy (RFC 9110 7.6.1): hop-by-hop headers belong to one connection and are
 * never forwarded, in either direction. Pure: flat [name, value, ...] lists in, lists out.
 */

/** Hop-by-hop headers, lower-case; Proxy-* headers too (see isHopByHop). */
export const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
]);

/** Whether a header (lower-case name) is hop-by-hop here, given the names `Connection` lists. */
export function isHopByHop(lowerName: string, connectionNames: ReadonlySet<string>): boolean {
  return HOP_BY_HOP.has(lowerName) || lowerName.startsWith('proxy-') || connectionNames.has(lowerName);
}

/** The header names a message's `Connection` header lists (they are hop-by-hop too). */
export function connectionNames(raw: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() !== 'connection') continue;
    for (const n of raw[i + 1]!.split(',')) {
      const name = n.trim().toLowerCase();
      if (name) names.add(name);
    }
  }
  return names;
}

/** A flat header list without the hop-by-hop headers (and without any name in `drop`). */
export function endToEndHeaders(raw: readonly string[], drop: ReadonlySet<string> = new Set()): string[] {
  const listed = connectionNames(raw);
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const lower = raw[i]!.toLowerCase();
    if (isHopByHop(lower, listed) || drop.has(lower)) continue;
    out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

/** The pseudonym mockdev gives itself in the `Via` header of each request it forwards. */
export const VIA_PSEUDONYM = 'mockdev';

/**
 * How many mockdev proxies a request may have passed: one that arrives at a proxy endpoint
 * having passed this many is answered 508 Loop Detected instead of forwarded (a proxy aimed at
 * its own server, or two aimed at each other). Chains of a few mockdev servers still work.
 */
export const MAX_PROXY_HOPS = 5;

/**
 * How many mockdev proxies a request has passed: the entries of its `Via` headers (RFC 9110
 * 7.6.3, `1.1 mockdev`) whose pseudonym is mockdev's.
 */
export function mockdevHops(raw: readonly string[]): number {
  let hops = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length !== 3 || name.toLowerCase() !== 'via') continue;
    for (const entry of raw[i + 1]!.split(',')) if (entry.trim().split(/\s+/)[1] === VIA_PSEUDONYM) hops++;
  }
  return hops;
}

export interface ForwardedFrom {
  /** The target's host (with its port when not the default): the new Host header. */
  targetHost: string;
  /** The client's address (appended to X-Forwarded-For). */
  clientAddress: string | undefined;
  /** The protocol the client used to reach mockdev ("http"). */
  proto: string;
  /** The HTTP version of the request received ("1.1"): the first word of mockdev's Via entry. */
  httpVersion: string;
}

/**
 * The headers a proxied request goes out with: the client's end-to-end headers, `Host`
 * rewritten to the target, `X-Forwarded-For` extended with the client's address,
 * `X-Forwarded-Host` (the Host the client asked for) and `X-Forwarded-Proto` set unless an earlier
 * proxy set them, and mockdev's entry added to `Via` (how a loop is seen: mockdevHops).
 */
export function forwardRequestHeaders(raw: readonly string[], from: ForwardedFrom): string[] {
  const out = endToEndHeaders(raw, new Set(['host', 'x-forwarded-for', 'via']));
  const via: string[] = [];
  let host: string | undefined;
  const forwardedFor: string[] = [];
  let hasFwdHost = false;
  let hasFwdProto = false;
  for (let i = 0; i < raw.length; i += 2) {
    const lower = raw[i]!.toLowerCase();
    if (lower === 'host') host = raw[i + 1];
    else if (lower === 'x-forwarded-for') forwardedFor.push(raw[i + 1]!);
    else if (lower === 'via') via.push(raw[i + 1]!);
    else if (lower === 'x-forwarded-host') hasFwdHost = true;
    else if (lower === 'x-forwarded-proto') hasFwdProto = true;
  }
  if (from.clientAddress) forwardedFor.push(from.clientAddress);
  out.push('Host', from.targetHost);
  if (forwardedFor.length) out.push('X-Forwarded-For', forwardedFor.join(', '));
  if (!hasFwdHost && host !== undefined) out.push('X-Forwarded-Host', host);
  if (!hasFwdProto) out.push('X-Forwarded-Proto', from.proto);
  via.push(`${from.httpVersion} ${VIA_PSEUDONYM}`);
  out.push('Via', via.join(', '));
  return out;
}
