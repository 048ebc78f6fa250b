import type { ContractDialect } from '../model/contract.js';

/**
 * OpenAPI schemas turned into the JSON Schema ajv runs, once per document (docs/contract.md).
 *
 * - 3.0 and 2.0 (draft-04 validator): `nullable` / `x-nullable` add `null` to the type (or the
 *   enum); a numeric `exclusiveMinimum` becomes draft-04's boolean form; Swagger's `type: file`
 *   takes anything. 3.1 (2020-12): a boolean `exclusiveMinimum` becomes the numeric form.
 * - `readOnly` properties may not be sent in a request, `writeOnly` ones not in a response (and
 *   are not required there).
 * - `discriminator` over `oneOf`/`anyOf`: the property's value picks the branch (the mapping, or
 *   the component's name), as ajv's discriminator keyword runs it.
 * - Annotations (`example`, `description`, `x-…`, `$id`, `$defs`, …) are left out.
 *
 * The document arrives dereferenced, with object cycles for recursive schemas: a schema met again
 * inside itself becomes a `$ref` to a schema registered under its own name. Each converted node
 * remembers where it stands in the document (a JSON pointer), so a violation names the rule in
 * the document as written.
 */

export type Direction = 'request' | 'response';

/** Where a converted node stands in the document, and what a violation there is called. */
export interface NodeMeta {
  /** JSON pointer (`#/paths/~1pets/get/…/schema`) of the node. */
  pointer: string;
  /** The rule a violation at this node names (otherwise the ajv keyword). */
  rule?: string;
  /** `pointer` names the rule itself: no keyword is appended. */
  exact?: boolean;
  /** What the document asks for there (the discriminator's values). */
  expected?: unknown;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Escapes one JSON pointer segment. */
export const esc = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Keywords holding one subschema. */
const ONE = new Set([
  'additionalProperties',
  'additionalItems',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
]);
/** Keywords holding a list of subschemas. */
const LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Keywords holding subschemas by name. */
const MAP = new Set(['properties', 'patternProperties', 'dependentSchemas']);
/** What never reaches the validator. */
const DROPPED = new Set([
  'nullable',
  'x-nullable',
  'readOnly',
  'writeOnly',
  'discriminator',
  'example',
  'examples',
  'xml',
  'externalDocs',
  'deprecated',
  'description',
  'title',
  'default',
  '$id',
  'id',
  '$schema',
  '$anchor',
  '$dynamicAnchor',
  '$dynamicRef',
  '$ref',
  '$comment',
  '$defs',
  'definitions',
  // Swagger 2.0 parameter fields, when a parameter is read as its own schema.
  'name',
  'in',
  'collectionFormat',
  'allowEmptyValue',
]);

export interface ConverterOptions {
  dialect: ContractDialect;
  direction: Direction;
  /** Names the registered schemas start with (one namespace per converter). */
  namespace: string;
  /** The dereferenced document (discriminator mappings are pointers into it). */
  document: Obj;
  /** The component (3.x) or definition (2.0) name of each named schema object. */
  componentNames: Map<object, string>;
  meta: WeakMap<object, NodeMeta>;
}

export class SchemaConverter {
  /**
   * Schemas met inside themselves: their registered name. Per root schema, so that each place
   * a recursive schema is used at has violations pointing there.
   */
  private names = new Map<object, string>();
  private count = 0;
  private readonly stack = new Map<object, { name?: string }>();
  /** The schemas to register (under their names) before anything is compiled. */
  readonly named: { name: string; schema: Obj }[] = [];

  constructor(private readonly o: ConverterOptions) {}

  /** The validator's schema for `node`, found at `pointer` in the document. */
  convert(node: unknown, pointer: string): Obj {
    if (node === true || node === undefined) return this.mark({}, { pointer });
    if (!isObj(node)) return this.mark({ not: {} }, { pointer, rule: 'schema', exact: true });
    if (this.stack.size === 0) this.names = new Map();
    const known = this.names.get(node);
    if (known) return { $ref: known };
    const frame = this.stack.get(node);
    if (frame) {
      const name = `${this.o.namespace}${++this.count}`;
      this.names.set(node, name);
      frame.name = name;
      return { $ref: name };
    }
    const own: { name?: string } = {};
    this.stack.set(node, own);
    const out = this.object(node, pointer);
    this.stack.delete(node);
    if (own.name) {
      const copy = { ...out };
      this.o.meta.set(copy, this.o.meta.get(out)!);
      this.named.push({ name: own.name, schema: copy });
    }
    return out;
  }

  private mark(out: Obj, meta: NodeMeta): Obj {
    this.o.meta.set(out, meta);
    return out;
  }

