import type * as z from 'zod';
import type { FieldDoc, FieldDocs } from './descriptions.js';

/** A field's words as a schema gives them: its text, and its default where it may be left out. */
export const docText = (doc: FieldDoc, mayBeLeftOut: boolean): string =>
  `${doc.text}${mayBeLeftOut && doc.default ? ` (default: ${doc.default})` : ''}.`;

/**
 * The object schema with its fields described in the words of `docs` (descriptions.ts), so that
 * every JSON Schema made of it (MCP tool inputs, the admin API's OpenAPI document) carries them.
 * The rules stay the schema's; a field `docs` has no words for keeps its own.
 */
export function described<S extends z.ZodObject>(schema: S, docs: FieldDocs): S {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const doc = docs[key];
    if (doc) shape[key] = field.describe(docText(doc, field.safeParse(undefined).success));
  }
  return schema.extend(shape) as unknown as S;
}
