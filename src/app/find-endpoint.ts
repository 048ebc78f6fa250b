import { MockdevError } from '../core/errors.js';
import { compileRoutes } from '../core/match/router.js';
import type { Endpoint } from '../core/model/endpoint.js';
import { parseMethod } from '../core/model/fields.js';
import type { AppContext } from './context.js';
import { resolveProject, type ResolveOptions } from './projects.js';

/**
 * The endpoint that answers METHOD PATH, with the path parameters it captures, using the mock
 * server's own matching rules (`/api/users/42` finds `/api/users/{id}`). When no enabled
 * endpoint answers, a disabled one that would is returned (so it can be found and enabled).
 * Null when none matches.
 */
export async function findEndpoint(
  ctx: AppContext,
  projectRef: string,
  method: string,
  path: string,
  options?: ResolveOptions,
): Promise<{ endpoint: Endpoint; params: Record<string, string> } | null> {
  const wantedMethod = parseMethod(method);
  if (typeof path !== 'string' || path.trim() === '') {
    throw new MockdevError('INVALID_ARGUMENT', 'A path is required, e.g. /api/users/42', {
      details: { field: 'path' },
    });
  }
  const wanted = path.trim().startsWith('/') ? path.trim() : `/${path.trim()}`;
  const { endpoints } = await resolveProject(ctx, projectRef, options);
  const enabled = compileRoutes(endpoints).match(wantedMethod, wanted);
  if (enabled) return enabled;
  const any = compileRoutes(endpoints.map((e) => ({ ...e, enabled: true }))).match(wantedMethod, wanted);
  if (!any) return null;
  return { endpoint: endpoints.find((e) => e.id === any.endpoint.id)!, params: any.params };
}
