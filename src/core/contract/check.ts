import type { ContractViolation, RequestResult } from '../model/contract.js';
import type { RequestRecord } from '../model/request.js';
import { bodyViolations, isJsonType, mediaTypeOf, pickMedia, type CompiledMedia } from './bodies.js';
import { paramKey, type CompiledDocument, type CompiledOperation, type CompiledResponse } from './compile.js';
import type { ParamSpec } from './operations.js';
import {
  cookiesOf,
  cookieValue,
  headerValue,
  lowerHeaders,
  pathValue,
  queryValue,
  StyleError,
  type QueryValues,
} from './params.js';
import { violationsOf, type Checker, type ViolationContext } from './validators.js';

/**
 * Checking one logged request and its response against the compiled document: the operation,
 * the parameters, the request body, the response's status, headers, media type and body. Runs
 * compiled validators only; each body is parsed once.
 */

/** Why a truncated record's bodies were not checked. */
export const NOT_CHECKED_TRUNCATED =
  'a body was cut short in the log (over the request body limit), so the bodies were not checked';

type Base = Omit<ViolationContext, 'location' | 'prefix' | 'in'>;

export function checkRecord(doc: CompiledDocument, record: RequestRecord): RequestResult {
  const method = record.method.toUpperCase();
  const found = doc.matcher.match(method, record.path);
  if (!found) {
    return {
      requestId: record.id,
      method: record.method,
      path: record.path,
      operation: null,
      outcome: 'failed',
      violations: [
        {
          requestId: record.id,
          method: record.method,
          path: record.path,
          operation: null,
          in: 'request',
          location: 'path',
          rule: 'unknown-operation',
          message: `no operation of the document matches ${method} ${record.path}`,
          actual: `${method} ${record.path}`,
          schemaPath: '#/paths',
        },
      ],
    };
  }
  const { op, params } = found;
  const base: Base = {
    requestId: record.id,
    method: record.method,
    path: record.path,
    operation: op.spec.operation,
  };
  const violations: ContractViolation[] = [];
  const headers = lowerHeaders(record.headers);
  checkParams(op, params, record.query, headers, base, doc, violations);
  const truncated = record.truncated === true;
  if (op.body) checkRequestBody(op, record.body, headers, truncated, base, doc, violations);
  checkResponse(op, record, truncated, base, doc, violations);
  const result: RequestResult = {
    requestId: record.id,
    method: record.method,
    path: record.path,
    operation: op.spec.operation,
    outcome: violations.length ? 'failed' : 'passed',
    violations,
  };
  if (truncated) result.notChecked = NOT_CHECKED_TRUNCATED;
  return result;
}

const missing = (p: ParamSpec, base: Base, where: 'request' | 'response'): ContractViolation => ({
  ...base,
  in: where,
  location: `${p.in}.${paramKey(p)}`,
  rule: 'required',
  message: `${p.in === 'header' && where === 'response' ? 'response header' : `${p.in} parameter`} "${p.name}" is required but missing`,
  expected: 'present',
  schemaPath: `${p.pointer}/required`,
});

const badStyle = (
  p: ParamSpec,
  e: StyleError,
  base: Base,
  where: 'request' | 'response',
): ContractViolation => ({
  ...base,
  in: where,
  location: `${p.in}.${paramKey(p)}`,
  rule: 'style',
  message: `${p.in}.${paramKey(p)} ${e.message}`,
  expected: p.json ? 'JSON' : `${p.style}${p.explode ? ' (exploded)' : ''}`,
  schemaPath: `${p.pointer}/${p.json ? 'content' : 'style'}`,
});

function checkParams(
  op: CompiledOperation,
  pathParams: Record<string, string>,
  query: QueryValues,
  headers: Record<string, string>,
  base: Base,
  doc: CompiledDocument,
  out: ContractViolation[],
): void {
  if (!op.params.length) return;
  const data: Record<string, Record<string, unknown>> = { path: {}, query: {}, header: {}, cookie: {} };
  let cookies: Record<string, string> | undefined;
  let claimed: Set<string> | undefined;
  let any = false;
  for (const p of op.params) {
    let value: unknown;
    try {
      if (p.in === 'path') {
        const text = pathParams[p.name];
        value = text === undefined ? undefined : pathValue(text, p);
      } else if (p.in === 'query') {
        claimed ??= new Set(op.params.filter((q) => q.in === 'query').map((q) => q.name));
        value = queryValue(query, p, claimed);
      } else if (p.in === 'header') {
        const text = headers[paramKey(p)];
        value = text === undefined ? undefined : headerValue(text, p);
      } else {
        cookies ??= cookiesOf(headers.cookie);
        const text = cookies[p.name];
        value = text === undefined ? undefined : cookieValue(text, p);
      }
    } catch (e) {
      if (!(e instanceof StyleError)) throw e;
      out.push(badStyle(p, e, base, 'request'));
      continue;
    }
    if (value === undefined) {
      if (p.required) out.push(missing(p, base, 'request'));
      continue;
    }
    data[p.in]![paramKey(p)] = value;
    any = true;
  }
  if (any) runChecker(op.paramChecker, data, doc, base, 'request', out);
}

