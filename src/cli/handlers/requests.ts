import {
  clearRequests,
  countRequests,
  deleteRequests,
  getRequest,
  listRequests,
  starRequest,
  waitForRequests,
} from '../../app/requests.js';
import type { RequestRecord } from '../../core/model/request.js';
import { DEFAULT_WAIT_TIMEOUT_MS } from '../../core/model/request-wait.js';
import { toInt } from '../args.js';
import type { RequestsOptions } from '../commands/requests.js';
import { confirmDestructive } from '../confirm.js';
import { note, printFields, printJson, printLine, printTable, prettyBody } from '../output.js';
import { cliContext } from './context.js';
import { currentRun } from '../io.js';

const target = (r: RequestRecord): string => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(r.query)) for (const x of Array.isArray(v) ? v : [v]) q.append(k, x);
  const qs = q.toString();
  return qs ? `${r.path}?${qs}` : r.path;
};

/** With no project, the project in the current folder. */
export async function list(project: string | undefined, opts: RequestsOptions): Promise<void> {
  const records = await listRequests(
    cliContext(),
    project,
    {
      limit: toInt(opts.limit, '--limit'),
      method: opts.method,
      status: opts.status,
      starred: opts.starred ? true : undefined,
      path: opts.path,
      violations: opts.violations ? true : undefined,
    },
    { command: 'requests list' },
  );
  if (opts.json) return printJson(records);
  printRecords(records, emptyListMessage(opts));
}

/** The request table of `list` and `wait`. */
function printRecords(records: RequestRecord[], empty: string): void {
  printTable(
    records,
    [
      { header: 'ID', value: (r) => r.id, align: 'right' },
      { header: 'TIME', value: (r) => r.timestamp },
      { header: 'METHOD', value: (r) => r.method },
      { header: 'PATH', value: target },
      { header: 'STATUS', value: (r) => r.status, align: 'right' },
      { header: 'MS', value: (r) => r.durationMs.toFixed(1), align: 'right' },
      { header: 'STAR', value: (r) => (r.starred ? '*' : '') },
      ...(records.some((r) => r.contract)
        ? [{ header: 'CONTRACT', value: (r: RequestRecord) => contractColumn(r) }]
        : []),
    ],
    empty,
  );
}

/** The filters `count` and `wait` share with `list`, and --since. */
const countInput = (opts: RequestsOptions) => ({
  method: opts.method,
  status: opts.status,
  starred: opts.starred ? true : undefined,
  path: opts.path,
  violations: opts.violations ? true : undefined,
  since: opts.since,
});

/** Prints the number alone (for scripts), or `{ "count": N }` with --json. */
export async function count(project: string | undefined, opts: RequestsOptions): Promise<void> {
  const result = await countRequests(cliContext(), project, countInput(opts), {
    command: 'requests count',
  });
  if (opts.json) return printJson(result);
  printLine(String(result.count));
}

/** Prints the requests waited for; at the timeout, those seen, and exits 1 saying how many. */
export async function wait(project: string | undefined, opts: RequestsOptions): Promise<void> {
  const timeoutMs = toInt(opts.timeout, '--timeout');
  const result = await waitForRequests(
    cliContext(),
    project,
    { ...countInput(opts), count: toInt(opts.count, '--count'), timeoutMs },
    { command: 'requests wait' },
  );
  if (opts.json) printJson(result);
  else printRecords(result.records, 'No matching request logged.');
  if (result.done) return;
  currentRun().exitCode = 1;
  const n = (k: number) => `${k} matching request${k === 1 ? '' : 's'}`;
  note(
    `Timed out after ${timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS} ms: saw ${n(result.count)}${opts.since === undefined ? '' : ` after ${opts.since}`}, waited for ${result.wanted}`,
  );
}

/** What an empty list says: "with these filters" only when filters were given. */
function emptyListMessage(opts: RequestsOptions): string {
  const filters = [
    opts.method !== undefined ? `-m ${opts.method}` : undefined,
    opts.status !== undefined ? `-s ${opts.status}` : undefined,
    opts.starred ? '--starred' : undefined,
    opts.path !== undefined ? `--path ${opts.path}` : undefined,
    opts.violations ? '--violations' : undefined,
  ].filter((f) => f !== undefined);
  return filters.length
    ? `No logged requests match these filters (${filters.join(', ')}). Drop them to see every request.`
    : "No requests logged yet. They appear here once the project's mock server (mockdev serve) answers one.";
}

