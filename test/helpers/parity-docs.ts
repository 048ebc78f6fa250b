/**
 * The parity suites' runner (test/integration/template-parity-docs-*.test.ts): each documented
 * example becomes one endpoint added through the CLI (so the save-time checks run), one `serve`
 * answers them all, and each answer is compared with what the tool documents.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { cliSandbox, type AfterHook } from './cli-inprocess.js';
import { startServe } from './server.js';

export interface DocExample {
  /** The template, as the tool's documentation writes it. */
  template: string;
  /** The endpoint path (default `/<n>`); a `:name` segment is a path parameter. */
  path?: string;
  /** The request path (default: the endpoint path). */
  url?: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** The documented answer: exact text, a pattern, or a check of the body. */
  want: string | RegExp | ((got: string) => void);
}

/** Parses `got` as JSON and compares it with `value`. */
export const json =
  (value: unknown) =>
  (got: string): void =>
    assert.deepEqual(JSON.parse(got), value);

/** A number from `lo` to `hi` matching `shape`. */
export const within =
  (lo: number, hi: number, shape = /^-?\d+(\.\d+)?$/) =>
  (got: string): void => {
    assert.match(got, shape);
    assert.ok(Number(got) >= lo && Number(got) <= hi, `${got} is not from ${lo} to ${hi}`);
  };

/**
 * One request through node:http, header names as written (as curl sends them; fetch would
 * lower-case them).
 */
export function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, timeout: 10_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${url} timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Adds every example as an endpoint of one project, serves it, requests each and returns the
 * failures (one line each), the empty list when all answer as documented.
 */
export async function runDocExamples(
  t: AfterHook,
  prefix: string,
  examples: DocExample[],
): Promise<string[]> {
  const sandbox = cliSandbox(t, `mockdev-${prefix}-`);
  const { cli } = sandbox;
  assert.equal((await cli(['project', 'create', prefix])).code, 0);
  const failures: string[] = [];
  const added: [DocExample, string][] = [];
  for (const [i, e] of examples.entries()) {
    const path = e.path ?? `/${i}`;
    const r = await cli(['endpoint', 'add', prefix, '-m', e.method ?? 'GET', '-p', path, '-b', e.template]);
    if (r.code === 0) added.push([e, path]);
    else failures.push(`${e.template}: refused at save: ${r.stderr.trim().split('\n')[0]}`);
  }
  const server = await startServe([prefix], { dataDir: sandbox.dataDir });
  sandbox.defer(() => server.stop());
  for (const [e, path] of added) {
    const headers = { ...e.headers };
    if (e.body !== undefined && !Object.keys(headers).some((h) => /^content-type$/i.test(h)))
      headers['Content-Type'] = 'application/json';
    const { status, text } = await send(`${server.url}${e.url ?? path}`, e.method ?? 'GET', headers, e.body);
    try {
      assert.equal(status, 200, `status ${status}`);
      if (typeof e.want === 'string') assert.equal(text, e.want);
      else if (e.want instanceof RegExp) assert.match(text, e.want);
      else e.want(text);
    } catch (err) {
      const why = err instanceof Error ? err.message.split('\n')[0]! : String(err);
      failures.push(`${e.template}: got ${JSON.stringify(text)} (${why})`);
    }
  }
  return failures;
}