/** Validates the present parameters (or headers), by place, and adds what breaks the schemas. */
function runChecker(
  checker: Checker | undefined,
  data: Record<string, Record<string, unknown>>,
  doc: CompiledDocument,
  base: Base,
  where: 'request' | 'response',
  out: ContractViolation[],
): void {
  if (!checker || checker.validate(data)) return;
  const errors = checker.validate.errors ?? [];
  out.push(
    ...violationsOf(errors, checker, doc.meta, { ...base, in: where, location: '', prefix: checker.base }),
  );
}

function mediaViolation(
  where: 'request' | 'response',
  actual: string | undefined,
  media: CompiledMedia[],
  pointer: string,
  base: Base,
): ContractViolation {
  const declared = media.map((m) => m.type);
  const what = where === 'request' ? 'request body' : 'response body';
  return {
    ...base,
    in: where,
    location: 'header.content-type',
    rule: 'media-type',
    message:
      actual === undefined
        ? `the ${what} has no Content-Type; the document declares ${declared.join(', ')}`
        : `the ${what} is ${actual}, which the document does not declare (${declared.join(', ')})`,
    expected: declared,
    ...(actual === undefined ? {} : { actual }),
    schemaPath: pointer,
  };
}

function checkRequestBody(
  op: CompiledOperation,
  body: string,
  headers: Record<string, string>,
  truncated: boolean,
  base: Base,
  doc: CompiledDocument,
  out: ContractViolation[],
): void {
  const spec = op.body!;
  if (body === '') {
    if (spec.required) {
      out.push({
        ...base,
        in: 'request',
        location: 'body',
        rule: 'required',
        message: 'the request body is required but missing',
        expected: 'a body',
        schemaPath: `${spec.pointer}/required`,
      });
    }
    return;
  }
  if (!spec.media.length) return;
  const actual = mediaTypeOf(headers['content-type']);
  const media = actual === undefined ? undefined : pickMedia(actual, spec.media);
  if (!media) {
    out.push(mediaViolation('request', actual, spec.media, spec.mediaPointer, base));
    return;
  }
  if (truncated) return;
  out.push(...bodyViolations(body, actual!, media, doc.meta, { ...base, in: 'request' }));
}

/** The response a status falls under: the exact code, its range (`2XX`), or `default`. */
function responseFor(op: CompiledOperation, status: number): CompiledResponse | undefined {
  return (
    op.responses.get(String(status)) ??
    op.responses.get(`${Math.floor(status / 100)}XX`) ??
    op.responses.get('DEFAULT')
  );
}

function checkResponse(
  op: CompiledOperation,
  record: RequestRecord,
  truncated: boolean,
  base: Base,
  doc: CompiledDocument,
  out: ContractViolation[],
): void {
  const status = record.response.status;
  if (!op.responses.size) return;
  const r = responseFor(op, status);
  if (!r) {
    out.push({
      ...base,
      in: 'response',
      location: 'status',
      rule: 'status',
      message: `status ${status} is not declared (declared: ${op.statuses.join(', ')})`,
      expected: op.statuses,
      actual: status,
      schemaPath: `${op.spec.pointer}/responses`,
    });
    return;
  }
  const headers = lowerHeaders(record.response.headers);
  if (r.headers.length) {
    const data: Record<string, Record<string, unknown>> = { header: {} };
    let any = false;
    for (const h of r.headers) {
      const text = headers[paramKey(h)];
      if (text === undefined) {
        if (h.required) out.push(missing(h, base, 'response'));
        continue;
      }
      try {
        data.header![paramKey(h)] = headerValue(text, h);
        any = true;
      } catch (e) {
        if (!(e instanceof StyleError)) throw e;
        out.push(badStyle(h, e, base, 'response'));
      }
    }
    if (any) runChecker(r.headerChecker, data, doc, base, 'response', out);
  }
  if (!r.media.length) return;
  const body = record.response.body;
  const actual = mediaTypeOf(headers['content-type']);
  if (body === '') {
    const json = r.media.find((m) => isJsonType(m.type) && m.plain);
    const bodiless = record.method.toUpperCase() === 'HEAD' || status === 204 || status === 304;
    if (json && !bodiless && !truncated) {
      out.push({
        ...base,
        in: 'response',
        location: 'body',
        rule: 'body',
        message: `the response body is empty; the document declares ${json.type}`,
        expected: json.type,
        actual: '',
        schemaPath: json.prefix,
      });
    }
    return;
  }
  const media = actual === undefined ? undefined : pickMedia(actual, r.media);
  if (!media) {
    out.push(mediaViolation('response', actual, r.media, r.mediaPointer, base));
    return;
  }
  if (truncated) return;
  out.push(...bodyViolations(body, actual!, media, doc.meta, { ...base, in: 'response' }));
}
