import { newId } from '../../core/ids.js';
import type { EndpointInput, Variation } from '../../core/model/endpoint.js';
import { RulesSchema, SelectionModeSchema } from '../../core/model/rules.js';
import type { OpenApiOperation } from '../../core/model/openapi-meta.js';
import { suggestEndpointName, uniqueName } from '../../core/naming.js';
import { GENERATED, readMockdevFields } from './mockdev-fields.js';
import { headerDefinitions, storedParameters } from './operation-facts.js';
import { oas3Response, swagger2Response, type ResponseExample, type ResponseShape } from './responses.js';

export { bodyFromExample, isJsonMediaType } from './responses.js';

/**
 * OpenAPI 3.0/3.1 and Swagger 2.0 -> endpoint inputs. The document must already be
 * dereferenced (cycles allowed; a `$ref` that could not be resolved counts as an empty part).
 * Pure: object in, inputs out.
 *
 * Rules (docs/import-export.md):
 * - one endpoint per path + method, the path kept exactly as the document writes it;
 * - name: summary, else operationId, else generated from method and path;
 * - status: `x-mockdev-status`, else the first 2xx response, else `default`, else the first;
 * - body: the media type's `example`, else the first of `examples`, else a sample from the schema;
 * - every other response becomes a variation named by its status key (`404`, `default`), every
 *   further named example one named after the example;
 * - the operationId, the parameters and the response header definitions are kept in `openapi`;
 * - an operation that cannot be converted is left out with a problem saying why; webhooks are
 *   not endpoints (a problem says they were left out).
 */

type Obj = Record<string, unknown>;

export const OPERATION_METHODS = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
] as const;

export interface ConvertedOperation {
  method: string;
  path: string;
  /** JSON pointer of the operation (`/paths/~1pets/get`). */
  pointer: string;
  input: EndpointInput;
}

/** Something of the document that was not imported, and why. */
export interface ConvertProblem {
  pointer: string;
  message: string;
  /** Set when a whole operation was left out. */
  operation?: { method: string; path: string };
}

export interface ConvertedDocument {
  title: string;
  description: string;
  /** `info.version`, when the document gives one. */
  version?: string;
  specVersion: string;
  /**
   * The document is mockdev's own export (`x-mockdev-export`, or an operation carrying an
   * `x-mockdev-*` field, as exports before that marker do): its templates are templates.
   */
  ownExport: boolean;
  operations: ConvertedOperation[];
  problems: ConvertProblem[];
}

export interface ConvertOptions {
  onProgress?: (done: number, total: number) => void;
}

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]+/g;

/** A name allowed by the endpoint rules: no slashes or control characters, 1-200 characters. */
export function cleanName(raw: string): string {
  const cleaned = raw
    .replace(CONTROL, ' ')
    .replace(/[/\\]+/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200)
    .trim();
  return cleaned === '.' || cleaned === '..' ? '' : cleaned;
}

/** Response key -> status code: "404" -> 404, "4XX" -> 400, "default" -> fallback. */
export function statusFromKey(key: string, fallback: number): number {
  if (/^[1-5]\d\d$/.test(key)) return Number(key);
  const wild = /^([1-5])XX$/i.exec(key);
  if (wild) return Number(wild[1]) * 100;
  return fallback;
}

/** Chooses the response that answers by default: a 2xx, else `default`, else the first final one. */
export function primaryResponseKey(keys: string[], preferred?: unknown): string | undefined {
  if (preferred !== undefined && keys.includes(String(preferred))) return String(preferred);
  return (
    keys.find((k) => /^2(\d\d|XX)$/i.test(k)) ??
    keys.find((k) => k === 'default') ??
    keys.find((k) => !/^1/.test(k)) ?? // an interim (1xx) answer only when there is nothing else
    keys[0]
  );
}

/** Told of a part of an operation left out or changed: where (a JSON pointer below it) and what. */
type Warn = (where: string, message: string) => void;

/**
 * The status a response answers with: its key's, except an interim one (1xx), which a mock cannot
 * send as its final answer: that response answers 200, and `warn` says so.
 */
function finalStatus(key: string, fallback: number, warn: Warn): number {
  const status = statusFromKey(key, fallback);
  if (status >= 200) return status;
  warn(
    `responses/${escapePointer(key)}`,
    `response ${key} is an interim answer (1xx), which a mock cannot send as its final one: it answers 200`,
  );
  return 200;
}

