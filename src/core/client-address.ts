/**
 * Who sent a request (the request log's `clientAddress`): the socket's remote address; but when
 * the connection comes from this machine (a loopback address: a tunnel's agent, a local proxy),
 * the caller that agent names: `CF-Connecting-IP` (Cloudflare), else the first entry of
 * `X-Forwarded-For`. A request from elsewhere cannot name its caller (anyone may send those
 * headers): its socket's address stands. An IPv4 address mapped into IPv6 (`::ffff:1.2.3.4`, on
 * a server bound to `::`) is given as IPv4.
 */

/** Where most requests come from: the request log writes no address for it (its default). */
export const COMMON_CLIENT_ADDRESS = '127.0.0.1';

const MAPPED = '::ffff:';

const isLoopback = (address: string): boolean =>
  address === COMMON_CLIENT_ADDRESS || address === '::1' || address.startsWith('127.');

/**
 * The caller's address from the socket's remote address and the request's raw headers
 * ([name, value, ...]); undefined when the socket's address is unknown (it closed). Allocates
 * nothing for the common case (a loopback caller sending neither header).
 */
export function clientAddress(remote: string | undefined, raw: readonly string[]): string | undefined {
  if (remote === undefined || remote === '') return undefined;
  const address = remote.startsWith(MAPPED) && remote.includes('.') ? remote.slice(MAPPED.length) : remote;
  if (!isLoopback(address)) return address;
  let forwarded: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 16 && name.toLowerCase() === 'cf-connecting-ip') {
      const value = raw[i + 1]!.trim();
      if (value !== '') return value;
    } else if (forwarded === undefined && name.length === 15 && name.toLowerCase() === 'x-forwarded-for') {
      const value = raw[i + 1]!;
      const comma = value.indexOf(',');
      forwarded = (comma === -1 ? value : value.slice(0, comma)).trim() || undefined;
    }
  }
  return forwarded ?? address;
}
