/**
 * The contract engine (docs/contract.md): an OpenAPI document compiled once into a checker of
 * logged requests, and the validation report and coverage built from its results. Pure: a
 * dereferenced document in (app/openapi-load.ts reads and dereferences it), results out; no I/O.
 *
 * Compiling is the costly part (every schema compiled by ajv, every path template turned into a
 * matcher) and happens once per document; `check` only runs what was compiled. The app keeps
 * compiled contracts by the document's text (app/contract.ts), so neither a validation nor a
 * live check ever compiles per request.
 */
import type { ContractCoverage, ContractDialect, ContractReport, RequestResult } from '../model/contract.js';
import type { RequestRecord } from '../model/request.js';
import { checkRecord } from './check.js';
import { compileDocument } from './compile.js';
import { coverage, runRecords } from './report.js';

export { NOT_CHECKED_TRUNCATED } from './check.js';

/** One operation of the document. */
export interface ContractOperation {
  /** `GET /pets/{petId}`: the method upper-case and the path template as the document writes it. */
  operation: string;
  method: string;
  path: string;
  operationId?: string;
}

export interface CompiledContract {
  dialect: ContractDialect;
  /** info.title and info.version ('' when absent). */
  title: string;
  version: string;
  /** Every operation, in document order. */
  operations: ContractOperation[];
  /**
   * Checks one logged request and its response: the operation (after the `servers` / `basePath`
   * prefix), parameters, request body, response status, headers, media type and body. A body the
   * log cut short (`record.truncated`) is not checked (`notChecked` says so), never a violation.
   * Never throws for any record.
   */
  check(record: RequestRecord): RequestResult;
}

/**
 * Compiles a dereferenced OpenAPI 3.1 / 3.0 / Swagger 2.0 document (object cycles allowed: a
 * recursive schema). INVALID_INPUT naming the schema's pointer when a schema cannot be compiled.
 */
export function compileContract(
  document: Record<string, unknown>,
  dialect: ContractDialect,
): CompiledContract {
  const compiled = compileDocument(document, dialect);
  const info = (document.info ?? {}) as Record<string, unknown>;
  return {
    dialect,
    title: typeof info.title === 'string' ? info.title : '',
    version: info.version === undefined || info.version === null ? '' : String(info.version),
    operations: compiled.ops.map(({ spec }) => ({
      operation: spec.operation,
      method: spec.method,
      path: spec.path,
      ...(spec.operationId !== undefined ? { operationId: spec.operationId } : {}),
    })),
    check: (record) => checkRecord(compiled, record),
  };
}

/** The outcome of checking many records: the report `contract validate` prints and each request's result (JUnit). */
export interface ContractRun {
  report: ContractReport;
  /** One per record checked, in the order given. */
  results: RequestResult[];
}

/** Checks every record (newest first, as the log lists them) and sums them up. `spec` names the document. */
export function validateRecords(
  contract: CompiledContract,
  records: RequestRecord[],
  spec: string,
): ContractRun {
  return runRecords(contract, records, spec);
}

/** Coverage of the document's operations by the records (from their results). */
export function coverageOf(contract: CompiledContract, run: ContractRun): ContractCoverage {
  return coverage(contract, run);
}
