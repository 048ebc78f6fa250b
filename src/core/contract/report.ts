import type {
  ContractCoverage,
  ContractReport,
  OperationCoverage,
  RequestResult,
} from '../model/contract.js';
import type { RequestRecord } from '../model/request.js';

/**
 * The sums of a validation (`contract validate`) and the coverage of the document's operations
 * (`contract status`), from the results of checking each record.
 */

interface Checkable {
  check(record: RequestRecord): RequestResult;
  operations: { operation: string; method: string; path: string; operationId?: string }[];
}

export function runRecords(
  contract: Checkable,
  records: RequestRecord[],
  spec: string,
): { report: ContractReport; results: RequestResult[] } {
  const results: RequestResult[] = new Array(records.length);
  let passed = 0;
  let skipped = 0;
  const violations = [];
  for (let i = 0; i < records.length; i++) {
    const r = contract.check(records[i]!);
    results[i] = r;
    if (r.outcome === 'passed') passed++;
    if (r.notChecked !== undefined) skipped++;
    for (const v of r.violations) violations.push(v);
  }
  return {
    report: { spec, checked: records.length, passed, failed: records.length - passed, skipped, violations },
    results,
  };
}

export function coverage(
  contract: Checkable,
  run: { report: ContractReport; results: RequestResult[] },
): ContractCoverage {
  const byOperation = new Map<string, OperationCoverage>();
  const operations = contract.operations.map((o) => {
    const c: OperationCoverage = {
      operation: o.operation,
      method: o.method,
      path: o.path,
      ...(o.operationId !== undefined ? { operationId: o.operationId } : {}),
      requests: 0,
      passed: 0,
      failed: 0,
    };
    byOperation.set(o.operation, c);
    return c;
  });
  const unmatched = new Map<string, { method: string; path: string; requests: number }>();
  for (const r of run.results) {
    const c = r.operation === null ? undefined : byOperation.get(r.operation);
    if (c) {
      c.requests++;
      if (r.outcome === 'passed') c.passed++;
      else c.failed++;
      continue;
    }
    const key = `${r.method.toUpperCase()} ${r.path}`;
    const u = unmatched.get(key);
    if (u) u.requests++;
    else unmatched.set(key, { method: r.method.toUpperCase(), path: r.path, requests: 1 });
  }
  const unexercised = operations.filter((o) => o.requests === 0).map((o) => o.operation);
  const total = operations.length;
  const covered = total - unexercised.length;
  return {
    spec: run.report.spec,
    operations,
    unexercised,
    unmatched: [...unmatched.values()],
    covered,
    total,
    percent: total ? Math.round((covered / total) * 1000) / 10 : 0,
  };
}
