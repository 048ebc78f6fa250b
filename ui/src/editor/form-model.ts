/**
 * The endpoint editor's form as plain data: built from an endpoint, checked, and turned into
 * what the admin API takes (the whole input for a new endpoint, only the changed fields for an
 * existing one, a removed header as `null`). No React here (and imports with .js, as Node's: unit
 * tested from test/e2e/endpoint-editor-model.test.ts).
 */
import type { Endpoint, EndpointInput } from '../../../src/core/model/endpoint';
import {
  DEFAULT_CONTENT_TYPE,
  DEFAULT_PROXY_TIMEOUT_MS,
  HEADER_NAME_PATTERN,
  HEADER_NAME_RULE,
  HTTP_METHODS,
  PROXY_TIMEOUT_MAX_MS,
  PROXY_TIMEOUT_MIN_MS,
  STATUS_MAX,
  STATUS_MIN,
} from '../../../src/core/model/limits';
import {
  timingInput,
  timingPatch,
  timingProblems,
  timingValues,
  type TimingProblems,
  type TimingValues,
} from './timing-model';

/** Every method the model allows, in its order. */
export const METHODS = HTTP_METHODS;

export interface HeaderRow {
  /** Stable id of the row while it is edited. */
  id: number;
  name: string;
  value: string;
}

let nextId = 1;
export const newRowId = (): number => nextId++;

export const headerRows = (headers: Record<string, string> | undefined): HeaderRow[] =>
  Object.entries(headers ?? {}).map(([name, value]) => ({ id: newRowId(), name, value }));

/** The response part an endpoint form and a variation form both have. */
/** The response part an endpoint form and a variation form both have (with the delay and fault). */
export interface ResponseValues extends TimingValues {
  status: string;
  statusText: string;
  contentType: string;
  headers: HeaderRow[];
  body: string;
  /** Off: the status text, body and header values are sent as written, `{{` included. */
  templating: boolean;
}

export interface EndpointForm extends ResponseValues {
  name: string;
  method: string;
  path: string;
  enabled: boolean;
  kind: 'mock' | 'proxy';
  proxyTarget: string;
  proxyRecord: boolean;
  /** Empty: the default timeout. */
  proxyTimeout: string;
}

/** What a new endpoint's form may start with: a folder's path prefix, a logged request's method. */
export interface EndpointPrefill {
  path?: string;
  method?: string;
}

export function endpointForm(endpoint?: Endpoint, prefill?: EndpointPrefill): EndpointForm {
  if (!endpoint)
    return {
      name: '',
      method: (METHODS as readonly string[]).includes(prefill?.method ?? '') ? prefill!.method! : 'GET',
      path: prefill?.path || '/',
      status: '200',
      statusText: '',
      contentType: DEFAULT_CONTENT_TYPE,
      ...timingValues(),
      enabled: true,
      kind: 'mock',
      proxyTarget: '',
      proxyRecord: false,
      proxyTimeout: '',
      headers: [],
      body: '',
      templating: true,
    };
  return {
    name: endpoint.name,
    method: endpoint.method,
    path: endpoint.path,
    status: String(endpoint.status),
    statusText: endpoint.statusText ?? '',
    contentType: endpoint.contentType,
    ...timingValues(endpoint),
    enabled: endpoint.enabled,
    kind: endpoint.kind,
    proxyTarget: endpoint.proxy?.target ?? '',
    proxyRecord: endpoint.proxy?.record ?? false,
    proxyTimeout: endpoint.proxy?.timeoutMs !== undefined ? String(endpoint.proxy.timeoutMs) : '',
    headers: headerRows(endpoint.headers),
    body: endpoint.body,
    templating: endpoint.templating !== false,
  };
}

/** The headers of the rows (rows with neither name nor value are ignored). */
export function rowsToHeaders(rows: HeaderRow[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of rows) if (r.name.trim() || r.value) out[r.name.trim()] = r.value;
  return out;
}

/** The same form, whatever the rows' ids. */
export function sameForm<T extends object>(a: T, b: T): boolean {
  const plain = (f: T) => JSON.stringify(f, (k, v: unknown) => (k === 'id' ? undefined : v));
  return plain(a) === plain(b);
}

/** A whole number from `min` to `max`, or undefined when the text is not one. */
export function wholeNumber(text: string, min: number, max: number): number | undefined {
  if (!/^\s*-?\d+\s*$/.test(text)) return undefined;
  const n = Number(text);
  return n >= min && n <= max ? n : undefined;
}

/** Problems of the header rows, by row id. */
export function headerProblems(rows: HeaderRow[]): Record<number, string> {
  const out: Record<number, string> = {};
  const seen = new Set<string>();
  for (const r of rows) {
    const name = r.name.trim();
    if (!name && !r.value) continue;
    if (!name) out[r.id] = 'Give the header a name';
    else if (!HEADER_NAME_PATTERN.test(name)) out[r.id] = `A header name ${HEADER_NAME_RULE}`;
    else if (seen.has(name.toLowerCase())) out[r.id] = `"${name}" is given twice`;
    seen.add(name.toLowerCase());
  }
  return out;
}

export type FieldProblems = Partial<
  Record<
    | 'name'
    | 'path'
    | 'status'
    | 'delay'
    | 'fault'
    | 'faultRate'
    | 'proxy.target'
    | 'proxy.timeoutMs'
    | 'contentType',
    string
  >
>;

/** The status, delay and fault an endpoint form and a variation form both check, within the core's limits. */
export function responseProblems(form: Pick<ResponseValues, 'status'> & TimingValues): {
  status?: string;
} & TimingProblems {
  const out: { status?: string } & TimingProblems = timingProblems(form);
  if (wholeNumber(form.status, STATUS_MIN, STATUS_MAX) === undefined)
    out.status = `A whole number from ${STATUS_MIN} to ${STATUS_MAX}`;
  return out;
}

