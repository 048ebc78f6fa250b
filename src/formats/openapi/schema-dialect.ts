/**
 * Schemas kept from one OpenAPI version, written into a document of another. OpenAPI 3.0 takes
 * a subset of JSON Schema with its own `nullable`; 3.1 takes JSON Schema 2020-12. An export
 * writes each kept schema in the words of the version it writes, saying the same thing where
 * it can (a type list with "null" is `nullable`, `const` is a one-value `enum`, the first of
 * `examples` is `example`) and leaving out what 3.0 has no word for (`$id`, `$defs`, …).
 * Pure: schema in, new schema out.
 */

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** The fields of an OpenAPI 3.0 Schema Object (anything else, but `x-…`, is refused there). */
const OAS30_FIELDS = new Set([
  'title',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxProperties',
  'minProperties',
  'required',
  'enum',
  'type',
  'not',
  'allOf',
  'oneOf',
  'anyOf',
  'items',
  'properties',
  'additionalProperties',
  'description',
  'format',
  'default',
  'nullable',
  'discriminator',
  'readOnly',
  'writeOnly',
  'example',
  'externalDocs',
  'deprecated',
  'xml',
]);

/** Keywords whose value is one schema, and those whose value is a list or a map of them. */
const ONE = ['not', 'items', 'additionalProperties', 'contains', 'if', 'then', 'else', 'propertyNames'];
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

function subschemas(s: Obj, convert: (v: unknown) => unknown): Obj {
  const out: Obj = { ...s };
  for (const k of ONE) if (isObj(out[k])) out[k] = convert(out[k]);
  for (const k of LIST) if (Array.isArray(out[k])) out[k] = (out[k] as unknown[]).map(convert);
  for (const k of MAP)
    if (isObj(out[k]))
      out[k] = Object.fromEntries(Object.entries(out[k] as Obj).map(([name, v]) => [name, convert(v)]));
  return out;
}

function toOas30(schema: unknown): unknown {
  if (!isObj(schema)) return schema === false ? { not: {} } : {};
  const s = subschemas(schema, toOas30);
  if (Array.isArray(s.type)) {
    const types = s.type as unknown[];
    const kinds = types.filter((t) => t !== 'null');
    if (kinds.length < types.length) s.nullable = true;
    delete s.type;
    if (kinds.length === 1) s.type = kinds[0];
    else if (kinds.length > 1)
      s.anyOf = [...kinds.map((type) => ({ type })), ...((s.anyOf as unknown[]) ?? [])];
  } else if (s.type === 'null') {
    delete s.type;
    s.nullable = true;
  }
  if (Array.isArray(s.examples) && s.examples.length && s.example === undefined) s.example = s.examples[0];
  if (s.const !== undefined && s.enum === undefined) s.enum = [s.const];
  for (const [bound, exclusive] of [
    ['minimum', 'exclusiveMinimum'],
    ['maximum', 'exclusiveMaximum'],
  ] as const) {
    if (typeof s[exclusive] === 'number') {
      if (s[bound] === undefined) s[bound] = s[exclusive];
      s[exclusive] = true;
    }
  }
  if (Array.isArray(s.items)) s.items = s.items.length ? s.items[0] : {};
  for (const key of Object.keys(s)) if (!OAS30_FIELDS.has(key) && !key.startsWith('x-')) delete s[key];
  return s;
}

function toOas31(schema: unknown): unknown {
  if (!isObj(schema)) return schema;
  const s = subschemas(schema, toOas31);
  if (s.nullable === true && typeof s.type === 'string') s.type = [s.type, 'null'];
  if (typeof s.nullable === 'boolean' && (Array.isArray(s.type) || s.nullable === false)) delete s.nullable;
  for (const [bound, exclusive] of [
    ['minimum', 'exclusiveMinimum'],
    ['maximum', 'exclusiveMaximum'],
  ] as const) {
    if (s[exclusive] === true && typeof s[bound] === 'number') {
      s[exclusive] = s[bound];
      delete s[bound];
    } else if (s[exclusive] === false) delete s[exclusive];
  }
  return s;
}

/** `schema` as the OpenAPI version `version` (3.0 or 3.1) writes it. */
export function schemaForVersion(schema: Obj, version: '3.0' | '3.1'): Obj {
  return (version === '3.0' ? toOas30(schema) : toOas31(schema)) as Obj;
}
