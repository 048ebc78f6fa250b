import { variationResponse } from '../../core/model/variation-response.js';
import type { Endpoint } from '../../core/model/endpoint.js';
import type { OpenApiParameter } from '../../core/model/openapi-meta.js';
import { isJsonMediaType, primaryResponseKey } from './import.js';
import { GENERATED, writeMockdevFields } from './mockdev-fields.js';
import { schemaForVersion } from './schema-dialect.js';

/**
 * Endpoints -> an OpenAPI 3.0.3 or 3.1.0 document. Each endpoint is an operation; its body is
 * the first named example of its status's response, each variation is a further example
 * (under its own status). mockdev-only facts travel in `x-mockdev-*` extensions so that
 * importing the export gives the same endpoints back. What an import kept of the document
 * (the API's version, operationIds, parameters, response header definitions) is written back.
 * Pure: objects in, object out.
 */

export type OpenApiVersion = '3.0' | '3.1';

export interface ExportProject {
  name: string;
  description: string;
  port: number;
  /** `info.version`; 1.0.0 when the project has none. */
  apiVersion?: string;
}

const REASONS: Record<number, string> = {
  100: 'Continue',
  101: 'Switching Protocols',
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  203: 'Non-Authoritative Information',
  204: 'No Content',
  205: 'Reset Content',
  206: 'Partial Content',
  300: 'Multiple Choices',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  304: 'Not Modified',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  418: "I'm a teapot",
  422: 'Unprocessable Content',
  423: 'Locked',
  425: 'Too Early',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export const reasonPhrase = (status: number): string => REASONS[status] ?? `Status ${status}`;

/** `/users/:id` -> `/users/{id}`; `{id}` stays as it is. */
export const toTemplatePath = (path: string): string =>
  path
    .split('/')
    .map((seg) => (seg.startsWith(':') && seg.length > 1 ? `{${seg.slice(1)}}` : seg))
    .join('/');

/** The parameter names of a templated path, in order, without repeats. */
export const pathParams = (templatePath: string): string[] => [
  ...new Set([...templatePath.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!)),
];

interface ExampleEntry {
  value: unknown;
  raw: boolean;
}

/**
 * Whether a JSON value holds an object with a string `$ref` (GitHub's examples hold
 * `{"$ref": "#/components/examples/…"}` as data): written as a structured example, tools that
 * resolve every `$ref` (swagger-parser, Redocly) would look for a part the export does not have.
 */
function holdsRef(value: unknown, depth = 0): boolean {
  if (value === null || typeof value !== 'object' || depth > 100) return false;
  if (Array.isArray(value)) return value.some((v) => holdsRef(v, depth + 1));
  const obj = value as Record<string, unknown>;
  if (typeof obj.$ref === 'string') return true;
  return Object.values(obj).some((v) => holdsRef(v, depth + 1));
}

function exampleFor(body: string, contentType: string): ExampleEntry {
  if (isJsonMediaType(contentType)) {
    try {
      const parsed: unknown = JSON.parse(body);
      // Only when importing it back gives the very same text, and no tool would take a part of
      // it for a reference; else the text as it is.
      if (JSON.stringify(parsed, null, 2) === body && !holdsRef(parsed)) return { value: parsed, raw: false };
    } catch {
      /* not JSON: kept as text */
    }
    return { value: body, raw: true };
  }
  return { value: body, raw: false };
}

const operationIdFrom = (name: string, method: string, path: string): string => {
  const base = name
    .replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))
    .replace(/^[A-Z]/, (c) => c.toLowerCase());
  return base || `${method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+/g, '_')}`;
};

/** A stored parameter as an OpenAPI 3 Parameter Object (path parameters are always required). */
function parameterOut(p: OpenApiParameter, version: OpenApiVersion): Record<string, unknown> {
  return {
    name: p.name,
    in: p.in,
    ...(p.description !== undefined ? { description: p.description } : {}),
    ...(p.in === 'path' ? { required: true } : p.required !== undefined ? { required: p.required } : {}),
    ...(p.deprecated !== undefined ? { deprecated: p.deprecated } : {}),
    ...(p.style !== undefined ? { style: p.style } : {}),
    ...(p.explode !== undefined ? { explode: p.explode } : {}),
    schema: p.schema ? schemaForVersion(p.schema, version) : { type: 'string' },
    ...(p.example !== undefined ? { example: p.example } : {}),
  };
}

/** The path's parameters (declared as strings unless the import kept them), then the others kept. */
function parametersOut(e: Endpoint, path: string, version: OpenApiVersion): Record<string, unknown>[] {
  const names = pathParams(path);
  const stored = (e.openapi?.parameters ?? []).filter((p) => p.in !== 'path' || names.includes(p.name));
  const undeclared = names
    .filter((name) => !stored.some((p) => p.in === 'path' && p.name === name))
    // Declared because OpenAPI wants every path parameter declared; an import does not keep it.
    .map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' }, [GENERATED]: true }));
  return [...undeclared, ...stored.map((p) => parameterOut(p, version))];
}

