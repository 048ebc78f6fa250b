/**
 * What kind of object each position of an OpenAPI document holds, as far as references care
 * (refs.ts): OpenAPI objects, schemas, maps of them (whose keys are names, never keywords),
 * examples, and data, which is never entered (example values, `enum`, `const`, `default`,
 * `x-…` extensions). Pure.
 */

import type { Dialect } from './ref-resolver.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * What kind of object a position of an OpenAPI document holds, as far as references care:
 * OpenAPI objects, schemas, maps of them (whose keys are names, never keywords), examples, and
 * data (never entered).
 */
export type Kind =
  | 'oas'
  | 'oasMap'
  | 'oasMapExt'
  | 'components'
  | 'callbacks'
  | 'examples'
  | 'example'
  | 'schema'
  | 'schemaMap'
  | 'data';

const OAS_MAPS = new Set([
  'headers',
  'content',
  'encoding',
  'links',
  'variables',
  'webhooks',
  'securitySchemes',
  'securityDefinitions',
  'scopes',
  'pathItems',
]);
const SCHEMA_DATA = new Set(['example', 'examples', 'const', 'enum', 'default']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Siblings of a `$ref` that only describe: laid over the target rather than applied with it. */
export const ANNOTATIONS = new Set([
  'description',
  'summary',
  'title',
  'example',
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'nullable',
  '$comment',
  '$anchor',
  '$dynamicAnchor',
  'externalDocs',
  'xml',
]);

export function childKind(kind: Kind, key: string, dialect: Dialect): Kind {
  switch (kind) {
    case 'schema':
      if (SCHEMA_DATA.has(key) || key.startsWith('x-')) return 'data';
      return SCHEMA_MAPS.has(key) ? 'schemaMap' : 'schema';
    case 'schemaMap':
      return 'schema';
    case 'oasMap':
      return 'oas';
    case 'oasMapExt':
      return key.startsWith('x-') ? 'data' : 'oas';
    case 'callbacks':
      return 'oasMapExt';
    case 'examples':
      return 'example';
    case 'example':
      return key === 'value' || key.startsWith('x-') ? 'data' : 'oas';
    case 'components':
      if (key.startsWith('x-')) return 'data';
      if (key === 'schemas') return 'schemaMap';
      if (key === 'examples') return 'examples';
      if (key === 'callbacks') return 'callbacks';
      return 'oasMap';
    case 'oas':
      if (key.startsWith('x-')) return 'data';
      switch (key) {
        case 'schema':
          return 'schema';
        case 'example':
        case 'default':
        case 'enum':
          return 'data';
        case 'examples':
          return dialect === '2.0' ? 'data' : 'examples';
        case 'components':
          return 'components';
        case 'definitions':
          return 'schemaMap';
        case 'paths':
        case 'responses':
          return 'oasMapExt';
        case 'callbacks':
          return 'callbacks';
        default:
          return OAS_MAPS.has(key) ? 'oasMap' : 'oas';
      }
    default:
      return 'data';
  }
}

/** The kind of a document's top level: an OpenAPI document, else a schema or a map of parts. */
export function rootKind(value: unknown): Kind {
  if (!isObj(value)) return 'oas';
  if ('openapi' in value || 'swagger' in value || 'paths' in value) return 'oas';
  const schemaWords = ['type', 'properties', 'allOf', 'oneOf', 'anyOf', 'items', '$id', '$schema', '$defs'];
  return schemaWords.some((k) => k in value) ? 'schema' : 'oas';
}
