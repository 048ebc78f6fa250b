import { dirname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MockdevError } from '../core/errors.js';
import { controlReason, notTextReason } from '../core/text.js';
import { readDocumentText, readOpenApiText, type DocumentText } from '../formats/openapi/document-text.js';
import { DocumentSet, type Dialect, type Origin } from '../formats/openapi/refs.js';
import type { AppContext } from './context.js';

/**
 * Reading an OpenAPI document for an import: the text (a file or given), the files its `$ref`s
 * point to, the check against the OpenAPI schema, and the dereferenced document. Lenient by
 * default: what breaks the schema and what cannot be resolved become problems with their
 * location; `strict` turns the first of them into the error. A document that is not JSON or
 * YAML, or not OpenAPI 2.0/3.0/3.1, is always refused.
 */

/** Something in the document that does not follow the specification, or was left out. */
export interface ImportWarning {
  /** One line: where, then what. */
  message: string;
  /** JSON pointer (`#/paths/~1pets/get`) in the document, or in `file` when that is given. */
  pointer?: string;
  /** A file a `$ref` led to, when the problem is there (relative to the document's folder). */
  file?: string;
  line?: number;
  column?: number;
}

/** A problem before it is located: a pointer in a document. */
export interface Problem {
  kind: 'invalid' | 'unresolved' | 'skipped' | 'ignored';
  uri: string;
  pointer: string;
  message: string;
  /** For an unresolved reference: the `$ref` and why it cannot be resolved. */
  ref?: string;
  reason?: string;
}

export type Within = { root: string; name: string } | undefined;

export interface LoadedDocument {
  label: string;
  /** The dereferenced document (cycles are object cycles). */
  document: Record<string, unknown>;
  dialect: Dialect;
  /** What breaks the schema and what could not be resolved (empty in strict mode: those throw). */
  problems: Problem[];
  /** The root document's URI (problems there are reported without a file). */
  rootUri: string;
  /** Turns problems into warnings with file, line and column (only the ones asked for are located). */
  locate(problems: Problem[]): ImportWarning[];
}

export interface Source {
  text: string;
  label: string;
  /** Absolute path the document's relative `$ref`s start from. */
  base: string;
}

export async function readSource(
  ctx: AppContext,
  input: { text?: string; file?: string },
  within: Within,
): Promise<Source> {
  if (input.text !== undefined && input.file !== undefined) {
    throw new MockdevError('INVALID_ARGUMENT', 'Give either the document text or a file, not both');
  }
  if (input.text !== undefined) {
    const reason = controlReason(input.text);
    if (reason) {
      throw new MockdevError('INVALID_INPUT', `The OpenAPI document is not text: ${reason}`, {
        hint: 'Give an OpenAPI 3.x or Swagger 2.0 document in JSON or YAML',
      });
    }
    return {
      text: input.text,
      label: 'The OpenAPI document',
      base: join(within?.root ?? ctx.cwd, 'openapi-document'),
    };
  }
  if (input.file === undefined || input.file.trim() === '') {
    throw new MockdevError('INVALID_ARGUMENT', 'No OpenAPI document given', {
      hint: (say) => `give the document as ${say.option('file')} or ${say.option('text')}`,
    });
  }
  const base = isAbsolute(input.file) ? input.file : join(within?.root ?? ctx.cwd, input.file);
  const text = await readTextFile(ctx, input.file, input.file, within);
  return { text, label: input.file, base };
}

/**
 * A file's text; a file that is not text (an image, an archive) is refused naming the file and
 * what it seems to be, never quoting its bytes.
 */
async function readTextFile(ctx: AppContext, path: string, label: string, within: Within): Promise<string> {
  const bytes = await ctx.files.read(path, { within });
  const reason = notTextReason(bytes);
  if (reason) {
    throw new MockdevError('INVALID_ARGUMENT', `${label} is not a text file: ${reason}`, {
      hint: 'Give an OpenAPI 3.x or Swagger 2.0 document in JSON or YAML',
      details: { file: label },
    });
  }
  return bytes.toString('utf8');
}

