import {
  contractStatus,
  getContract,
  importContract,
  setContractLive,
  validateContract,
} from '../../app/contract.js';
import type { ContractRun } from '../../core/contract/index.js';
import { UNMATCHED_SUITE, violationLine } from '../../core/contract/junit.js';
import { MockdevError } from '../../core/errors.js';
import type { ContractCoverage, ContractInfo } from '../../core/model/contract.js';
import { quoteText } from '../../core/text.js';
import { toInt } from '../args.js';
import type { ContractOptions } from '../commands/contract.js';
import { currentRun } from '../io.js';
import { note, printFields, printJson, printLine, printTable } from '../output.js';
import { cliContext } from './context.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const DIALECT_NAMES: Record<ContractInfo['dialect'], string> = {
  '2.0': 'Swagger 2.0',
  '3.0': 'OpenAPI 3.0',
  '3.1': 'OpenAPI 3.1',
};

const describeDocument = (c: ContractInfo) =>
  `${c.title || 'untitled'}${c.version ? ` ${c.version}` : ''} (${DIALECT_NAMES[c.dialect]}, ${plural(c.operations.length, 'operation')})`;

export async function importDocument(project: string, url: string, opts: ContractOptions): Promise<void> {
  const result = await importContract(cliContext(), project, { url, output: opts.output });
  if (opts.json) return printJson(result);
  if (result.output !== undefined) {
    printLine(`Wrote ${result.output} (${plural(result.bytes, 'byte')}): a valid OpenAPI document.`);
    return;
  }
  const c = result.contract!;
  printLine(`Imported ${describeDocument(c)} as the contract of ${project}: ${c.file}`);
  printLine(`Next: mockdev contract validate ${project}`);
}

/** `checked 120 requests: 117 passed, 3 failed, 5 violations` (and what was not checked whole). */
export function summaryLine(run: ContractRun): string {
  const r = run.report;
  const skipped = r.skipped ? ` (${r.skipped} not checked whole: bodies the log cut short)` : '';
  return `checked ${plural(r.checked, 'request')}: ${r.passed} passed, ${r.failed} failed, ${plural(r.violations.length, 'violation')}${skipped}`;
}

/** The failing requests grouped by operation, each violation on a line of its own. */
function printViolations(run: ContractRun): void {
  const groups = new Map<string, ContractRun['results']>();
  for (const result of run.results) {
    if (result.outcome !== 'failed') continue;
    const name = result.operation ?? UNMATCHED_SUITE;
    groups.set(name, [...(groups.get(name) ?? []), result]);
  }
  for (const [name, results] of groups) {
    const count = results.reduce((n, r) => n + r.violations.length, 0);
    printLine();
    printLine(`${name}: ${plural(results.length, 'failed request')}, ${plural(count, 'violation')}`);
    for (const r of results) {
      printLine(`  ${r.requestId}  ${r.method} ${r.path}`);
      for (const v of r.violations) printLine(`    ${violationLine(v)}`);
    }
  }
}

export async function validate(project: string, opts: ContractOptions): Promise<void> {
  const run = await validateContract(cliContext(), project, {
    spec: opts.spec,
    limit: toInt(opts.limit, '--limit'),
    junit: opts.junit,
  });
  if (opts.json) printJson(run.report);
  else {
    printLine(summaryLine(run));
    printLine(`against ${run.report.spec}`);
    printViolations(run);
    if (run.report.checked === 0)
      note(`No requests logged for ${project} yet: serve it (mockdev serve ${project}) and send it traffic.`);
  }
  if (opts.junit !== undefined) note(`Wrote ${opts.junit} (JUnit XML)`);
  // A gate: any violation fails the run (exit 1), after the report is printed.
  if (run.report.violations.length > 0) currentRun().exitCode = 1;
}

function printCoverage(c: ContractCoverage): void {
  printLine(`Contract: ${c.spec}`);
  printLine(`Covered ${c.covered} of ${plural(c.total, 'operation')} (${c.percent.toFixed(1)}%)`);
  printLine();
  printTable(
    c.operations,
    [
      { header: 'OPERATION', value: (o) => o.operation },
      { header: 'REQUESTS', value: (o) => o.requests, align: 'right' },
      { header: 'PASSED', value: (o) => o.passed, align: 'right' },
      { header: 'FAILED', value: (o) => o.failed, align: 'right' },
    ],
    'The document has no operations.',
  );
  if (c.unexercised.length) {
    printLine();
    printLine(`Never exercised (${c.unexercised.length}):`);
    for (const o of c.unexercised) printLine(`  ${o}`);
  }
  if (c.unmatched.length) {
    printLine();
    printLine(`Matching no operation (${c.unmatched.reduce((n, u) => n + u.requests, 0)} requests):`);
    for (const u of c.unmatched) printLine(`  ${u.method} ${u.path}  ${plural(u.requests, 'request')}`);
  }
}

export async function status(project: string, opts: ContractOptions): Promise<void> {
  const coverage = await contractStatus(cliContext(), project, { spec: opts.spec });
  if (opts.json) printJson(coverage);
  else printCoverage(coverage);
}

function printContract(c: ContractInfo): void {
  printFields([
    ['Document', describeDocument(c)],
    ['File', c.file],
    ['Source', c.source],
    ['Imported', c.importedAt],
    ['Live checking', c.live ? 'on (mockdev serve checks each request)' : 'off'],
  ]);
  printLine();
  printTable(
    c.operations,
    [
      { header: 'OPERATION', value: (o) => o.operation },
      { header: 'OPERATION ID', value: (o) => o.operationId },
    ],
    'The document has no operations.',
  );
}

export async function show(project: string, opts: ContractOptions): Promise<void> {
  const c = await getContract(cliContext(), project);
  if (opts.json) printJson(c);
  else printContract(c);
}

export async function live(project: string, state: string, opts: ContractOptions): Promise<void> {
  const wanted = state.trim().toLowerCase();
  if (wanted !== 'on' && wanted !== 'off')
    throw new MockdevError('INVALID_ARGUMENT', `Invalid state ${quoteText(state)}: must be on or off`, {
      hint: `Example: mockdev contract live ${project} on`,
    });
  const c = await setContractLive(cliContext(), project, wanted === 'on');
  if (opts.json) return printJson(c);
  printLine(
    c.live
      ? `Live checking is on for ${project}: mockdev serve checks each request against the contract as it is logged (mockdev requests list ${project} --violations).`
      : `Live checking is off for ${project} (mockdev serve --contract still checks for one run).`,
  );
}