  private object(node: Obj, pointer: string): Obj {
    const { dialect, direction } = this.o;
    const out: Obj = {};
    this.mark(out, { pointer });
    const hidden = direction === 'request' ? 'readOnly' : 'writeOnly';
    const hiddenProps = new Set<string>();
    for (const key of Object.keys(node)) {
      const v = node[key];
      if (DROPPED.has(key) || key.startsWith('x-')) continue;
      const at = `${pointer}/${esc(key)}`;
      if (MAP.has(key) && isObj(v)) {
        const props: Obj = {};
        for (const name of Object.keys(v)) {
          const sub = v[name];
          if (key === 'properties' && isObj(sub) && sub[hidden] === true) {
            hiddenProps.add(name);
            props[name] = this.mark(
              { not: {} },
              { pointer: `${at}/${esc(name)}/${hidden}`, rule: hidden, exact: true },
            );
          } else props[name] = this.convert(sub, `${at}/${esc(name)}`);
        }
        out[key] = props;
      } else if (LIST.has(key) && Array.isArray(v)) {
        out[key] = v.map((sub, i) => this.convert(sub, `${at}/${i}`));
      } else if (ONE.has(key) && (isObj(v) || typeof v === 'boolean')) {
        // ajv takes boolean schemas in every draft: `additionalProperties: false` stays as written.
        out[key] = typeof v === 'boolean' ? v : this.convert(v, at);
      } else if (key === 'items') {
        out.items = Array.isArray(v)
          ? v.map((sub, i) => this.convert(sub, `${at}/${i}`))
          : this.convert(v, at);
      } else if (key === 'required' && !Array.isArray(v)) {
        continue;
      } else if (key === 'type') {
        if (v !== 'file') out.type = v;
      } else if (key === 'exclusiveMinimum' || key === 'exclusiveMaximum') {
        this.exclusive(out, node, key, v);
      } else {
        out[key] = v;
      }
    }
    if (hiddenProps.size && Array.isArray(out.required)) {
      out.required = (out.required as unknown[]).filter((n) => !hiddenProps.has(String(n)));
    }
    if (isObj(node.discriminator)) this.discriminator(node, out, pointer);
    const nullable =
      dialect === '2.0' ? node['x-nullable'] === true : dialect === '3.0' && node.nullable === true;
    return nullable ? this.nullable(out) : out;
  }

  /** Draft-04 wants the boolean form (`minimum` + `exclusiveMinimum: true`), 2020-12 the number. */
  private exclusive(out: Obj, node: Obj, key: 'exclusiveMinimum' | 'exclusiveMaximum', v: unknown): void {
    const limit = key === 'exclusiveMinimum' ? 'minimum' : 'maximum';
    if (this.o.dialect === '3.1') {
      if (typeof v === 'number') out[key] = v;
      else if (v === true && typeof node[limit] === 'number') {
        out[key] = node[limit];
        delete out[limit];
      }
    } else if (typeof v === 'boolean') out[key] = v;
    else if (typeof v === 'number' && node[limit] === undefined) {
      out[limit] = v;
      out[key] = true;
    }
  }

  private nullable(out: Obj): Obj {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (Array.isArray(out.type)) {
      if (!out.type.includes('null')) out.type = [...(out.type as unknown[]), 'null'];
    } else if (out.enum === undefined) {
      return this.mark({ anyOf: [{ type: 'null' }, out] }, this.o.meta.get(out)!);
    }
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...(out.enum as unknown[]), null];
    return out;
  }

  /**
   * The branch each value of the discriminator's property picks: the mapping's, then the
   * component's name. When a branch has no value, or two share one, the plain `oneOf` stays.
   */
  private discriminator(node: Obj, out: Obj, pointer: string): void {
    const d = node.discriminator as Obj;
    const tag = d.propertyName;
    const key = Array.isArray(node.oneOf) ? 'oneOf' : Array.isArray(node.anyOf) ? 'anyOf' : undefined;
    if (typeof tag !== 'string' || !key) return;
    const branches = node[key] as unknown[];
    const values: string[][] = branches.map(() => []);
    if (isObj(d.mapping)) {
      for (const [value, target] of Object.entries(d.mapping)) {
        const schema = typeof target === 'string' ? this.mapped(target) : undefined;
        const i = schema ? branches.indexOf(schema) : -1;
        if (i !== -1) values[i]!.push(value);
      }
    }
    branches.forEach((b, i) => {
      const name = isObj(b) ? this.o.componentNames.get(b) : undefined;
      if (!values[i]!.length && name) values[i]!.push(name);
    });
    const all = values.flat();
    if (values.some((v) => !v.length) || new Set(all).size !== all.length) return;
    const converted = out[key] as Obj[];
    out.oneOf = converted.map((branch, i) =>
      this.mark(
        {
          type: 'object',
          properties: {
            [tag]: this.mark(
              { enum: values[i] },
              { pointer: `${pointer}/discriminator`, rule: 'discriminator', exact: true },
            ),
          },
          required: [tag],
          allOf: [branch],
        },
        { pointer: `${pointer}/${key}/${i}` },
      ),
    );
    if (key === 'anyOf') delete out.anyOf;
    out.discriminator = { propertyName: tag };
    this.o.meta.set(out, { pointer, expected: all });
  }

  /** The schema a mapping value names: `#/components/schemas/Dog` or `Dog`. */
  private mapped(target: string): unknown {
    if (target.startsWith('#/')) {
      let at: unknown = this.o.document;
      for (const seg of target.slice(2).split('/')) {
        const key = decodeURIComponent(seg).replace(/~1/g, '/').replace(/~0/g, '~');
        at = isObj(at) ? at[key] : undefined;
      }
      return at;
    }
    const doc = this.o.document;
    const schemas =
      this.o.dialect === '2.0' ? doc.definitions : isObj(doc.components) ? doc.components.schemas : undefined;
    return isObj(schemas) ? schemas[target] : undefined;
  }
}

/** The name of each schema of `components.schemas` (3.x) or `definitions` (2.0), by object. */
export function componentNamesOf(document: Obj, dialect: ContractDialect): Map<object, string> {
  const names = new Map<object, string>();
  const schemas =
    dialect === '2.0'
      ? document.definitions
      : isObj(document.components)
        ? document.components.schemas
        : undefined;
  if (isObj(schemas))
    for (const [name, s] of Object.entries(schemas)) if (isObj(s) && !names.has(s)) names.set(s, name);
  return names;
}