/** What the form can tell before asking the API (the API checks everything again). */
export function endpointProblems(form: EndpointForm, isNew: boolean): FieldProblems {
  const out: FieldProblems = {};
  if (!isNew && !form.name.trim()) out.name = 'Give the endpoint a name';
  if (!form.path.trim()) out.path = 'Give a path, e.g. /api/users';
  Object.assign(out, responseProblems(form));
  if (!form.contentType.trim()) out.contentType = 'Give a content type, e.g. application/json';
  if (form.kind === 'proxy') {
    if (!form.proxyTarget.trim()) out['proxy.target'] = 'Give the URL requests are forwarded to';
    if (
      form.proxyTimeout.trim() &&
      wholeNumber(form.proxyTimeout, PROXY_TIMEOUT_MIN_MS, PROXY_TIMEOUT_MAX_MS) === undefined
    )
      out['proxy.timeoutMs'] =
        `A whole number of milliseconds from ${PROXY_TIMEOUT_MIN_MS} to ${PROXY_TIMEOUT_MAX_MS} (empty: ${DEFAULT_PROXY_TIMEOUT_MS})`;
  }
  return out;
}

function proxyOf(form: EndpointForm): NonNullable<EndpointInput['proxy']> {
  const timeout = form.proxyTimeout.trim();
  return {
    target: form.proxyTarget.trim(),
    record: form.proxyRecord,
    ...(timeout ? { timeoutMs: Number(timeout) } : {}),
  };
}

/** The body of POST …/endpoints for a new endpoint. */
export function createInput(form: EndpointForm): Record<string, unknown> {
  return {
    ...(form.name.trim() ? { name: form.name.trim() } : {}),
    method: form.method,
    path: form.path.trim(),
    status: Number(form.status),
    ...(form.statusText ? { statusText: form.statusText } : {}),
    headers: rowsToHeaders(form.headers),
    body: form.body,
    contentType: form.contentType.trim(),
    ...(form.templating ? {} : { templating: false }),
    ...timingInput(form),
    enabled: form.enabled,
    kind: form.kind,
    ...(form.kind === 'proxy' ? { proxy: proxyOf(form) } : {}),
  };
}

/**
 * Header changes for a PATCH that merges: each new or changed header, and `null` for each one
 * of `before` no longer there (names compared in any case).
 */
export function headersPatch(
  before: Record<string, string>,
  after: Record<string, string>,
): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  const afterLower = new Map(Object.keys(after).map((k) => [k.toLowerCase(), k]));
  for (const name of Object.keys(before)) if (!afterLower.has(name.toLowerCase())) out[name] = null;
  for (const [name, value] of Object.entries(after)) if (before[name] !== value) out[name] = value;
  return out;
}

/** The body of PATCH …/endpoints/{id}: only what differs from `base` (the form as loaded). */
export function endpointPatch(base: EndpointForm, form: EndpointForm): Record<string, unknown> {
  const p: Record<string, unknown> = {};
  if (form.name.trim() !== base.name) p.name = form.name.trim();
  if (form.method !== base.method) p.method = form.method;
  if (form.path.trim() !== base.path) p.path = form.path.trim();
  if (form.status !== base.status) p.status = Number(form.status);
  if (form.statusText !== base.statusText) p.statusText = form.statusText === '' ? null : form.statusText;
  if (form.contentType.trim() !== base.contentType) p.contentType = form.contentType.trim();
  Object.assign(p, timingPatch(base, form));
  if (form.enabled !== base.enabled) p.enabled = form.enabled;
  if (form.kind !== base.kind) p.kind = form.kind;
  if (form.body !== base.body) p.body = form.body;
  if (form.templating !== base.templating) p.templating = form.templating;
  const headers = headersPatch(rowsToHeaders(base.headers), rowsToHeaders(form.headers));
  if (Object.keys(headers).length) p.headers = headers;
  if (form.kind === 'proxy') {
    // Only the settings changed: the API merges them into the stored ones (null: the default timeout).
    const proxy: Record<string, unknown> = {};
    if (form.proxyTarget.trim() !== base.proxyTarget) proxy.target = form.proxyTarget.trim();
    if (form.proxyRecord !== base.proxyRecord) proxy.record = form.proxyRecord;
    const timeout = form.proxyTimeout.trim();
    if (timeout !== base.proxyTimeout) proxy.timeoutMs = timeout ? Number(timeout) : null;
    if (Object.keys(proxy).length) p.proxy = proxy;
  }
  return p;
}

/** The fields a patch changes, as the form names them (for "discard unsaved changes?"). */
export const FIELD_LABELS: Record<string, string> = {
  name: 'Name',
  method: 'Method',
  path: 'Path',
  status: 'Status',
  statusText: 'Status text',
  contentType: 'Content type',
  delay: 'Delay',
  fault: 'Fault',
  faultRate: 'Fault rate',
  enabled: 'Enabled',
  kind: 'Kind',
  body: 'Body',
  headers: 'Headers',
  proxy: 'Proxy settings',
  rules: 'Rules',
};

/**
 * The form field an API problem's `details.field` is about: `body`, `status`, `proxy.target`;
 * `headers` for `header "X-A"` or `headers.X-A`; `rules` for `variations.0.rules.0.value`; a
 * variation's own (`variation "v" body`, `variations.0.status`) without the prefix.
 */
export function problemField(named: string): string {
  const own = named.replace(/^(variations\.\d+\.|variation ".*?" )/, '');
  if (/^headers?\b/.test(own)) return 'headers';
  if (/^rules\b/.test(own)) return 'rules';
  return own;
}
