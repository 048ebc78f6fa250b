import type { ContractDialect } from '../model/contract.js';
import { FORM, type CompiledMedia } from './bodies.js';
import { operationMatcher, type OperationMatcher } from './match.js';
import { operationsOf, type MediaSpec, type OpSpec, type ParamSpec } from './operations.js';
import { componentNamesOf, SchemaConverter, type Direction, type NodeMeta } from './schema.js';
import { compileSchema, newAjvPair, type AjvInstance, type Checker } from './validators.js';

/**
 * Compiling a document: every schema an operation uses converted (schema.ts) and compiled by
 * ajv, once; a schema several operations share (a component) is compiled once and used at each
 * place with that place's pointer. What `check` needs per operation is laid out here, so that
 * checking a request runs compiled code only.
 */

type Obj = Record<string, unknown>;

export interface CompiledResponse {
  key: string;
  pointer: string;
  mediaPointer: string;
  headers: ParamSpec[];
  /** Present headers, coerced: `{ header: { 'x-rate': … } }`. */
  headerChecker?: Checker;
  media: CompiledMedia[];
}

export interface CompiledBody {
  required: boolean;
  pointer: string;
  mediaPointer: string;
  media: CompiledMedia[];
}

export interface CompiledOperation {
  spec: OpSpec;
  method: string;
  path: string;
  params: ParamSpec[];
  /** Present parameters, coerced: `{ path: {…}, query: {…}, header: {…}, cookie: {…} }`. */
  paramChecker?: Checker;
  body?: CompiledBody;
  /** By key: `200`, `2XX`, `DEFAULT`. */
  responses: Map<string, CompiledResponse>;
  /** The declared keys as written (for a `status` violation). */
  statuses: string[];
}

export interface CompiledDocument {
  ops: CompiledOperation[];
  matcher: OperationMatcher<CompiledOperation>;
  meta: WeakMap<object, NodeMeta>;
}

/** A schema to compile, and who waits for its checker. */
interface Pending {
  ajv: AjvInstance;
  schema: Obj;
  base: string;
  set: (c: Checker) => void;
}

/** The key a parameter goes by in its place's object: a header's lower-case name. */
export const paramKey = (p: ParamSpec): string => (p.in === 'header' ? p.name.toLowerCase() : p.name);

