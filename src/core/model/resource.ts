import * as z from 'zod';
import { described } from './describe.js';
import { NameSchema, PathSchema } from './fields.js';

/**
 * Resources (issue 26; docs/resources.md): a collection at a path that a running server answers
 * with CRUD and state (GET list / GET one / POST / PUT / PATCH / DELETE), kept in the project's
 * `resources.json` beside `endpoints.json`. The definition (this file) holds the seed; the
 * current items are the serving process's state, written behind to the data directory
 * (ResourceStateStore, core/ports-serving.ts) and read back as `currentItems` says
 * (core/resources/state.ts).
 */

/** One item of a resource: a JSON object. */
export const ResourceItemSchema = z.record(z.string(), z.unknown());
export type ResourceItem = z.infer<typeof ResourceItemSchema>;

// eslint-disable-next-line no-control-regex
const BAD_ID_FIELD_CHAR = /[\u0000-\u001f\u007f.]/;

/** A field name an item's id is kept in: top-level, one line. */
export const IdFieldSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  .refine(
    (s) => !BAD_ID_FIELD_CHAR.test(s),
    'must be a top-level field name (no dots or control characters)',
  );

/** The seed: a JSON array of objects (the items a reset goes back to). */
export const ResourceSeedSchema = z.array(ResourceItemSchema, {
  error: 'must be a JSON array of objects',
});

/** Descriptions of the resource fields, for MCP, the admin API's document and the CLI's help. */
export const RESOURCE_DOCS = {
  id: { text: 'Stable id of the resource (made by mockdev).' },
  name: { text: 'Name of the resource, unique in its project (default: the last segment of its path).' },
  path: {
    text: 'Collection path, e.g. /api/users (parameters allowed before it: /api/orgs/{org}/users). Items are at PATH/{id}.',
  },
  idField: { text: "Top-level field holding each item's id (default id)." },
  seed: { text: 'The items a new or reset resource starts with: a JSON array of objects.' },
  revision: {
    text: 'Bumped by a reset or a replacement of the data: a running server then takes the staged data or the seed again.',
  },
} as const;

const resourceFields = z.object({
  id: z.string().min(1),
  name: NameSchema,
  path: PathSchema,
  idField: IdFieldSchema.default('id'),
  seed: ResourceSeedSchema.default([]),
  revision: z.number().int().min(0).default(0),
});
export const ResourceSchema = described(resourceFields, RESOURCE_DOCS);
export type Resource = z.infer<typeof ResourceSchema>;

/** resources.json: names unique (case-insensitive), ids unique, paths unique. */
export const ResourceListSchema = z.array(ResourceSchema).superRefine((list, ctx) => {
  const seen = { name: new Set<string>(), id: new Set<string>(), path: new Set<string>() };
  list.forEach((r, i) => {
    const keys = { name: r.name.toLowerCase(), id: r.id, path: r.path };
    for (const field of ['name', 'id', 'path'] as const) {
      if (seen[field].has(keys[field]))
        ctx.addIssue({ code: 'custom', message: `another resource has this ${field}`, path: [i, field] });
      seen[field].add(keys[field]);
    }
  });
});

/** What a caller gives to add a resource. */
export const ResourceInputSchema = described(
  z.object({
    path: PathSchema,
    name: NameSchema.optional(),
    idField: IdFieldSchema.default('id'),
    seed: ResourceSeedSchema.default([]),
  }),
  RESOURCE_DOCS,
);
export type ResourceInput = z.input<typeof ResourceInputSchema>;

/** A change to a resource's definition; fields left out stay. */
export const ResourcePatchSchema = described(
  z
    .object({ name: NameSchema, path: PathSchema, idField: IdFieldSchema, seed: ResourceSeedSchema })
    .partial(),
  RESOURCE_DOCS,
);
export type ResourcePatch = z.input<typeof ResourcePatchSchema>;

/**
 * The state a serving process keeps of one resource, as written behind to the store: the
 * definition's revision it belongs to, and the items in order.
 */
export const ResourceStateSchema = z.object({
  revision: z.number().int().min(0),
  items: z.array(ResourceItemSchema),
});
export type ResourceState = z.infer<typeof ResourceStateSchema>;
