/**
 * What a proxy endpoint may forward to: an `http:` or `https:` URL (DECISIONS "Trust and data").
 * Other schemes (`file:`, `ftp:`, `data:`, `gopher:`, `javascript:`) used to be sent as HTTP to
 * 127.0.0.1:80; they are refused when saved, and one stored anyway (a hand edit) answers a
 * problem without sending anything (runtime/proxy.ts).
 */

export const PROXY_TARGET_SCHEMES: readonly string[] = ['http:', 'https:'];

/**
 * Why a proxy target cannot be forwarded to, said as the end of "Invalid proxy.target …: …", or
 * undefined. A template (`{{env.API_URL}}/v1`) is checked as far as its text before the first
 * `{{` goes (a scheme written there), the rest when it is rendered per request.
 */
export function proxyTargetProblem(target: string): string | undefined {
  const at = target.indexOf('{{');
  if (at !== -1) {
    const scheme = /^\s*([A-Za-z][A-Za-z0-9+.-]*:)/.exec(target.slice(0, at))?.[1]?.toLowerCase();
    return scheme === undefined ? undefined : schemeProblem(scheme);
  }
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return 'must be an absolute URL such as https://api.example.com (or a template such as {{env.API_URL}})';
  }
  return (
    schemeProblem(url.protocol) ??
    (url.hostname ? undefined : 'must name a host, e.g. https://api.example.com')
  );
}

function schemeProblem(scheme: string): string | undefined {
  return PROXY_TARGET_SCHEMES.includes(scheme)
    ? undefined
    : `must be an http: or https: URL such as https://api.example.com, not ${scheme} (a proxy forwards HTTP requests)`;
}
