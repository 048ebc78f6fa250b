import type { ContractDialect } from '../model/contract.js';
import { esc } from './schema.js';

/**
 * The operations of a document in one shape, whatever its version: Swagger 2.0's `in: body`,
 * `formData`, `collectionFormat`, `consumes` / `produces` and inline parameter types read as
 * OpenAPI 3's request bodies, styles and schemas. Path-level parameters apply to each operation
 * unless it declares its own of the same name and place.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export type Place = 'path' | 'query' | 'header' | 'cookie';
export type Shape = 'array' | 'object' | 'primitive';

export interface ParamSpec {
  /** As written; a header's is compared lower-case. */
  name: string;
  in: Place;
  required: boolean;
  /** Pointer of the parameter (or response header) object. */
  pointer: string;
  schema: unknown;
  schemaPointer: string;
  /** form, simple, label, matrix, spaceDelimited, pipeDelimited, deepObject. */
  style: string;
  explode: boolean;
  shape: Shape;
  /** An array's separator when not exploded; 'multi': repeated keys (2.0 `collectionFormat: multi`). */
  separator: string;
  /** The value is JSON (a 3.x parameter with `content`). */
  json: boolean;
}

export interface MediaSpec {
  /** `application/json`, `application/*`, `*\/*` (lower-case, no parameters). */
  type: string;
  schema?: unknown;
  schemaPointer: string;
}

export interface BodySpec {
  required: boolean;
  pointer: string;
  media: MediaSpec[];
  /** Where the media types are declared (`…/requestBody/content`, 2.0's `consumes`). */
  mediaPointer: string;
  /** A 2.0 form: the form's object schema built from the `formData` parameters (pointer by property). */
  formPointers?: Map<string, string>;
}

export interface ResponseSpec {
  /** `200`, `2XX`, `default`. */
  key: string;
  pointer: string;
  headers: ParamSpec[];
  media: MediaSpec[];
  /** Where the media types are declared (`…/content`, 2.0's `produces`). */
  mediaPointer: string;
}

export interface OpSpec {
  operation: string;
  method: string;
  path: string;
  operationId?: string;
  pointer: string;
  params: ParamSpec[];
  body?: BodySpec;
  responses: ResponseSpec[];
}

export function shapeOf(schema: unknown): Shape {
  if (!isObj(schema)) return 'primitive';
  const t = schema.type;
  const types = Array.isArray(t) ? t : [t];
  if (types.includes('array') || (t === undefined && schema.items !== undefined)) return 'array';
  if (types.includes('object') || (t === undefined && isObj(schema.properties))) return 'object';
  return 'primitive';
}

const SEPARATORS: Record<string, string> = { csv: ',', ssv: ' ', tsv: '\t', pipes: '|', multi: 'multi' };
const STYLE_SEPARATORS: Record<string, string> = { spaceDelimited: ' ', pipeDelimited: '|' };

/** What every parameter says of itself: name, place, whether required (a path parameter always is). */
const identity = (p: Obj, pointer: string, place: Place) => ({
  name: String(p.name ?? ''),
  in: place,
  required: place === 'path' || p.required === true,
  pointer,
});

/** A 3.x parameter (or response header: `in` given). */
function param3(p: Obj, pointer: string, place: Place): ParamSpec {
  const style =
    typeof p.style === 'string' ? p.style : place === 'query' || place === 'cookie' ? 'form' : 'simple';
  const explode = typeof p.explode === 'boolean' ? p.explode : style === 'form';
  let schema = p.schema;
  let schemaPointer = `${pointer}/schema`;
  let json = false;
  if (schema === undefined && isObj(p.content)) {
    const [type, media] = Object.entries(p.content)[0] ?? [];
    if (type && isObj(media)) {
      schema = media.schema;
      schemaPointer = `${pointer}/content/${esc(type)}/schema`;
      json = /json/i.test(type);
    }
  }
  return {
    ...identity(p, pointer, place),
    schema,
    schemaPointer,
    style,
    explode,
    shape: json ? 'primitive' : shapeOf(schema),
    separator: STYLE_SEPARATORS[style] ?? ',',
    json,
  };
}

/** Swagger 2.0's parameter (or response header): its own schema, less what is not one. */
function param2(p: Obj, pointer: string, place: Place): ParamSpec {
  const schema: Obj = { ...p };
  for (const k of ['name', 'in', 'required', 'description', 'collectionFormat', 'allowEmptyValue'])
    delete schema[k];
  const cf = typeof p.collectionFormat === 'string' ? p.collectionFormat : 'csv';
  const separator = SEPARATORS[cf] ?? ',';
  return {
    ...identity(p, pointer, place),
    schema,
    schemaPointer: pointer,
    style: place === 'query' ? 'form' : 'simple',
    explode: separator === 'multi',
    shape: shapeOf(schema),
    separator,
    json: false,
  };
}

const mediaList = (content: unknown, pointer: string): MediaSpec[] =>
  isObj(content)
    ? Object.entries(content).map(([type, m]) => ({
        type: type.split(';')[0]!.trim().toLowerCase(),
        schema: isObj(m) ? m.schema : undefined,
        schemaPointer: `${pointer}/${esc(type)}/schema`,
      }))
    : [];

