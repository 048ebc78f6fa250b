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
