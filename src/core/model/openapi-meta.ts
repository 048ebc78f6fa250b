import * as z from 'zod';

/**
 * What an OpenAPI import keeps of an operation beyond the endpoint's own fields, so that an
 * export writes it back: the operationId, the parameters (query, header, path, cookie) and the
 * response header definitions. Optional on an endpoint: endpoints made any other way have none,
 * and their export is what it always was (docs/decisions.md "OpenAPI facts on endpoints").
 */

/** A JSON Schema as the document wrote it (references resolved, cycles cut). */
export const OpenApiSchemaValueSchema = z.record(z.string(), z.unknown());

export const OpenApiParameterSchema = z.object({
  name: z.string().min(1, 'must not be empty'),
  in: z.enum(['query', 'header', 'path', 'cookie']),
  description: z.string().optional(),
  required: z.boolean().optional(),
  deprecated: z.boolean().optional(),
  /** OpenAPI serialisation of the value: `form`, `deepObject`, …; `explode`. */
  style: z.string().optional(),
  explode: z.boolean().optional(),
  schema: OpenApiSchemaValueSchema.optional(),
  example: z.unknown().optional(),
});
export type OpenApiParameter = z.infer<typeof OpenApiParameterSchema>;

/** A response header definition; its value is the endpoint's (or variation's) header. */
export const OpenApiHeaderSchema = z.object({
  description: z.string().optional(),
  required: z.boolean().optional(),
  deprecated: z.boolean().optional(),
  schema: OpenApiSchemaValueSchema.optional(),
});
export type OpenApiHeader = z.infer<typeof OpenApiHeaderSchema>;

export const OpenApiOperationSchema = z.object({
  operationId: z.string().min(1).optional(),
  /** In the document's order: path-level parameters first, overridden by the operation's own. */
  parameters: z.array(OpenApiParameterSchema).optional(),
  /** Header definitions by response status ("200", "404"), header names as the document wrote them. */
  responseHeaders: z.record(z.string(), z.record(z.string(), OpenApiHeaderSchema)).optional(),
});
export type OpenApiOperation = z.infer<typeof OpenApiOperationSchema>;