/** Every operation of a dereferenced document, in document order. */
export function operationsOf(doc: Obj, dialect: ContractDialect): OpSpec[] {
  const ops: OpSpec[] = [];
  const paths = isObj(doc.paths) ? doc.paths : {};
  const v2 = dialect === '2.0';
  const consumes = Array.isArray(doc.consumes) ? (doc.consumes as string[]) : undefined;
  const produces = Array.isArray(doc.produces) ? (doc.produces as string[]) : undefined;
  for (const [path, item] of Object.entries(paths)) {
    if (!isObj(item) || !path.startsWith('/')) continue;
    const itemPointer = `#/paths/${esc(path)}`;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      const pointer = `${itemPointer}/${method}`;
      const declared = new Map<string, { p: Obj; pointer: string }>();
      const add = (list: unknown, at: string) => {
        if (Array.isArray(list))
          list.forEach((p, i) => {
            if (isObj(p) && typeof p.name === 'string')
              declared.set(`${p.in} ${p.name}`, { p, pointer: `${at}/${i}` });
          });
      };
      add(item.parameters, `${itemPointer}/parameters`);
      add(op.parameters, `${pointer}/parameters`);
      const spec: OpSpec = {
        operation: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        pointer,
        params: [],
        responses: [],
      };
      if (typeof op.operationId === 'string') spec.operationId = op.operationId;
      const form: { p: Obj; pointer: string }[] = [];
      for (const d of declared.values()) {
        const place = d.p.in;
        if (place === 'path' || place === 'query' || place === 'header' || place === 'cookie') {
          spec.params.push(v2 ? param2(d.p, d.pointer, place) : param3(d.p, d.pointer, place));
        } else if (place === 'body' && v2) {
          const types = Array.isArray(op.consumes)
            ? (op.consumes as string[])
            : (consumes ?? ['application/json']);
          spec.body = {
            required: d.p.required === true,
            pointer: d.pointer,
            mediaPointer: Array.isArray(op.consumes) ? `${pointer}/consumes` : '#/consumes',
            media: types.map((t) => ({
              type: t.split(';')[0]!.trim().toLowerCase(),
              schema: d.p.schema,
              schemaPointer: `${d.pointer}/schema`,
            })),
          };
        } else if (place === 'formData' && v2) form.push(d);
      }
      if (form.length) spec.body = formBody(op, consumes, form, pointer);
      if (!v2 && isObj(op.requestBody)) {
        const rb = op.requestBody;
        spec.body = {
          required: rb.required === true,
          pointer: `${pointer}/requestBody`,
          mediaPointer: `${pointer}/requestBody/content`,
          media: mediaList(rb.content, `${pointer}/requestBody/content`),
        };
      }
      const responses = isObj(op.responses) ? op.responses : {};
      const opProduces = Array.isArray(op.produces)
        ? (op.produces as string[])
        : (produces ?? ['application/json']);
      for (const [key, r] of Object.entries(responses)) {
        if (!isObj(r)) continue;
        const at = `${pointer}/responses/${esc(key)}`;
        const headers: ParamSpec[] = [];
        if (isObj(r.headers)) {
          for (const [name, h] of Object.entries(r.headers)) {
            if (!isObj(h) || name.toLowerCase() === 'content-type') continue;
            const hp = `${at}/headers/${esc(name)}`;
            headers.push(v2 ? param2({ ...h, name }, hp, 'header') : param3({ ...h, name }, hp, 'header'));
          }
        }
        const media = v2
          ? r.schema === undefined
            ? []
            : opProduces.map((t) => ({
                type: t.split(';')[0]!.trim().toLowerCase(),
                schema: r.schema,
                schemaPointer: `${at}/schema`,
              }))
          : mediaList(r.content, `${at}/content`);
        const mediaPointer = !v2
          ? `${at}/content`
          : Array.isArray(op.produces)
            ? `${pointer}/produces`
            : '#/produces';
        spec.responses.push({ key: key.toUpperCase(), pointer: at, headers, media, mediaPointer });
      }
      ops.push(spec);
    }
  }
  return ops;
}

/** Swagger 2.0 `formData` parameters as one object schema, each property pointing at its parameter. */
function formBody(
  op: Obj,
  consumes: string[] | undefined,
  form: { p: Obj; pointer: string }[],
  opPointer: string,
): BodySpec {
  const properties: Obj = {};
  const required: string[] = [];
  const formPointers = new Map<string, string>();
  for (const { p, pointer } of form) {
    const spec = param2(p, pointer, 'query');
    properties[spec.name] = spec.schema;
    formPointers.set(spec.name, pointer);
    if (p.required === true) required.push(spec.name);
  }
  const types = Array.isArray(op.consumes)
    ? (op.consumes as string[])
    : (consumes ?? ['application/x-www-form-urlencoded', 'multipart/form-data']);
  const schema = { type: 'object', properties, ...(required.length ? { required } : {}) };
  return {
    required: required.length > 0,
    pointer: `${form[0]!.pointer}`,
    mediaPointer: Array.isArray(op.consumes) ? `${opPointer}/consumes` : '#/consumes',
    media: types.map((t) => ({
      type: t.split(';')[0]!.trim().toLowerCase(),
      schema,
      schemaPointer: form[0]!.pointer,
    })),
    formPointers,
  };
}
