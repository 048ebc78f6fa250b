/**
 * Contract testing (docs/contract.md): the use cases the CLI, the admin API and the UI call, and
 * the server's live check uses. Pro: each one passes the license gate first (requirePro
 * 'contract'). A project's contract is an OpenAPI document stored in its folder (ContractStore)
 * and recorded in project.json (`contract`); `spec` options name another document (a file or an
 * http(s) URL) for one call.
 */
import {
  coverageOf,
  validateRecords,
  type CompiledContract,
  type ContractRun,
} from '../core/contract/index.js';
import { contractJunit } from '../core/contract/junit.js';
import { MockdevError } from '../core/errors.js';
import type { ContractCoverage, ContractInfo, ContractRef, ContractReport } from '../core/model/contract.js';
import { MAX_REQUEST_LIST_LIMIT, parseRequestFilters } from '../core/model/request.js';
import type { StoredProject } from '../core/ports.js';
import { detectFormat } from '../formats/openapi/document-text.js';
import type { AppContext } from './context.js';
import {
  compileContractText,
  fetchContractText,
  givenContractText,
  specText,
  storedText,
  type ContractText,
} from './contract-document.js';
import { requirePro } from './license.js';
import { reachOf, resolveProject, type ResolveOptions } from './projects.js';

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

/** What a project's contract looks like to people: project.json's record and the document's parts. */
function infoOf(ref: ContractRef, contract: CompiledContract): ContractInfo {
  return {
    file: ref.file,
    source: ref.source,
    importedAt: ref.importedAt,
    live: ref.live === true,
    dialect: contract.dialect,
    title: contract.title,
    version: contract.version,
    operations: contract.operations.map((o) => ({
      operation: o.operation,
      method: o.method,
      path: o.path,
      ...(o.operationId !== undefined ? { operationId: o.operationId } : {}),
    })),
  };
}

const noContract = (stored: StoredProject): MockdevError =>
  new MockdevError('NOT_FOUND', `Project "${stored.project.name}" has no contract`, {
    hint: (say) => `${say.action('importContract', stored.project.name)} to give it one`,
    details: { project: stored.project.id },
  });

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
  await requirePro(ctx, 'contract');
  const target = await resolveProject(ctx, projectRef, options);
  if ((input.url === undefined) === (input.text === undefined))
    throw new MockdevError('INVALID_ARGUMENT', 'Give either the URL of the document or its text', {
      hint: (say) => `give the document as ${say.option('url')} or ${say.option('document')}`,
    });
  if (input.output !== undefined && reachOf(ctx, options).lookup !== 'any')
    throw new MockdevError(
      'INVALID_ARGUMENT',
      'The document can only be written to a file from the command line',
      {
        details: { field: 'output' },
      },
    );
  const doc =
    input.url !== undefined ? await fetchContractText(ctx, input.url) : givenContractText(input.text!);
  const contract = await compileContractText(ctx, doc);
  const bytes = Buffer.byteLength(doc.text);
  if (input.output !== undefined) {
    await ctx.files.writeAtomic(input.output, doc.text);
    return { output: ctx.files.resolve(input.output), bytes };
  }
  // The document first, then project.json naming it (a reader never sees a record of a missing file).
  const file = await ctx.contracts.write(target, doc.text, detectFormat(doc.text));
  const source = input.url !== undefined ? doc.label : 'upload';
  const { info, before } = await ctx.projects.update(target.key, (current) => {
    const previous = current.project.contract;
    const ref: ContractRef = {
      file,
      source,
      importedAt: new Date().toISOString(),
      ...(previous?.live ? { live: true } : {}),
    };
    const project = { ...current.project, contract: ref, updatedAt: ref.importedAt };
    return { project, result: { info: infoOf(ref, contract), before: previous } };
  });
  // A document of the other format before: its file goes (project.json no longer names it).
  if (before && before.file !== file)
    await ctx.contracts.remove({ ...target, project: { ...target.project, contract: before } });
  return { contract: info, bytes };
}

/** The project and its stored contract's record; NOT_FOUND when it has none. */
async function withContract(
  ctx: AppContext,
  projectRef: string,
  options?: ResolveOptions,
): Promise<{ stored: StoredProject; ref: ContractRef; doc: ContractText }> {
  await requirePro(ctx, 'contract');
  const stored = await resolveProject(ctx, projectRef, options);
  const ref = stored.project.contract;
  const doc = await storedText(ctx, stored);
  if (!ref || !doc) throw noContract(stored);
  return { stored, ref, doc };
}