function convertOperation(
  doc: Obj,
  path: string,
  method: string,
  item: Obj,
  op: Obj,
  swagger2: boolean,
  warn: Warn = () => undefined,
): EndpointInput {
  const responses = isObj(op.responses) ? op.responses : {};
  const keys = Object.keys(responses).filter((k) => !k.startsWith('x-'));
  const produces = (
    Array.isArray(op.produces) ? op.produces : Array.isArray(doc.produces) ? doc.produces : []
  ) as string[];
  const primaryKey = primaryResponseKey(keys, op['x-mockdev-status']);
  const name =
    (typeof op.summary === 'string' && cleanName(op.summary)) ||
    (typeof op.operationId === 'string' && cleanName(op.operationId)) ||
    suggestEndpointName(method, path);
  const base: EndpointInput = {
    name,
    method: method.toUpperCase(),
    path,
    status: 200,
    body: '',
    contentType: 'application/json',
  };
  if (op['x-mockdev-enabled'] === false) base.enabled = false;
  if (
    typeof op['x-mockdev-delay'] === 'number' &&
    Number.isInteger(op['x-mockdev-delay']) &&
    op['x-mockdev-delay'] >= 0
  ) {
    base.delay = Math.min(op['x-mockdev-delay'], 600_000);
  }
  const proxy = op['x-mockdev-proxy'];
  if (isObj(proxy) && typeof proxy.target === 'string') {
    base.kind = 'proxy';
    base.proxy = { target: proxy.target, record: proxy.record === true };
  }
  const meta: OpenApiOperation = {};
  if (typeof op.operationId === 'string' && op.operationId && op[GENERATED] !== true)
    meta.operationId = op.operationId;
  const parameters = storedParameters(item, op, swagger2);
  if (parameters.length) meta.parameters = parameters;
  const keepHeaders = (key: string, status: number) => {
    const r = responses[key];
    const defs = isObj(r) ? headerDefinitions(r) : undefined;
    if (defs) (meta.responseHeaders ??= {})[String(status)] ??= defs;
  };
  const withMeta = () => {
    if (Object.keys(meta).length) base.openapi = meta;
    return base;
  };
  if (primaryKey === undefined) return withMeta();
  const shapeOf = (key: string): ResponseShape => {
    const r = responses[key];
    const obj = isObj(r) ? r : {};
    return swagger2 ? swagger2Response(obj, produces) : oas3Response(obj);
  };
  const primary = shapeOf(primaryKey);
  const [first, ...more] = primary.examples;
  base.status = finalStatus(primaryKey, 200, warn);
  keepHeaders(primaryKey, base.status);
  base.contentType = primary.contentType;
  base.body = first!.body;
  if (Object.keys(primary.headers).length) base.headers = primary.headers;
  const variations: Variation[] = [];
  const taken: string[] = [];
  const addVariation = (key: string, shape: ResponseShape, ex: ResponseExample, status: number) => {
    // A named example keeps its name; an unnamed response is named by its status key (`404`, `default`).
    const label = ex.name !== undefined ? cleanName(ex.name) || key : key;
    const vname = uniqueName(label, taken);
    taken.push(vname);
    variations.push({
      id: newId(),
      name: vname,
      status,
      headers: shape.headers,
      body: ex.body,
      contentType: shape.contentType,
      delay: 0,
    });
  };
  for (const ex of more) addVariation(primaryKey, primary, ex, base.status);
  for (const other of primary.others ?? [])
    for (const ex of other.examples) addVariation(primaryKey, other, ex, base.status);
  for (const key of keys) {
    if (key === primaryKey) continue;
    const shape = shapeOf(key);
    const status = finalStatus(key, 500, warn);
    keepHeaders(key, status);
    for (const s of [shape, ...(shape.others ?? [])])
      for (const ex of s.examples) addVariation(key, s, ex, status);
  }
  const order = op['x-mockdev-variations'];
  if (Array.isArray(order)) {
    const rank = (name: string) => {
      const i = order.indexOf(name);
      return i < 0 ? order.length : i;
    };
    variations.sort((a, b) => rank(a.name) - rank(b.name));
  }
  // Variation rules by name and the selection mode, as our export writes them (issue 11); what
  // cannot be used is left out with a warning (a pattern the linear-time engine refuses, …).
  const rulesByName = op['x-mockdev-rules'];
  if (isObj(rulesByName))
    for (const v of variations) {
      if (rulesByName[v.name] === undefined) continue;
      const rules = RulesSchema.safeParse(rulesByName[v.name]);
      if (rules.success) {
        if (rules.data.length) v.rules = rules.data;
      } else
        warn(
          `x-mockdev-rules/${escapePointer(v.name)}`,
          `the rules of variation "${v.name}" are left out (it answers only when active, named or by mode): ${rules.error.issues[0]!.message}`,
        );
    }
  const mode = SelectionModeSchema.safeParse(op['x-mockdev-mode']);
  if (mode.success) base.mode = mode.data;
  else if (op['x-mockdev-mode'] !== undefined)
    warn(
      'x-mockdev-mode',
      `selection mode ${JSON.stringify(op['x-mockdev-mode'])} is not rules, sequential or random: left out (rules)`,
    );
  readMockdevFields(op, base, variations);
  if (variations.length) base.variations = variations;
  return withMeta();
}

