/** Names generated for endpoints and projects, made unique against the names already taken. */

const isIdLike = (segment: string): boolean =>
  /^\d+$/.test(segment) || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(segment);

const decode = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** Letters and digits of any script are kept (`/café` -> `café`, `/日本` -> `日本`). */
const kebab = (s: string): string =>
  s
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();

/**
 * A readable name from method and path: `GET /api/v1/users/42` -> `get-users-by-id`,
 * `POST /api/users` -> `post-users`, `GET /orgs/{org}/repos` -> `get-orgs-by-org-repos`.
 * Leading `api` and version segments (`v1`) are dropped. Percent-encoded segments are read
 * decoded, and letters of any script are kept: `GET /caf%C3%A9` -> `get-café`.
 */
export function suggestEndpointName(method: string, path: string): string {
  const segments = path.split('/').filter(Boolean);
  while (segments.length && /^(api|v\d+(\.\d+)*)$/i.test(segments[0]!)) segments.shift();
  const parts = segments.map((segment) => {
    if (segment === '*') return 'all'; // a proxy's wildcard: /api/users/* -> get-users-all
    const param = /^:(.+)$/.exec(segment) ?? /^\{([^}]+)\}$/.exec(segment);
    if (param) return `by-${kebab(param[1]!) || 'id'}`;
    if (isIdLike(segment)) return 'by-id';
    return kebab(decode(segment));
  });
  const base = [method.toLowerCase(), ...parts.filter(Boolean)].join('-');
  return base === method.toLowerCase() ? `${base}-root` : base;
}

/** `name`, else `name-2`, `name-3`, … whichever is not in `taken` (case-insensitive). */
export function uniqueName(name: string, taken: Iterable<string>): string {
  const used = new Set([...taken].map((n) => n.toLowerCase()));
  if (!used.has(name.toLowerCase())) return name;
  for (let i = 2; ; i++) {
    const candidate = `${name}-${i}`;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}
