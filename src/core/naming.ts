/** Names generated for endpoints and projects, made unique against the names already taken. */

/** The longest name (NameSchema): a generated or suffixed name is cut to it. */
export const NAME_MAX = 200;

const cut = (name: string, max: number): string => {
  if (name.length <= max) return name;
  // Never split a surrogate pair; a cut that ends on "-" drops it.
  let end = max;
  const code = name.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return name.slice(0, end).replace(/-+$/, '');
};

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
  return base === method.toLowerCase() ? `${base}-root` : cut(base, NAME_MAX);
}

/**
 * `name`, else `name-2`, `name-3`, … whichever is not in `taken` (case-insensitive); a long name
 * is cut so that it and its suffix stay within NAME_MAX.
 */
export function uniqueName(name: string, taken: Iterable<string>): string {
  const used = new Set([...taken].map((n) => n.toLowerCase()));
  if (!used.has(name.toLowerCase())) return name;
  for (let i = 2; ; i++) {
    const suffix = `-${i}`;
    const candidate = `${cut(name, NAME_MAX - suffix.length)}${suffix}`;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}
