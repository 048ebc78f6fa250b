import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { hostForUrl } from './listen.js';

/** Binds that listen on every address of the machine: a URL with them opens nothing. */
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]', '0:0:0:0:0:0:0:0']);

export const isWildcardHost = (host: string): boolean => WILDCARDS.has(host.trim());

export interface OpenableUrls {
  /** The URL to open on this machine: the bind's own, or loopback for a wildcard bind. */
  local: string;
  /** For a wildcard bind, the URLs other machines open: one per address of a network interface. */
  others: string[];
}

/**
 * The URLs people can open for a server bound to `host`: a wildcard bind (`0.0.0.0`, `::`)
 * is reached at 127.0.0.1 here and at the machine's network addresses from elsewhere (IPv4 for
 * `0.0.0.0`; IPv6 too for `::`, link-local ones aside: they need a zone in a URL).
 */
export function openableUrls(
  scheme: 'http' | 'https',
  host: string,
  port: number,
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): OpenableUrls {
  const url = (h: string) => `${scheme}://${hostForUrl(h)}:${port}`;
  if (!isWildcardHost(host)) return { local: url(host), others: [] };
  const ipv6 = host.trim() !== '0.0.0.0';
  const others = Object.values(interfaces)
    .flatMap((list) => list ?? [])
    .filter((i) => !i.internal && (i.family === 'IPv4' || (ipv6 && !i.address.startsWith('fe80:'))))
    .map((i) => url(i.address));
  return { local: url('127.0.0.1'), others: [...new Set(others)] };
}