/** (Pro) The project's stored contract; NOT_FOUND saying to run `contract import` when it has none. */
export async function getContract(
  ctx: AppContext,
  projectRef: string,
  options?: ResolveOptions,
): Promise<ContractInfo> {
  const { ref, doc } = await withContract(ctx, projectRef, options);
  return infoOf(ref, await compileContractText(ctx, doc));
}

export interface ValidateContractInput {
  /** Another document for this call: a file path (relative to the working folder) or an http(s) URL. */
  spec?: string;
  /** Only the last N logged requests (default: every retained one). */
  limit?: number;
  /**
   * Also write the run as JUnit XML to this file (relative to the working folder), violations or
   * not: the command line's `--junit FILE`.
   */
  junit?: string;
}

/** The document a validation or a status checks against: `spec`, else the stored contract. */
async function documentFor(
  ctx: AppContext,
  stored: StoredProject,
  spec: string | undefined,
  options?: ResolveOptions,
): Promise<{ contract: CompiledContract; label: string }> {
  const doc = spec !== undefined ? await specText(ctx, spec, options) : await storedText(ctx, stored);
  if (!doc)
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Project "${stored.project.name}" has no contract to check against`,
      {
        hint: (say) =>
          `pass the OpenAPI document as ${say.option('spec')} (a file or a URL), or ${say.action('importContract', stored.project.name)} first`,
        details: { project: stored.project.id },
      },
    );
  return { contract: await compileContractText(ctx, doc), label: doc.label };
}

/** The run over the project's logged requests (newest first), the last `limit` or every retained one. */
async function runOver(
  ctx: AppContext,
  projectRef: string,
  input: ValidateContractInput,
  options?: ResolveOptions,
): Promise<{ contract: CompiledContract; run: ContractRun }> {
  await requirePro(ctx, 'contract');
  const filters = parseRequestFilters({ limit: input.limit ?? MAX_REQUEST_LIST_LIMIT });
  const stored = await resolveProject(ctx, projectRef, options);
  const { contract, label } = await documentFor(ctx, stored, input.spec, options);
  const records = await ctx.requests.list(stored.project.id, filters);
  return { contract, run: validateRecords(contract, records, label) };
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
  if (input.junit !== undefined && reachOf(ctx, options).lookup !== 'any')
    throw new MockdevError(
      'INVALID_ARGUMENT',
      'The JUnit report can only be written to a file from the command line',
      {
        details: { field: 'junit' },
      },
    );
  const { run } = await runOver(ctx, projectRef, input, options);
  if (input.junit !== undefined)
    await ctx.files.writeAtomic(
      input.junit,
      contractJunit(run.report, run.results, new Date().toISOString()),
    );
  return run;
}

/** (Pro) Coverage of the contract's (or `spec`'s) operations by the project's logged requests. */
export async function contractStatus(
  ctx: AppContext,
  projectRef: string,
  input: { spec?: string } = {},
  options?: ResolveOptions,
): Promise<ContractCoverage> {
  const { contract, run } = await runOver(ctx, projectRef, { spec: input.spec }, options);
  return coverageOf(contract, run);
}

/** (Pro) Turns live checking of a plain `serve` on or off (project.json `contract.live`); needs a stored contract. */
export async function setContractLive(
  ctx: AppContext,
  projectRef: string,
  live: boolean,
  options?: ResolveOptions,
): Promise<ContractInfo> {
  const { stored, doc } = await withContract(ctx, projectRef, options);
  const contract = await compileContractText(ctx, doc);
  return ctx.projects.update(stored.key, (current) => {
    const ref = current.project.contract;
    if (!ref) throw noContract(current);
    const next: ContractRef = { ...ref };
    if (live) next.live = true;
    else delete next.live;
    const project = { ...current.project, contract: next, updatedAt: new Date().toISOString() };
    return { project, result: infoOf(next, contract) };
  });
}

/**
 * The compiled contract a server checks with: `spec` when given, else the project's stored one;
 * undefined when `spec` is not given and the project has none. Compiled once per document text
 * and kept (a few), so a reload that did not change the document compiles nothing. No license
 * check here: the server asks requirePro when it starts checking.
 */
export async function loadContract(
  ctx: AppContext,
  stored: StoredProject,
  spec?: string,
): Promise<{ contract: CompiledContract; label: string } | undefined> {
  const doc = spec !== undefined ? await specText(ctx, spec) : await storedText(ctx, stored);
  if (!doc) return undefined;
  return { contract: await compileContractText(ctx, doc), label: doc.label };
}

export type { ContractReport };
