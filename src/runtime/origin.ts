/** Origin and Host checks of the HTTP mode (DNS-rebinding protection, MCP transport rules). */

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

const isLoopbackName = (hostname: string): boolean => {
  const h = hostname.toLowerCase();
  return LOOPBACK_NAMES.has(h) || h.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(h);
};

/** Whether a bind host only accepts connections from this machine. */
export const isLoopbackHost = (host: string): boolean => isLoopbackName(host);

/** Requests without an Origin (not from a browser) pass; browser requests only from localhost. */
export function originAllowed(origin: string | undefined): boolean {
  if (origin === undefined || origin === '') return true;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackName(url.hostname);
  } catch {
    return false;
  }
}

/** On a loopback bind, the Host header must name the loopback too (a rebound DNS name does not). */
export function hostAllowed(host: string | undefined): boolean {
  if (!host) return true;
  try {
    return isLoopbackName(new URL(`http://${host}`).hostname);
  } catch {
    return false;
  }
}
