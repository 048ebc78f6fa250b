import type { AppContext } from '../../src/app/context.js';
import { resolveProject } from '../../src/app/projects.js';
import { ResourceSchema, type Resource } from '../../src/core/model/resource.js';
import { rawRequest, type RawAnswer } from './http.js';

/** Sets a project's resources (resources.json) as a running server sees a change. */
export async function setResources(
  ctx: AppContext,
  project: string,
  change: (current: Resource[]) => Array<Partial<Resource> & Pick<Resource, 'id' | 'name' | 'path'>>,
): Promise<void> {
  const { key } = await resolveProject(ctx, project);
  await ctx.projects.update(key, (cur) => ({
    resources: change(cur.resources).map((r) => ResourceSchema.parse(r)),
    result: undefined,
  }));
}

/** One JSON request to a server. */
export function call(base: string, method: string, path: string, body?: unknown): Promise<RawAnswer> {
  return rawRequest(base, path, {
    method,
    ...(body === undefined
      ? {}
      : {
          headers: { 'content-type': 'application/json' },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
  });
}