/** The document's version, or why mockdev cannot read it. */
function dialectOf(raw: Record<string, unknown>, label: string): Dialect {
  if (raw.swagger !== undefined) {
    if (String(raw.swagger) === '2.0') return '2.0';
    throw new MockdevError(
      'INVALID_INPUT',
      `${label} declares swagger ${String(raw.swagger)}, which mockdev does not read`,
      {
        hint: 'Supported: Swagger 2.0, OpenAPI 3.0.x and 3.1.x',
      },
    );
  }
  const version = typeof raw.openapi === 'string' ? raw.openapi : String(raw.openapi);
  const m = /^3\.([01])\.\d+(-.+)?$/.exec(version);
  if (typeof raw.openapi === 'string' && m) return m[1] === '1' ? '3.1' : '3.0';
  throw new MockdevError(
    'INVALID_INPUT',
    `${label} declares openapi ${version}, which mockdev does not read`,
    {
      hint: 'Supported: Swagger 2.0, OpenAPI 3.0.x and 3.1.x (the version is a string, e.g. "3.0.3")',
    },
  );
}

/** Where a problem is, for a message: `#/a/b (line 3, column 5)` or `other.yaml#/a (line 2, column 1)`. */
function where(w: { file?: string; pointer?: string; line?: number; column?: number }): string {
  const at = w.line !== undefined ? ` (line ${w.line}, column ${w.column})` : '';
  const pointer = w.pointer ?? '#';
  return w.file ? `${w.file}${pointer}${at}` : `${pointer === '#' ? 'the top level' : pointer}${at}`;
}

/**
 * Parses the document, reads the files its `$ref`s name, checks it against the OpenAPI schema
 * and dereferences it.
 */
export async function loadDocument(
  ctx: AppContext,
  source: Source,
  within: Within,
  strict: boolean,
): Promise<LoadedDocument> {
  const { label } = source;
  const root = readOpenApiText(source.text, label);
  const dialect = dialectOf(root.value, label);
  const rootUri = pathToFileURL(source.base).href;
  const texts = new Map<string, DocumentText>([[rootUri, root]]);
  const set = new DocumentSet(rootUri, root.value, dialect);
  const folder = dirname(source.base);
  const fileLabel = (uri: string) => {
    const path = fileURLToPath(uri);
    const rel = relative(folder, path);
    return rel && !rel.startsWith('..') ? rel : path;
  };

  // The files `$ref`s point to, and the files theirs point to.
  for (let missing = set.missing(); missing.length; missing = set.missing()) {
    for (const uri of missing) {
      const name = fileLabel(uri);
      try {
        const text = await readTextFile(ctx, fileURLToPath(uri), name, within);
        const read = readDocumentText(text, name);
        texts.set(uri, read);
        set.add(uri, read.value, dialect);
      } catch (e) {
        if (!(e instanceof MockdevError)) throw e;
        // Reported (or, strict, refused) through each $ref that needs the file.
        set.markUnreadable(uri, e.message);
      }
    }
  }

  const problems: Problem[] = [];
  if (set.cycles.length) {
    // A YAML alias inside the part it names: the schema check would never end; the rest of the
    // import reads such a part as a cycle (a recursive schema, say).
    for (const c of set.cycles) {
      problems.push({
        kind: 'invalid',
        uri: c.uri,
        pointer: c.pointer,
        message:
          'a YAML alias here repeats a part of the document that contains it, so the document is not checked against the OpenAPI schema',
      });
    }
  } else {
    const { value: bundled, origins } = set.bundle();
    const { validateOpenApiDocument } = await import('../formats/openapi/meta-schema.js');
    for (const v of await validateOpenApiDocument(bundled, dialect)) {
      const { uri, pointer } = originOf(v.pointer, origins, rootUri);
      problems.push({ kind: 'invalid', uri, pointer, message: v.message });
    }
  }
  const { value: document, problems: refProblems } = set.dereference();
  for (const p of refProblems) {
    problems.push({
      kind: 'unresolved',
      uri: p.uri,
      pointer: p.pointer,
      message: `the $ref "${p.ref}" cannot be resolved: ${p.reason}`,
      ref: p.ref,
      reason: p.reason,
    });
  }

  const locate = (list: Problem[]): ImportWarning[] => {
    const byUri = new Map<string, string[]>();
    for (const p of list) byUri.set(p.uri, [...(byUri.get(p.uri) ?? []), p.pointer]);
    const found = new Map<string, Map<string, { line: number; col: number }>>();
    for (const [uri, pointers] of byUri) found.set(uri, texts.get(uri)?.locate(pointers) ?? new Map());
    return list.map((p) => {
      const at = found.get(p.uri)?.get(p.pointer);
      const w: ImportWarning = {
        message: '',
        pointer: `#${p.pointer}`,
        ...(p.uri !== rootUri ? { file: fileLabel(p.uri) } : {}),
        ...(at ? { line: at.line, column: at.col } : {}),
      };
      w.message = `${where(w)}: ${p.message}`.replace(/\s*\n\s*/g, ' ');
      return w;
    });
  };

  if (strict && problems.length) throw problemError(problems, label, locate, true);
  return { label, document: document as Record<string, unknown>, dialect, problems, rootUri, locate };
}