/** Counts the operations of a document (for progress reports). */
export function countOperations(doc: Obj): number {
  let n = 0;
  for (const item of Object.values(isObj(doc.paths) ? doc.paths : {})) {
    if (isObj(item)) for (const m of OPERATION_METHODS) if (isObj(item[m])) n++;
  }
  return n;
}

const escapePointer = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Why an operation could not be converted, in one line. */
function conversionError(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  if (/circular structure/i.test(message))
    return 'one of its example values contains itself (a YAML alias inside its own anchor)';
  return message.split('\n')[0]!.trim();
}

/** Whether a document is mockdev's own export (see ConvertedDocument.ownExport). */
export function isOwnExport(doc: Obj): boolean {
  if (doc['x-mockdev-export'] !== undefined) return true;
  for (const item of Object.values(isObj(doc.paths) ? doc.paths : {})) {
    if (!isObj(item)) continue;
    for (const m of OPERATION_METHODS) {
      const op = item[m];
      if (isObj(op) && Object.keys(op).some((k) => k.startsWith('x-mockdev-'))) return true;
    }
  }
  return false;
}

export function convertOpenApi(doc: Obj, options: ConvertOptions = {}): ConvertedDocument {
  const swagger2 = doc.swagger !== undefined;
  const info = isObj(doc.info) ? doc.info : {};
  const operations: ConvertedOperation[] = [];
  const problems: ConvertProblem[] = [];
  const total = countOperations(doc);
  let done = 0;
  for (const [path, item] of Object.entries(isObj(doc.paths) ? doc.paths : {})) {
    if (path.startsWith('x-')) continue;
    const itemPointer = `/paths/${escapePointer(path)}`;
    if (!path.startsWith('/')) {
      problems.push({ pointer: itemPointer, message: `path "${path}" does not start with "/": left out` });
      continue;
    }
    if (!isObj(item)) continue;
    for (const method of OPERATION_METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      const pointer = `${itemPointer}/${method}`;
      try {
        operations.push({
          method: method.toUpperCase(),
          path,
          pointer,
          input: convertOperation(doc, path, method, item, op, swagger2, (where, message) =>
            problems.push({
              pointer: `${pointer}/${where}`,
              message: `operation ${method.toUpperCase()} ${path}: ${message}`,
            }),
          ),
        });
      } catch (e) {
        problems.push({
          pointer,
          message: `operation ${method.toUpperCase()} ${path} cannot be converted: ${conversionError(e)}`,
          operation: { method: method.toUpperCase(), path },
        });
      }
      done++;
      if (options.onProgress && (done % 50 === 0 || done === total)) options.onProgress(done, total);
    }
  }
  const webhooks = isObj(doc.webhooks) ? Object.keys(doc.webhooks) : [];
  if (webhooks.length) {
    const names = webhooks.slice(0, 5).join(', ') + (webhooks.length > 5 ? ', …' : '');
    problems.push({
      pointer: '/webhooks',
      message: `${webhooks.length} webhook${webhooks.length === 1 ? '' : 's'} (${names}) not imported: webhooks are requests the API sends, not endpoints it serves`,
    });
  }
  const version = typeof info.version === 'string' ? info.version.trim() : undefined;
  return {
    title: typeof info.title === 'string' ? info.title : '',
    description: typeof info.description === 'string' ? info.description : '',
    ...(version ? { version } : {}),
    specVersion: swagger2 ? String(doc.swagger) : String(doc.openapi),
    ownExport: isOwnExport(doc),
    operations,
    problems,
  };
}
