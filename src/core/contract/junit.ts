/**
 * `contract validate --junit FILE`: the results as JUnit XML, the format CI dashboards read
 * (Jenkins, GitLab, GitHub test reporters). One testsuite per operation of the document (in the
 * order first met; requests no operation matched in a suite of their own), one testcase per
 * request, a failure per failing request carrying its violations. Pure: results in, text out.
 */
import type { ContractReport, ContractViolation, RequestResult } from '../model/contract.js';

/** The suite of the requests no operation of the document matched. */
export const UNMATCHED_SUITE = 'unmatched requests';

/**
 * Characters XML 1.0 cannot carry at all (control characters other than tab and line breaks,
 * lone surrogates, U+FFFE and U+FFFF): written as `\uXXXX` text, so the file stays well-formed.
 */
const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const visible = (text: string): string =>
  text.replace(NOT_XML, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Text content: `&`, `<` and `>` escaped (`>` for `]]>`). */
export const xmlText = (text: string): string =>
  visible(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** An attribute value (double-quoted): also quotes, and tabs and line breaks kept as references. */
export const xmlAttribute = (text: string): string =>
  xmlText(text)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');

const attrs = (values: Record<string, string | number>): string =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${xmlAttribute(String(value))}"`)
    .join('');

const shown = (value: unknown): string => {
  if (value === '') return '""';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === undefined ? String(value) : text;
};

/** What is wrong where: the message, after the location unless the message starts with it. */
export const violationText = (v: ContractViolation): string =>
  v.location && !v.message.startsWith(v.location) ? `${v.location}: ${v.message}` : v.message;

/**
 * One violation as a line of a report (`request query.limit must be <= 100, got 500 [maximum];
 * expected 100; actual 500; at #/paths/…`): what JUnit failures and `contract validate` list.
 */
export function violationLine(v: ContractViolation): string {
  const parts = [`${v.in} ${violationText(v)} [${v.rule}]`];
  if (v.expected !== undefined) parts.push(`expected ${shown(v.expected)}`);
  if (v.actual !== undefined) parts.push(`actual ${shown(v.actual)}`);
  parts.push(`at ${v.schemaPath}`);
  return parts.join('; ');
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function testcase(suite: string, r: RequestResult, indent: string): string {
  const open = `${indent}<testcase${attrs({ classname: suite, name: `${r.method} ${r.path} (${r.requestId})` })}`;
  const inner: string[] = [];
  if (r.outcome === 'failed') {
    const first = r.violations[0];
    const message = first ? `${plural(r.violations.length, 'violation')}: ${violationText(first)}` : 'failed';
    const body = r.violations.map(violationLine).join('\n');
    inner.push(
      `${indent}  <failure${attrs({ message, type: first?.rule ?? 'contract' })}>${xmlText(body)}</failure>`,
    );
  }
  if (r.notChecked)
    inner.push(`${indent}  <system-out>${xmlText(`not checked: ${r.notChecked}`)}</system-out>`);
  return inner.length ? `${open}>\n${inner.join('\n')}\n${indent}</testcase>` : `${open}/>`;
}

/**
 * The JUnit XML of a validation. `results` are the run's, one per request; `report` names the
 * document and gives the totals.
 */
export function contractJunit(report: ContractReport, results: RequestResult[], timestamp?: string): string {
  const suites = new Map<string, RequestResult[]>();
  for (const r of results) {
    const name = r.operation ?? UNMATCHED_SUITE;
    const list = suites.get(name);
    if (list) list.push(r);
    else suites.set(name, [r]);
  }
  const failed = results.filter((r) => r.outcome === 'failed').length;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: `contract ${report.spec}`, tests: results.length, failures: failed, errors: 0 })}>`,
  ];
  for (const [name, list] of suites) {
    const failures = list.filter((r) => r.outcome === 'failed').length;
    lines.push(
      `  <testsuite${attrs({
        name,
        tests: list.length,
        failures,
        errors: 0,
        skipped: 0,
        ...(timestamp ? { timestamp } : {}),
      })}>`,
    );
    for (const r of list) lines.push(testcase(name, r, '    '));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}
