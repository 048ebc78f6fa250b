import * as z from 'zod';
import {
  addResource,
  getResource,
  listResources,
  removeResource,
  replaceResourceData,
  resetResource,
  resourceData,
  updateResource,
} from '../../app/resources.js';
import {
  ResourceInputSchema,
  ResourceItemSchema,
  ResourcePatchSchema,
  ResourceSchema,
  ResourceSeedSchema,
  type ResourceInput,
  type ResourcePatch,
} from '../../core/model/resource.js';
import { CONTENT_BODY_LIMIT_BYTES } from '../../http/body.js';
import { defineRoute, type Route } from '../route.js';
import { PROJECT_PARAM } from './projects.js';

/**
 * Resources, as `mockdev resource …` (docs/resources.md): a project's stateful collections, their
 * definitions (path, name, id field, seed) and their current items (what the running server
 * holds, written behind to the data directory), replaced or reset to the seed.
 */

const TAG = 'Resources';
const RESOURCE_PARAMS = { ...PROJECT_PARAM, resource: 'Resource id, or its name URL-encoded' };
const BASE = '/projects/{project}/resources';
const ONE = `${BASE}/{resource}`;

/** A resource with how many items it holds now (as `resource list --json`). */
const ResourceViewSchema = ResourceSchema.extend({
  itemCount: z.number().int().describe('How many items the resource holds now'),
});

/** A resource and its current items. */
const ResourceDataSchema = z.object({ resource: ResourceSchema, items: z.array(ResourceItemSchema) });

const REACHES = 'A running server of the project takes the change without a restart (its change feed).';

export const resourceRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: BASE,
    tag: TAG,
    summary: 'A project’s resources, in order, each with its item count (as `resource list --json`)',
    params: PROJECT_PARAM,
    response: { schema: z.array(ResourceViewSchema), description: 'The resources, in order' },
    handle: async ({ ctx, params }) => (await listResources(ctx, params.project!)).resources,
  }),
  defineRoute<ResourceInput>({
    method: 'POST',
    maxBodyBytes: CONTENT_BODY_LIMIT_BYTES,
    path: BASE,
    tag: TAG,
    summary: 'Add a resource at a collection path (as `resource add --json`)',
    description: `The name defaults from the path’s last segment (\`/api/orgs/{org}/users\` → users), which must be a literal; a path or name another resource has is 409. ${REACHES}`,
    params: PROJECT_PARAM,
    body: ResourceInputSchema,
    response: { status: 201, schema: ResourceViewSchema, description: 'The resource created' },
    handle: ({ ctx, params, body }) => addResource(ctx, params.project!, body),
  }),
  defineRoute({
    method: 'GET',
    path: ONE,
    tag: TAG,
    summary: 'One resource (as `resource show --json`)',
    params: RESOURCE_PARAMS,
    response: { schema: ResourceViewSchema, description: 'The resource' },
    handle: ({ ctx, params }) => getResource(ctx, params.project!, params.resource!),
  }),
  defineRoute<ResourcePatch>({
    method: 'PATCH',
    maxBodyBytes: CONTENT_BODY_LIMIT_BYTES,
    path: ONE,
    tag: TAG,
    summary: 'Change a resource’s name, path, id field or seed (as `resource update`)',
    description: `Fields left out stay. A new seed is what the next reset goes back to; the current items stay. ${REACHES}`,
    params: RESOURCE_PARAMS,
    body: ResourcePatchSchema,
    response: { schema: ResourceViewSchema, description: 'The resource as changed' },
    handle: ({ ctx, params, body }) => updateResource(ctx, params.project!, params.resource!, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: ONE,
    tag: TAG,
    summary: 'Remove a resource and its state (as `resource remove -f`)',
    params: RESOURCE_PARAMS,
    response: { schema: ResourceSchema, description: 'The resource removed' },
    handle: ({ ctx, params }) => removeResource(ctx, params.project!, params.resource!),
  }),
  defineRoute({
    method: 'GET',
    path: `${ONE}/data`,
    tag: TAG,
    summary: 'A resource’s current items (as `resource data --json`)',
    description:
      'What the project’s running server holds (written behind within a moment of each change), else what it held when it stopped, else the seed.',
    params: RESOURCE_PARAMS,
    response: { schema: ResourceDataSchema, description: 'The resource and its items, in order' },
    handle: ({ ctx, params }) => resourceData(ctx, params.project!, params.resource!),
  }),
  defineRoute<unknown>({
    method: 'PUT',
    maxBodyBytes: CONTENT_BODY_LIMIT_BYTES,
    path: `${ONE}/data`,
    tag: TAG,
    summary: 'Replace a resource’s items (as `resource data --set FILE.json`)',
    description: `The body is a JSON array of objects. The seed stays (a reset goes back to it). ${REACHES}`,
    params: RESOURCE_PARAMS,
    body: ResourceSeedSchema,
    response: { schema: ResourceDataSchema, description: 'The resource and its items, as saved' },
    handle: ({ ctx, params, body }) => replaceResourceData(ctx, params.project!, params.resource!, body),
  }),
  defineRoute({
    method: 'POST',
    path: `${ONE}/reset`,
    tag: TAG,
    summary: 'Take a resource back to its seed (as `resource reset`)',
    description: REACHES,
    params: RESOURCE_PARAMS,
    response: { schema: ResourceDataSchema, description: 'The resource and its items (the seed)' },
    handle: ({ ctx, params }) => resetResource(ctx, params.project!, params.resource!),
  }),
];