/** Maps a pointer of the bundled document back to the file and pointer it came from. */
function originOf(
  pointer: string,
  origins: Map<string, Origin>,
  rootUri: string,
): { uri: string; pointer: string } {
  if (origins.size) {
    const segments = pointer.split('/');
    for (let n = segments.length; n > 1; n--) {
      const prefix = segments.slice(0, n).join('/');
      const origin = origins.get(prefix);
      if (origin) return { uri: origin.uri, pointer: origin.pointer + pointer.slice(prefix.length) };
    }
  }
  return { uri: rootUri, pointer };
}

/**
 * The error for a document refused because of its problems: the first one, located, and how
 * many more there are. `strict`: refused because the caller asked for it; else because nothing
 * of it could be imported.
 */
export function problemError(
  problems: Problem[],
  label: string,
  locate: (p: Problem[]) => ImportWarning[],
  strict: boolean,
): MockdevError {
  const first = problems[0]!;
  const [w] = locate([first]);
  const same = problems.filter((p) => p.kind === first.kind).length;
  const noun = first.kind === 'invalid' ? 'validation error' : 'unresolved $ref';
  const more = same > 1 ? ` (${same - 1} more ${noun}${same > 2 ? 's' : ''})` : '';
  const at = where(w!);
  const hintWhenLenient = strict
    ? (say: { option(name: 'strict'): string }) =>
        ` (or import without ${say.option('strict')}: what can be read is imported, and each problem is reported)`
    : () => '';
  if (first.kind === 'unresolved') {
    const network = /network/.test(first.message);
    return new MockdevError(
      'INVALID_INPUT',
      `${label} has a $ref that cannot be resolved: "${first.ref}" at ${at}: ${first.reason}${more}`,
      {
        hint: (say) =>
          (network
            ? 'Only local files and #/ pointers are resolved (no network); save the referenced document next to this one'
            : 'Check that the referenced file exists relative to the document and the pointer after # names an existing part') +
          hintWhenLenient(say),
        details: {
          problems: problems.slice(0, 20).map(({ kind, pointer, message }) => ({ kind, pointer, message })),
        },
      },
    );
  }
  return new MockdevError(
    'INVALID_INPUT',
    `${label} is not a valid OpenAPI document: at ${at}: ${first.message}${more}`,
    {
      hint: (say) =>
        (strict
          ? 'Fix the document there and import it again'
          : 'Fix the document there: nothing of it could be imported') + hintWhenLenient(say),
      details: {
        problems: problems.slice(0, 20).map(({ kind, pointer, message }) => ({ kind, pointer, message })),
      },
    },
  );
}
