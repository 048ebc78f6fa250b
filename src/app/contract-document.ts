/**
 * The documents contract testing checks against (docs/contract.md): read from a URL, a file, the
 * text given, or the project's stored contract; checked as a valid Swagger 2.0 / OpenAPI 3.0 /
 * 3.1 document (strict: the first problem, located, is the error); compiled by the engine, and
 * the compiled contract kept by the document's text, so that validate, status and a live check
 * never compile the same document twice.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { compileContract, type CompiledContract } from '../core/contract/index.js';
import { isDocumentUrl, maskDocumentUrl } from '../core/contract/document-url.js';
import { MockdevError } from '../core/errors.js';
import type { ContractDialect } from '../core/model/contract.js';
import type { FetchDocumentOptions, StoredProject } from '../core/ports.js';
import { controlReason } from '../core/text.js';
import type { AppContext } from './context.js';
import { loadDocument, readSource, type Source, type Within } from './openapi-load.js';
import { reachOf, type ResolveOptions } from './projects.js';

/** A document's text and what names it in reports and messages. */
export interface ContractText {
  text: string;
  /** The URL (secrets masked), the file as given, or the stored contract's source. */
  label: string;
  /** A file given by path: its relative `$ref`s are read from beside it. */
  file?: string;
}

/** How many compiled contracts are kept (a server, a validation and a status share them). */
export const KEPT_CONTRACTS = 4;
const compiled = new Map<string, CompiledContract>();
let compiles = 0;

const positive = (value: string | undefined): number | undefined => {
  const n = Number(value);
  return value !== undefined && Number.isInteger(n) && n > 0 ? n : undefined;
};

/**
 * The fetch bounds: 30 s, 50 MiB and 5 redirects, unless MOCKDEV_CONTRACT_FETCH_TIMEOUT_MS or
 * MOCKDEV_CONTRACT_MAX_BYTES (positive whole numbers) say otherwise.
 */
export const fetchOptions = (env: NodeJS.ProcessEnv): FetchDocumentOptions => ({
  timeoutMs: positive(env.MOCKDEV_CONTRACT_FETCH_TIMEOUT_MS),
  maxBytes: positive(env.MOCKDEV_CONTRACT_MAX_BYTES),
});

/** A document fetched over http(s); labelled by the URL as given, its secrets masked. */
export async function fetchContractText(ctx: AppContext, url: string): Promise<ContractText> {
  const fetched = await ctx.documents.fetch(url.trim(), fetchOptions(ctx.env));
  return { text: fetched.text, label: maskDocumentUrl(url.trim()) };
}

/** The text of a document given as text (an upload); refused when it is not text. */
export function givenContractText(text: string): ContractText {
  const reason = controlReason(text);
  if (reason)
    throw new MockdevError('INVALID_INPUT', `The OpenAPI document is not text: ${reason}`, {
      hint: 'Give an OpenAPI 3.x or Swagger 2.0 document in JSON or YAML',
    });
  return { text, label: 'The uploaded document' };
}

/**
 * `-s SPEC`: an http(s) URL, else a file (relative to the working folder). Callers that name
 * projects by id or name only (the admin API, MCP) may give a URL, never a path on this machine.
 */
export async function specText(
  ctx: AppContext,
  spec: string,
  options: ResolveOptions = {},
): Promise<ContractText> {
  const wanted = spec.trim();
  if (wanted === '')
    throw new MockdevError('INVALID_ARGUMENT', 'The spec is empty', {
      hint: 'Give a file or an http(s) URL of an OpenAPI document',
    });
  if (isDocumentUrl(wanted)) return fetchContractText(ctx, wanted);
  if (reachOf(ctx, options).lookup !== 'any')
    throw new MockdevError('INVALID_ARGUMENT', `The spec "${wanted}" is not an http(s) URL`, {
      hint: "Give the URL of an OpenAPI document, or import it as the project's contract first",
      details: { field: 'spec' },
    });
  const source = await readSource(ctx, { file: wanted }, undefined);
  return { text: source.text, label: wanted, file: wanted };
}

/** The project's stored contract; undefined when it has none. */
export async function storedText(ctx: AppContext, stored: StoredProject): Promise<ContractText | undefined> {
  const ref = stored.project.contract;
  if (!ref) return undefined;
  const found = await ctx.contracts.read(stored);
  if (!found) return undefined;
  return { text: found.text, label: /^https?:\/\//i.test(ref.source) ? ref.source : found.location };
}

/**
 * A document that is not a file reads no other file: its `$ref`s stay inside it (`#/…`). They
 * are looked for in a folder that does not exist, so any other is "cannot be resolved".
 */
const noFiles = (ctx: AppContext): { source: (t: ContractText) => Source; within: Within } => {
  const root = join(ctx.dataDir, '.contract-has-no-files');
  return {
    source: (t) => ({ text: t.text, label: t.label, base: join(root, 'contract') }),
    within: { root, name: 'the document (only #/ references are resolved)' },
  };
};

/** The strict check's error in the words of contract testing (no `--strict` to drop here). */
function contractDocumentError(e: MockdevError, doc: ContractText): MockdevError {
  const problems = (e.details?.problems ?? []) as { kind: string }[];
  const kind = problems[0]?.kind;
  if (kind !== 'invalid' && kind !== 'unresolved') return e;
  const hint =
    kind === 'unresolved' && doc.file === undefined
      ? 'A contract is one document: bundle the documents its $refs point to into it (only #/ references are resolved), then import it again'
      : kind === 'unresolved'
        ? 'Check that the referenced file exists relative to the document and the pointer after # names an existing part'
        : 'Fix the document there, then try again';
  return new MockdevError('INVALID_INPUT', e.message, { hint, details: e.details, cause: e });
}

const keyOf = (doc: ContractText): string =>
  createHash('sha256')
    .update(doc.file === undefined ? '' : doc.file)
    .update('\0')
    .update(doc.text)
    .digest('base64url');

/**
 * The document checked and compiled; kept by its text (a document given as a file also by its
 * path: its `$ref`s are read from beside it), the last KEPT_CONTRACTS.
 */
export async function compileContractText(ctx: AppContext, doc: ContractText): Promise<CompiledContract> {
  const key = keyOf(doc);
  const kept = compiled.get(key);
  if (kept) {
    // Most recently used last: the first is the one to drop.
    compiled.delete(key);
    compiled.set(key, kept);
    return kept;
  }
  let loaded;
  try {
    if (doc.file !== undefined) {
      const source = { text: doc.text, label: doc.label, base: ctx.files.resolve(doc.file) };
      loaded = await loadDocument(ctx, source, undefined, true);
    } else {
      const { source, within } = noFiles(ctx);
      loaded = await loadDocument(ctx, source(doc), within, true);
    }
  } catch (e) {
    throw e instanceof MockdevError ? contractDocumentError(e, doc) : e;
  }
  const contract = compileContract(loaded.document, loaded.dialect as ContractDialect);
  compiles++;
  compiled.set(key, contract);
  while (compiled.size > KEPT_CONTRACTS) compiled.delete(compiled.keys().next().value!);
  return contract;
}

/** How many documents this process compiled (a test sees a second validation compile nothing). */
export const contractCompiles = (): number => compiles;
