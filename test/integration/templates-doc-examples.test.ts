/**
 * The examples of docs/templates.md run as tests: every row of the table between the
 * `templates-doc-examples` markers is added as an endpoint through the CLI, one `serve` answers
 * them all, and each row's request (curl's arguments, split by a POSIX shell) gets the body the
 * row documents: exactly, as the same JSON, or matching a pattern and within a range (random and
 * date output). The convention is written above the table.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from '../helpers/cli.js';
import { cliSandbox } from '../helpers/cli-inprocess.js';
import { send } from '../helpers/parity-docs.js';
import { startServe } from '../helpers/server.js';

interface Example {
  line: number;
  method: string;
  path: string;
  request: string;
  template: string;
  gives: string;
}

/** The cells of a Markdown table row (`\|` is a `|` inside a cell), each without its backticks. */
function cells(row: string): string[] {
  return row
    .replace(/^\s*\||\|\s*$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, '|'));
}

const code = (cell: string): string => {
  const m = /^`(.*)`$/.exec(cell);
  if (!m) throw new Error(`expected a code span, got ${cell}`);
  return m[1]!;
};

function docExamples(doc: string): Example[] {
  const lines = doc.split('\n');
  const start = lines.indexOf('<!-- templates-doc-examples:start -->');
  const end = lines.indexOf('<!-- templates-doc-examples:end -->');
  assert.ok(start >= 0 && end > start, 'docs/templates.md has the examples markers');
  const examples: Example[] = [];
  for (let i = start + 1; i < end; i++) {
    const row = lines[i]!;
    if (!row.startsWith('|') || /^\|\s*(endpoint|-)/.test(row)) continue;
    const [endpoint, request, template, gives] = cells(row);
    const [method, path] = code(endpoint!).split(' ');
    examples.push({
      line: i + 1,
      method: method!,
      path: path!,
      request: code(request!),
      template: code(template!),
      gives: gives!,
    });
  }
  return examples;
}

/** curl's arguments as a POSIX shell splits them. */
function shellArgs(text: string): string[] {
  const out = execFileSync('/bin/sh', ['-c', `args() { printf '%s\\0' "$@"; }\nargs ${text}`], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  return out.split('\0').slice(0, -1);
}

/** The request a row's curl arguments make: the URL path, headers (`-H`) and body (`-d`). */
function requestOf(text: string): { path: string; headers: Record<string, string>; body?: string } {
  const args = shellArgs(text);
  const headers: Record<string, string> = {};
  let body: string | undefined;
  for (let i = 1; i < args.length; i += 2) {
    const value = args[i + 1]!;
    if (args[i] === '-H') {
      const colon = value.indexOf(':');
      headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
    } else if (args[i] === '-d') body = value;
    else throw new Error(`unknown curl option ${args[i]} in ${text}`);
  }
  // As curl: -d sends a form unless a Content-Type says otherwise.
  if (body !== undefined && !Object.keys(headers).some((h) => /^content-type$/i.test(h)))
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  return { path: args[0]!, headers, body };
}

const DAY = 86_400_000;

/** A bound of `from A to B`: a number, `now`, `now±Nd`, or a date (as milliseconds). */
function bound(text: string, now: number): number {
  const rel = /^now(?:([+-]\d+)d)?$/.exec(text);
  if (rel) return now + Number(rel[1] ?? 0) * DAY;
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return Date.parse(text);
}

/** The body as a number, or as a date (seconds since 1970 when it is ten digits). */
function measure(body: string, dated: boolean): number {
  if (!dated) return Number(body);
  if (/^\d{10}$/.test(body)) return Number(body) * 1000;
  return Date.parse(/T\d\d:\d\d$/.test(body) ? `${body}Z` : body);
}

/** Checks a body against a row's "gives" cell. */
function check(example: Example, got: string, now: number): void {
  const where = `docs/templates.md:${example.line} ${example.template}`;
  const gives = example.gives;
  if (gives === '(empty)') return assert.equal(got, '', where);
  const asJson = /^JSON `(.*)`$/.exec(gives);
  if (asJson) return assert.deepEqual(JSON.parse(got), JSON.parse(asJson[1]!), `${where}: ${got}`);
  const pattern = /^`\/(.*)\/`(?: from `([^`]+)` to `([^`]+)`)?$/.exec(gives);
  if (!pattern) return assert.equal(got, code(gives), where);
  assert.match(got, new RegExp(pattern[1]!), where);
  if (pattern[2] === undefined) return;
  const dated = !/^-?\d+(\.\d+)?$/.test(pattern[2]);
  const [lo, hi] = [bound(pattern[2], now), bound(pattern[3]!, now)];
  // A day's slack on dates: a date without a time is its midnight, in whatever zone it names.
  const slack = dated ? DAY : 0;
  const value = measure(got, dated);
  assert.ok(
    value >= lo - slack && value <= hi + slack,
    `${where}: ${got} is not from ${pattern[2]} to ${pattern[3]}`,
  );
}

describe('docs/templates.md examples', () => {
  const examples = docExamples(readFileSync(join(ROOT, 'docs', 'templates.md'), 'utf8'));

  it('are many, with one endpoint each', () => {
    assert.ok(examples.length >= 60, `found ${examples.length}`);
    const keys = examples.map((e) => `${e.method} ${e.path}`);
    assert.equal(new Set(keys).size, keys.length, 'each example has its own endpoint');
  });

  it('every helper example of the tables above is one of them', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'templates.md'), 'utf8');
    const tables = doc.slice(doc.indexOf('## Helpers'), doc.indexOf('### Mockoon helpers'));
    const tested = examples.map((e) => e.template).join('\n');
    const missing = tables
      .split('\n')
      .filter((row) => /^\| `/.test(row))
      .flatMap((row) => [...(cells(row)[1] ?? '').matchAll(/`([^`]*\{\{[^`]*)`/g)].map((m) => m[1]!))
      .filter((t) => !t.includes('…') && !tested.includes(t));
    assert.deepEqual(missing, [], 'helper examples with no row in the examples table');
  });

  it('answer over HTTP as documented', async (t) => {
    const sandbox = cliSandbox(t, 'mockdev-doc-examples-');
    const { cli } = sandbox;
    assert.equal((await cli(['project', 'create', 'docs'])).code, 0);
    for (const e of examples) {
      const r = await cli(['endpoint', 'add', 'docs', '-m', e.method, '-p', e.path, '-b', e.template]);
      assert.equal(r.code, 0, `docs/templates.md:${e.line}: ${r.stderr}`);
    }
    const server = await startServe(['docs'], { dataDir: sandbox.dataDir });
    sandbox.defer(() => server.stop());
    const failures: string[] = [];
    for (const e of examples) {
      const req = requestOf(e.request);
      const { status, text: got } = await send(`${server.url}${req.path}`, e.method, req.headers, req.body);
      try {
        assert.equal(status, 200, `docs/templates.md:${e.line} ${e.template}: ${got}`);
        check(e, got, Date.now());
      } catch (err) {
        failures.push(
          err instanceof Error ? err.message.split('\n')[0]! + ` (got ${JSON.stringify(got)})` : String(err),
        );
      }
    }
    assert.deepEqual(failures, []);
  });
});
