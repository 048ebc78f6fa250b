import * as z from 'zod';

/**
 * Contract testing (docs/contract.md): the request log checked against an OpenAPI document. The
 * shapes every adapter shares: what project.json records of a project's contract, one violation,
 * the verdict a live check stores with a request record, the report of `contract validate` and
 * the coverage of `contract status`.
 */

/** How long `contract import` (and `-s URL`) waits for the document. */
export const CONTRACT_FETCH_TIMEOUT_MS = 30_000;
/** The largest document `contract import` takes (50 MiB). */
export const CONTRACT_MAX_BYTES = 50 * 1024 * 1024;
/** Redirects followed before giving up. */
export const CONTRACT_MAX_REDIRECTS = 5;

/** The OpenAPI versions a contract may be written in. */
export const CONTRACT_DIALECTS = ['2.0', '3.0', '3.1'] as const;
export type ContractDialect = (typeof CONTRACT_DIALECTS)[number];

/**
 * What project.json records of the project's contract (`contract`): the stored document's file
 * (in the project's folder), where it came from, and whether a plain `serve` checks live.
 */
export const ContractRefSchema = z.object({
  /** The document's file name in the project folder (e.g. `contract.yaml`). */
  file: z.string().min(1),
  /** Where it was imported from: a URL, or `upload` for a document sent as text. */
  source: z.string(),
  importedAt: z.string(),
  /** true: `serve` checks each request as it is logged, as `serve --contract` does. */
  live: z.boolean().optional(),
});
export type ContractRef = z.infer<typeof ContractRefSchema>;

/** The rules a violation names (`rule`). */
export const VIOLATION_RULES = [
  'unknown-operation',
  'required',
  'type',
  'format',
  'enum',
  'pattern',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'additionalProperties',
  'const',
  'oneOf',
  'anyOf',
  'not',
  'discriminator',
  'readOnly',
  'writeOnly',
  'style',
  'media-type',
  'status',
  'body',
  'schema',
] as const;
export type ViolationRule = (typeof VIOLATION_RULES)[number];

/** One way a request or its response breaks the contract. */
export const ContractViolationSchema = z.object({
  requestId: z.string(),
  method: z.string(),
  /** The request path as logged (no query). */
  path: z.string(),
  /** `GET /pets/{petId}` (the document's path template); null: no operation matched. */
  operation: z.string().nullable(),
  in: z.enum(['request', 'response']),
  /** Where: `path.petId`, `query.limit`, `header.x-trace`, `cookie.session`, `body`, `body.items[2].id`, `status`, `header.content-type`. */
  location: z.string(),
  /** Which rule: one of VIOLATION_RULES (an ajv keyword otherwise, as it is named there). */
  rule: z.string(),
  /** One line for people: what is wrong there. */
  message: z.string(),
  /** What the document asks for (a type, an enum list, a pattern, the declared statuses …). */
  expected: z.unknown().optional(),
  /** What the traffic had (cut short when long). */
  actual: z.unknown().optional(),
  /** JSON pointer into the document of the rule broken (`#/paths/~1pets/get/parameters/0/schema/maximum`). */
  schemaPath: z.string(),
});
export type ContractViolation = z.infer<typeof ContractViolationSchema>;

/** A live check's verdict, stored with the request record (`contract`). */
export const ContractVerdictSchema = z.object({
  ok: z.boolean(),
  violations: z.array(ContractViolationSchema),
  /** Set when a body could not be checked (the log cut it short): why. */
  notChecked: z.string().optional(),
});
export type ContractVerdict = z.infer<typeof ContractVerdictSchema>;

/** One request's outcome in a validation (JUnit writes one testcase per request). */
export interface RequestResult {
  requestId: string;
  method: string;
  path: string;
  /** `GET /pets/{petId}`; null: no operation matched (then a violation `unknown-operation`). */
  operation: string | null;
  outcome: 'passed' | 'failed';
  violations: ContractViolation[];
  /** Set when a body was not checked (the log cut it short): why. Not a violation. */
  notChecked?: string;
}

/** What `contract validate --json` prints and the admin API answers. */
export const ContractReportSchema = z.object({
  /** The document checked against: the stored contract's source, a file or a URL. */
  spec: z.string(),
  /** Requests checked (passed + failed). */
  checked: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
  /** Requests whose body (or response body) was not checked because the log cut it short. */
  skipped: z.number().int(),
  violations: z.array(ContractViolationSchema),
});
export type ContractReport = z.infer<typeof ContractReportSchema>;

/** One operation of the document in the coverage. */
export const OperationCoverageSchema = z.object({
  /** `GET /pets/{petId}` */
  operation: z.string(),
  method: z.string(),
  path: z.string(),
  operationId: z.string().optional(),
  requests: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
});
export type OperationCoverage = z.infer<typeof OperationCoverageSchema>;

/** What `contract status --json` prints and the admin API answers. */
export const ContractCoverageSchema = z.object({
  spec: z.string(),
  /** Every operation of the document, in document order. */
  operations: z.array(OperationCoverageSchema),
  /** The operations no logged request exercised (`GET /pets/{petId}`). */
  unexercised: z.array(z.string()),
  /** The logged requests that match no operation, grouped by method and path. */
  unmatched: z.array(z.object({ method: z.string(), path: z.string(), requests: z.number().int() })),
  /** Operations exercised, of all; percent = covered / total × 100, one decimal. */
  covered: z.number().int(),
  total: z.number().int(),
  percent: z.number(),
});
export type ContractCoverage = z.infer<typeof ContractCoverageSchema>;

/** The project's contract as `GET …/contract` answers and the UI shows it. */
export const ContractInfoSchema = z.object({
  file: z.string(),
  source: z.string(),
  importedAt: z.string(),
  live: z.boolean(),
  dialect: z.enum(CONTRACT_DIALECTS),
  title: z.string(),
  /** The document's `info.version`. */
  version: z.string(),
  operations: z.array(
    z.object({
      operation: z.string(),
      method: z.string(),
      path: z.string(),
      operationId: z.string().optional(),
    }),
  ),
});
export type ContractInfo = z.infer<typeof ContractInfoSchema>;