interface ResponseOut {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { examples: Record<string, Record<string, unknown>> }>;
}

export function exportOpenApiDocument(
  project: ExportProject,
  endpoints: Endpoint[],
  version: OpenApiVersion = '3.0',
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const usedIds = new Set<string>();
  for (const e of endpoints) {
    const path = toTemplatePath(e.path);
    const params = parametersOut(e, path, version);
    const kept = e.openapi?.operationId;
    let operationId =
      kept !== undefined && !usedIds.has(kept) ? kept : operationIdFrom(e.name, e.method, path);
    for (let i = 2; usedIds.has(operationId); i++)
      operationId = `${operationIdFrom(e.name, e.method, path)}${i}`;
    usedIds.add(operationId);

    const responses: Record<string, ResponseOut> = {};
    const add = (
      status: number,
      name: string,
      body: string,
      contentType: string,
      headers: Record<string, string>,
      primary: boolean,
    ) => {
      const key = String(status);
      const response = (responses[key] ??= { description: reasonPhrase(status) });
      const headerEntries = Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'content-type');
      // Header definitions the import kept, with the endpoint's value as their example.
      const defs = Object.entries(e.openapi?.responseHeaders?.[key] ?? {});
      for (const [name, def] of defs) {
        response.headers ??= {};
        const value = headerEntries.find(([k]) => k.toLowerCase() === name.toLowerCase());
        response.headers[name] ??= {
          ...def,
          schema: def.schema ? schemaForVersion(def.schema, version) : { type: 'string' },
          ...(value ? { example: value[1] } : {}),
        };
      }
      const undefinedHeaders = headerEntries.filter(
        ([k]) => !defs.some(([name]) => name.toLowerCase() === k.toLowerCase()),
      );
      if (undefinedHeaders.length) {
        response.headers ??= {};
        for (const [k, v] of undefinedHeaders)
          response.headers[k] ??= { schema: { type: 'string' }, example: v, [GENERATED]: true };
      }
      const shared = [e.status, ...e.variations.map((v) => v.status)].filter((s) => s === status).length > 1;
      if (primary && body === '' && contentType === 'application/json' && !shared) return;
      response.content ??= {};
      const media = (response.content[contentType] ??= { examples: {} });
      const example = exampleFor(body, contentType);
      let exampleName = name;
      for (let i = 2; exampleName in media.examples; i++) exampleName = `${name}-${i}`;
      media.examples[exampleName] = {
        value: example.value,
        ...(example.raw ? { 'x-mockdev-raw': true } : {}),
      };
    };
    add(e.status, e.name, e.body, e.contentType, e.headers, true);
    // A variation's example is what it sends (the endpoint's body and content type where it sets
    // none); its headers are its own (sent over the endpoint's): an import gives them back as such.
    for (const v of e.variations) {
      const r = variationResponse(e, v);
      add(v.status, v.name, r.body, r.contentType, v.headers, false);
    }

    const operation: Record<string, unknown> = {
      summary: e.name,
      operationId,
      // An operationId mockdev made up (none was kept): an import does not keep it either.
      ...(operationId !== kept ? { [GENERATED]: true } : {}),
      ...(params.length ? { parameters: params } : {}),
      responses,
    };
    if (primaryResponseKey(Object.keys(responses)) !== String(e.status)) {
      operation['x-mockdev-status'] = e.status;
    }
    // Responses are grouped by status; this keeps the variations' own order.
    if (e.variations.length > 1) operation['x-mockdev-variations'] = e.variations.map((v) => v.name);
    // Variation rules by variation name, and the selection mode (issue 11).
    const withRules = e.variations.filter((v) => v.rules?.length);
    if (withRules.length)
      operation['x-mockdev-rules'] = Object.fromEntries(withRules.map((v) => [v.name, v.rules]));
    if (e.mode) operation['x-mockdev-mode'] = e.mode;
    if (!e.enabled) operation['x-mockdev-enabled'] = false;
    // A delay distribution and a fault are the mock's own behaviour: not written (docs/faults.md).
    if (typeof e.delay === 'number' && e.delay > 0) operation['x-mockdev-delay'] = e.delay;
    writeMockdevFields(e, path, responses as unknown as Record<string, Record<string, unknown>>, operation);
    (paths[path] ??= {})[e.method.toLowerCase()] = operation;
  }
  return {
    openapi: version === '3.1' ? '3.1.0' : '3.0.3',
    // mockdev's own export: an import keeps its templates as templates (docs/decisions.md).
    'x-mockdev-export': true,
    info: {
      title: project.name,
      version: project.apiVersion ?? '1.0.0',
      ...(project.description ? { description: project.description } : {}),
    },
    servers: [{ url: `http://localhost:${project.port}` }],
    paths,
  };
}
