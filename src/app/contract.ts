/**
 * Contract testing (docs/contract.md): the use cases the CLI, the admin API and the UI call, and
 * the server's live check uses. Pro: each one passes the license gate first (requirePro
 * 'contract'). A project's contract is an OpenAPI document stored in its folder (ContractStore)
 * and recorded in project.json (`contract`); `spec` options name another document (a file or an
 * http(s) URL) for one call.
 */
import type { ContractRun, CompiledContract } from '../core/contract/index.js';
import type { ContractCoverage, ContractInfo, ContractReport } from '../core/model/contract.js';
import type { StoredProject } from '../core/ports.js';
import type { AppContext } from './context.js';
import type { ResolveOptions } from './projects.js';

const notBuilt = (...args: unknown[]): never => {
  void args;
  throw new Error('not built yet: part "app" of issue 23');
};

export interface ImportContractInput {
  /** An http(s) URL to fetch the document from (redirects followed, 30 s, 50 MiB). */
  url?: string;
  /** The document itself (the admin API's upload); one of url and text. */
  text?: string;
  /** Write the fetched document to this file (relative to the working folder) instead of storing it. */
  output?: string;
}

export interface ImportContractResult {
  /** The contract as stored; absent with `output`. */
  contract?: ContractInfo;
  /** The file written with `output`. */
  output?: string;
  /** Bytes of the document. */
  bytes: number;
}

/**
 * (Pro) Fetches (or takes) an OpenAPI document, checks it is a valid Swagger 2.0 / OpenAPI 3.0 /
 * 3.1 document (the location of the first error named, INVALID_INPUT), and stores it as the
 * project's contract, replacing the one before, keeping `live`; or writes it to `output`.
 */
export async function importContract(
  ctx: AppContext,
  projectRef: string,
  input: ImportContractInput,
  options?: ResolveOptions,
): Promise<ImportContractResult> {
  return notBuilt(ctx, projectRef, input, options);
}

/** (Pro) The project's stored contract; NOT_FOUND saying to run `contract import` when it has none. */
export async function getContract(
  ctx: AppContext,
  projectRef: string,
  options?: ResolveOptions,
): Promise<ContractInfo> {
  return notBuilt(ctx, projectRef, options);
}

export interface ValidateContractInput {
  /** Another document for this call: a file path (relative to the working folder) or an http(s) URL. */
  spec?: string;
  /** Only the last N logged requests (default: every retained one). */
  limit?: number;
}

/**
 * (Pro) Checks the project's logged requests and their responses against the contract (or
 * `spec`). INVALID_ARGUMENT (exit 2) when there is neither, saying to pass `-s` or run
 * `contract import`.
 */
export async function validateContract(
  ctx: AppContext,
  projectRef: string,
  input: ValidateContractInput = {},
  options?: ResolveOptions,
): Promise<ContractRun> {
  return notBuilt(ctx, projectRef, input, options);
}

/** (Pro) Coverage of the contract's (or `spec`'s) operations by the project's logged requests. */
export async function contractStatus(
  ctx: AppContext,
  projectRef: string,
  input: { spec?: string } = {},
  options?: ResolveOptions,
): Promise<ContractCoverage> {
  return notBuilt(ctx, projectRef, input, options);
}

/** (Pro) Turns live checking of a plain `serve` on or off (project.json `contract.live`); needs a stored contract. */
export async function setContractLive(
  ctx: AppContext,
  projectRef: string,
  live: boolean,
  options?: ResolveOptions,
): Promise<ContractInfo> {
  return notBuilt(ctx, projectRef, live, options);
}

/**
 * The compiled contract a server checks with: `spec` when given, else the project's stored one;
 * undefined when `spec` is not given and the project has none. Compiled once per document text
 * and kept (a few), so a reload that did not change the document compiles nothing.
 */
export async function loadContract(
  ctx: AppContext,
  stored: StoredProject,
  spec?: string,
): Promise<{ contract: CompiledContract; label: string } | undefined> {
  return notBuilt(ctx, stored, spec);
}

export type { ContractReport };