/** A record's live contract verdict in the list: ok, the number of violations, or nothing (not checked). */
const contractColumn = (r: RequestRecord): string =>
  !r.contract
    ? ''
    : r.contract.ok
      ? 'ok'
      : `${r.contract.violations.length} violation${r.contract.violations.length === 1 ? '' : 's'}`;

function printHeaders(headers: Record<string, string>): void {
  const entries = Object.entries(headers);
  if (entries.length === 0) printLine('  (none)');
  for (const [k, v] of entries) printLine(`  ${k}: ${v}`);
}

export async function show(id: string, opts: RequestsOptions): Promise<void> {
  const r = await getRequest(cliContext(), id);
  if (opts.json) return printJson(r);
  printFields([
    ['id', r.id],
    ['time', r.timestamp],
    ['request', `${r.method} ${target(r)}`],
    ['status', r.status === 0 && r.fault ? '(none: no HTTP answer was sent)' : r.status],
    ['duration', `${r.durationMs.toFixed(3)} ms`],
    ['delay', r.delayMs ? `${r.delayMs} ms` : 'none'],
    ['fault', r.fault ?? 'none'],
    ['endpoint', r.endpointId ?? '(none matched)'],
    [
      'answered by',
      r.variation
        ? `variation "${r.variation.name}" (id ${r.variation.id})`
        : r.endpointId
          ? 'the endpoint itself (no variation)'
          : 'mockdev (no endpoint)',
    ],
    ['protocol', r.protocol ?? '(not logged)'],
    ['client', r.clientAddress ?? '(not logged)'],
    ['starred', r.starred ? 'yes' : 'no'],
    ...(r.truncated
      ? ([['truncated', 'yes: a body was longer than the log keeps']] as [string, unknown][])
      : []),
    ['contract', contractSummary(r)],
  ]);
  printLine();
  printLine('Request headers:');
  printHeaders(r.headers);
  printLine('Request body:');
  printLine(r.body ? prettyBody(r.body) : '  (empty)');
  printLine();
  printLine(`Response ${r.response.status}`);
  printLine('Response headers:');
  printHeaders(r.response.headers);
  printLine('Response body:');
  printLine(r.response.body ? prettyBody(r.response.body) : '  (empty)');
  printViolations(r);
}

/** What the live contract check said of a record, in a line. */
function contractSummary(r: RequestRecord): string {
  const c = r.contract;
  if (!c) return 'not checked';
  const n = c.violations.length;
  const verdict = c.ok ? 'passed' : `failed: ${n} violation${n === 1 ? '' : 's'}`;
  return c.notChecked ? `${verdict} (${c.notChecked})` : verdict;
}

/** The violations the live contract check found, one per line, with where in the document the rule is. */
function printViolations(r: RequestRecord): void {
  const violations = r.contract?.violations ?? [];
  if (violations.length === 0) return;
  printLine();
  printLine(`Contract violations${violations[0]!.operation ? ` (${violations[0]!.operation})` : ''}:`);
  for (const v of violations) {
    printLine(`  ${v.in} ${v.location}: ${v.message} [${v.rule}]`);
    printLine(`    at ${v.schemaPath}`);
  }
}

export async function remove(ids: string[], opts: RequestsOptions): Promise<void> {
  const what = ids.length === 1 ? `request ${ids[0]}` : `${ids.length} requests (${ids.join(', ')})`;
  if (!(await confirmDestructive(`Delete ${what}?`, opts.force))) {
    note('Nothing deleted.');
    return;
  }
  const result = await deleteRequests(cliContext(), ids);
  if (opts.json) return printJson(result);
  printLine(
    `Deleted ${result.deleted.length} request${result.deleted.length === 1 ? '' : 's'}: ${result.deleted.join(', ')}`,
  );
}

export async function clear(project: string, opts: RequestsOptions): Promise<void> {
  if (!(await confirmDestructive(`Delete every logged request of "${project}"?`, opts.force))) {
    note('Nothing deleted.');
    return;
  }
  const result = await clearRequests(cliContext(), project);
  if (opts.json) return printJson(result);
  printLine(`Deleted ${result.deleted} request${result.deleted === 1 ? '' : 's'} of "${project}".`);
}

export async function star(id: string, opts: RequestsOptions): Promise<void> {
  const r = await starRequest(cliContext(), id, !opts.unstar);
  if (opts.json) return printJson(r);
  printLine(
    `${r.starred ? 'Starred' : 'Unstarred'} request ${r.id} (${r.method} ${target(r)} -> ${r.status})`,
  );
}
