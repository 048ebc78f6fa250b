import * as z from 'zod';
import { ContractRefSchema } from './contract.js';
import { EndpointSchema } from './endpoint.js';
import { described } from './describe.js';
import { PROJECT_DOCS, withoutDefaults } from './descriptions.js';
import { NameSchema, PortSchema, TimestampSchema } from './fields.js';

export const PROJECT_SCHEMA_VERSION = 1;

/** An API's own version (OpenAPI `info.version`): free text, one line. */
export const ApiVersionSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  // eslint-disable-next-line no-control-regex
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'must not contain control characters');

/** project.json as stored on disk (key order here is the order written). */
export const ProjectFileSchema = z.object({
  schemaVersion: z.literal(PROJECT_SCHEMA_VERSION),
  id: z.string().min(1),
  name: NameSchema,
  description: z.string().default(''),
  /** The version of the API the project mocks (an imported document's `info.version`). */
  apiVersion: ApiVersionSchema.optional(),
  port: PortSchema,
  /** Served over HTTPS with the generated certificate by a plain `serve` (absent: HTTP). */
  tls: z.boolean().optional(),
  /** The project's contract (docs/contract.md): its document's file in this folder, and more. */
  contract: ContractRefSchema.optional(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type ProjectFile = z.infer<typeof ProjectFileSchema>;

/** The Project shape of DECISIONS: what `--json` prints and MCP tools return. */
export const ProjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  apiVersion: z.string().optional(),
  port: z.number().int(),
  /** true: a plain `serve` serves HTTPS (absent when not). */
  tls: z.boolean().optional(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
  endpointCount: z.number().int(),
});
export type Project = z.infer<typeof ProjectSchema>;

export const ProjectDetailSchema = ProjectSchema.extend({ endpoints: z.array(EndpointSchema) });
export type ProjectDetail = z.infer<typeof ProjectDetailSchema>;

export const ProjectCreateSchema = described(
  z.object({
    name: NameSchema,
    description: z.string().default(''),
    port: PortSchema.optional(),
  }),
  PROJECT_DOCS,
);
export type ProjectCreate = z.input<typeof ProjectCreateSchema>;

export const ProjectPatchSchema = described(
  z.object({ name: NameSchema, description: z.string(), port: PortSchema, tls: z.boolean() }).partial(),
  withoutDefaults(PROJECT_DOCS),
);
export type ProjectPatch = z.input<typeof ProjectPatchSchema>;