export function compileDocument(doc: Obj, dialect: ContractDialect): CompiledDocument {
  const meta = new WeakMap<object, NodeMeta>();
  const ajv = newAjvPair(dialect);
  const componentNames = componentNamesOf(doc, dialect);
  const converter = (direction: Direction, namespace: string) =>
    new SchemaConverter({ dialect, direction, namespace, document: doc, componentNames, meta });
  const conv = {
    requestBody: converter('request', 'mockdev:request-body:'),
    responseBody: converter('response', 'mockdev:response-body:'),
    requestParams: converter('request', 'mockdev:request-params:'),
    responseHeaders: converter('response', 'mockdev:response-headers:'),
  };
  const pending: Pending[] = [];
  /** Converted body schemas by source object, per converter (components shared by operations). */
  const shared = new Map<
    SchemaConverter,
    Map<object, { schema: Obj; base: string; checker?: Checker; waiting: ((c: Checker) => void)[] }>
  >();

  const bodyChecker = (
    c: SchemaConverter,
    instance: AjvInstance,
    m: MediaSpec,
    set: (ch: Checker) => void,
  ) => {
    const source = m.schema;
    if (source === undefined) return;
    let byObject = shared.get(c);
    if (!byObject) shared.set(c, (byObject = new Map()));
    const key = typeof source === 'object' && source !== null ? source : undefined;
    const known = key ? byObject.get(key) : undefined;
    if (known) {
      known.waiting.push(set);
      return;
    }
    const entry = { schema: c.convert(source, m.schemaPointer), base: m.schemaPointer, waiting: [set] };
    if (key) byObject.set(key, entry);
    pending.push({
      ajv: instance,
      schema: entry.schema,
      base: entry.base,
      set: (ch) => entry.waiting.forEach((w) => w(ch)),
    });
  };

  const compileMedia = (
    list: MediaSpec[],
    direction: Direction,
    form?: Map<string, string>,
  ): CompiledMedia[] =>
    list.map((m) => {
      const out: CompiledMedia = { type: m.type, prefix: m.schemaPointer };
      const c = direction === 'request' ? conv.requestBody : conv.responseBody;
      const formLike = m.type === FORM || m.type === 'application/*' || m.type === '*/*';
      if (form && m.schema !== undefined) {
        // Swagger 2.0 formData: each property is its own parameter, with its own pointer.
        const schema = m.schema as { properties: Obj; required?: string[] };
        const props: Obj = {};
        for (const [name, s] of Object.entries(schema.properties)) {
          props[name] = conv.requestParams.convert(s, form.get(name)!);
        }
        const root: Obj = {
          type: 'object',
          properties: props,
          ...(schema.required ? { required: schema.required } : {}),
        };
        meta.set(root, { pointer: m.schemaPointer });
        pending.push({ ajv: ajv.coerced, schema: root, base: m.schemaPointer, set: (ch) => (out.form = ch) });
        return out;
      }
      if (m.type !== FORM) bodyChecker(c, ajv.plain, m, (ch) => (out.plain = ch));
      if (formLike && m.schema !== undefined) {
        const schema = conv.requestParams.convert(m.schema, m.schemaPointer);
        pending.push({ ajv: ajv.coerced, schema, base: m.schemaPointer, set: (ch) => (out.form = ch) });
      }
      return out;
    });

  /** One object schema for a list of parameters, by place. */
  const paramsSchema = (params: ParamSpec[], c: SchemaConverter, pointer: string): Obj | undefined => {
    const places: Record<string, Obj> = {};
    let any = false;
    for (const p of params) {
      if (p.schema === undefined) continue;
      const place = (places[p.in] ??= {});
      place[paramKey(p)] = c.convert(p.schema, p.schemaPointer);
      any = true;
    }
    if (!any) return undefined;
    const properties: Obj = {};
    for (const [place, props] of Object.entries(places)) {
      properties[place] = { type: 'object', properties: props };
      meta.set(properties[place] as object, { pointer });
    }
    const root = { type: 'object', properties };
    meta.set(root, { pointer });
    return root;
  };

  const ops: CompiledOperation[] = operationsOf(doc, dialect).map((spec) => {
    const op: CompiledOperation = {
      spec,
      method: spec.method,
      path: spec.path,
      params: spec.params,
      responses: new Map(),
      statuses: [],
    };
    const ps = paramsSchema(spec.params, conv.requestParams, `${spec.pointer}/parameters`);
    if (ps)
      pending.push({ ajv: ajv.coerced, schema: ps, base: spec.pointer, set: (ch) => (op.paramChecker = ch) });
    if (spec.body) {
      op.body = {
        required: spec.body.required,
        pointer: spec.body.pointer,
        mediaPointer: spec.body.mediaPointer,
        media: compileMedia(spec.body.media, 'request', spec.body.formPointers),
      };
    }
    for (const r of spec.responses) {
      const cr: CompiledResponse = {
        key: r.key,
        pointer: r.pointer,
        mediaPointer: r.mediaPointer,
        headers: r.headers,
        media: compileMedia(r.media, 'response'),
      };
      const hs = paramsSchema(r.headers, conv.responseHeaders, `${r.pointer}/headers`);
      if (hs)
        pending.push({ ajv: ajv.coerced, schema: hs, base: r.pointer, set: (ch) => (cr.headerChecker = ch) });
      op.responses.set(r.key, cr);
      op.statuses.push(r.key === 'DEFAULT' ? 'default' : r.key);
    }
    return op;
  });

  // The schemas met inside themselves, registered by name before anything refers to them.
  for (const c of [conv.requestBody, conv.responseBody])
    for (const n of c.named) ajv.plain.addSchema(n.schema, n.name);
  for (const c of [conv.requestParams, conv.responseHeaders, conv.requestBody, conv.responseBody]) {
    for (const n of c.named) ajv.coerced.addSchema(n.schema, n.name);
  }
  for (const p of pending) p.set(compileSchema(p.ajv, p.schema, p.base));

  return { ops, matcher: operationMatcher(doc, dialect, ops), meta };
}
