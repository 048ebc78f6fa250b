/**
 * Route identity: two endpoints clash when they have the same method and the same route key.
 * `:id`, `{id}` and `{userId}` are all the same parameter slot, and a trailing slash is ignored,
 * so `/users/:id`, `/users/{id}/` and `/users/{userId}` share the key `/users/{}`.
 */
export function routeKey(path: string): string {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.replace(/\/+$/, '') || '/' : path;
  return trimmed
    .split('/')
    .map((segment) =>
      segment.startsWith(':') && segment.length > 1 ? '{}' : segment.replace(/\{[^}]*\}/g, '{}'),
    )
    .join('/');
}

export function endpointKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${routeKey(path)}`;
}

/**
 * Whether an endpoint path lies under a path prefix taken as a folder (the UI's "Delete Path"):
 * `/api/users` holds `/api/users` and everything under `/api/users/`, never `/api/usersettings`.
 * Compared by route key, so a trailing slash is ignored and `:id`, `{id}` and `{userId}` are the
 * same segment; the prefix `/` holds every path.
 */
export function isUnderPathPrefix(path: string, prefix: string): boolean {
  const folder = routeKey(prefix);
  if (folder === '/') return true;
  const key = routeKey(path);
  return key === folder || key.startsWith(`${folder}/`);
}
