import type { OpenApiHeader, OpenApiParameter } from '../../core/model/openapi-meta.js';
import { GENERATED } from './mockdev-fields.js';

/**
 * What an import keeps of an operation beyond the endpoint's fields (the endpoint's optional
 * `openapi`, docs/decisions.md): its parameters and its responses' header definitions, with
 * their schemas as plain JSON. Pure: dereferenced document parts in, stored shapes out.
 */

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** The schema of a header: its `schema`, the first media type's (3.x `content`), or itself (Swagger 2). */
export function headerSchema(header: Obj): unknown {
  if (header.schema !== undefined) return header.schema;
  if (isObj(header.content)) {
    const media = Object.values(header.content)[0];
    return isObj(media) ? media.schema : undefined;
  }
  return 'type' in header ? header : undefined;
}

/**
 * A JSON copy of a (dereferenced) schema to store: plain objects and arrays, a cycle cut where it
 * would repeat (`{}`: any value), and no more than a few thousand nodes.
 */
export function plainSchema(value: unknown, budget = { nodes: 5000 }, stack = new Set<unknown>()): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (stack.has(value) || --budget.nodes < 0) return {};
  stack.add(value);
  try {
    if (Array.isArray(value)) return value.map((v) => plainSchema(v, budget, stack));
    const out: Obj = {};
    for (const [k, v] of Object.entries(value)) out[k] = plainSchema(v, budget, stack);
    return out;
  } finally {
    stack.delete(value);
  }
}

const PARAMETER_PLACES = new Set(['query', 'header', 'path', 'cookie']);
/** Swagger 2 parameter fields that are not part of its schema. */
const SWAGGER2_PARAMETER_FIELDS = new Set([
  'name',
  'in',
  'description',
  'required',
  'allowEmptyValue',
  'collectionFormat',
]);

/** One parameter as stored: OpenAPI 3 fields; a Swagger 2 parameter's type fields become its schema. */
function storedParameter(p: unknown, swagger2: boolean): OpenApiParameter | undefined {
  if (!isObj(p) || typeof p.name !== 'string' || !p.name || typeof p.in !== 'string') return undefined;
  if (p[GENERATED] === true) return undefined; // declared by mockdev's export, not by the API
  if (!PARAMETER_PLACES.has(p.in)) return undefined; // body and formData are request bodies
  const out: OpenApiParameter = { name: p.name, in: p.in as OpenApiParameter['in'] };
  if (typeof p.description === 'string') out.description = p.description;
  if (typeof p.required === 'boolean') out.required = p.required;
  if (typeof p.deprecated === 'boolean') out.deprecated = p.deprecated;
  if (typeof p.style === 'string') out.style = p.style;
  if (typeof p.explode === 'boolean') out.explode = p.explode;
  let schema: unknown = p.schema;
  if (swagger2) {
    const own: Obj = {};
    for (const [k, v] of Object.entries(p))
      if (!SWAGGER2_PARAMETER_FIELDS.has(k) && !k.startsWith('x-')) own[k] = v;
    schema = Object.keys(own).length ? own : undefined;
  } else if (schema === undefined && isObj(p.content)) {
    const media = Object.values(p.content)[0];
    schema = isObj(media) ? media.schema : undefined;
  }
  if (isObj(schema) && typeof schema.$ref !== 'string') out.schema = plainSchema(schema) as Obj;
  if (!swagger2 && p.example !== undefined) out.example = plainSchema(p.example);
  return out;
}

/** Path-level parameters, overridden (same name and place) by the operation's own, in order. */
export function storedParameters(item: Obj, op: Obj, swagger2: boolean): OpenApiParameter[] {
  const out: OpenApiParameter[] = [];
  for (const list of [item.parameters, op.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const p = storedParameter(raw, swagger2);
      if (!p) continue;
      const i = out.findIndex((q) => q.name === p.name && q.in === p.in);
      if (i >= 0) out[i] = p;
      else out.push(p);
    }
  }
  return out;
}

/** A response's header definitions (without their values, which the endpoint holds). */
export function headerDefinitions(response: Obj): Record<string, OpenApiHeader> | undefined {
  if (!isObj(response.headers)) return undefined;
  const out: Record<string, OpenApiHeader> = {};
  for (const [name, header] of Object.entries(response.headers)) {
    if (name.toLowerCase() === 'content-type' || !isObj(header) || header[GENERATED] === true) continue;
    const def: OpenApiHeader = {};
    if (typeof header.description === 'string') def.description = header.description;
    if (typeof header.required === 'boolean') def.required = header.required;
    if (typeof header.deprecated === 'boolean') def.deprecated = header.deprecated;
    let schema = headerSchema(header);
    if (schema === header) {
      // Swagger 2: the header is its own schema, less the description.
      const own = { ...header };
      delete own.description;
      schema = own;
    }
    if (isObj(schema) && typeof schema.$ref !== 'string') def.schema = plainSchema(schema) as Obj;
    out[name] = def;
  }
  return Object.keys(out).length ? out : undefined;
}
