import { LineCounter, parseDocument, isMap, isSeq, isScalar, type Node } from 'yaml';
import { quoteText } from '../../core/text.js';
import { MockdevError } from '../../core/errors.js';

/**
 * Reading an OpenAPI document's text: JSON or YAML, told apart by content (not by the file's
 * extension), with errors that give the line and column. Pure: text in, object out.
 */

const lineCol = (text: string, offset: number): { line: number; col: number } => {
  let line = 1;
  let last = -1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  }
  return { line, col: offset - last };
};

/** JSON when the first meaningful character opens an object or array; YAML otherwise. */
export function detectFormat(text: string): 'json' | 'yaml' {
  const first = /\S/.exec(text.replace(/^\uFEFF/, ''));
  return first && (first[0] === '{' || first[0] === '[') ? 'json' : 'yaml';
}

export interface Position {
  line: number;
  col: number;
}

/** A document's value, and where its parts sit in its text (for messages). */
export interface DocumentText {
  value: unknown;
  format: 'json' | 'yaml';
  /**
   * The line and column of each JSON pointer (`/paths/~1users/get`): where its deepest existing
   * part starts. Computed on demand, in one pass over the text for all the pointers.
   */
  locate(pointers: string[]): Map<string, Position>;
}

/**
 * A parser's message as one line of an error: what it quotes of the text (`"…"`) cut short and
 * with control characters escaped, so no raw bytes reach a message.
 */
const oneLine = (message: string): string =>
  message
    .replace(/"(.*)"/, (_m, quoted: string) => quoteText(quoted))
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, ' ');

const YAML_OPTIONS = { merge: true, uniqueKeys: false, prettyErrors: true } as const;

/**
 * Parses JSON or YAML text (any value: a whole document, or a file a `$ref` points to) and
 * keeps what it needs to locate pointers later: the YAML syntax tree, or the JSON text.
 */
export function readDocumentText(text: string, source: string): DocumentText {
  const clean = text.replace(/^\uFEFF/, '');
  if (clean.trim() === '') {
    throw new MockdevError('INVALID_INPUT', `${source} is empty`, {
      hint: 'Give an OpenAPI 3.x or Swagger 2.0 document in JSON or YAML',
    });
  }
  const format = detectFormat(clean);
  if (format === 'json') {
    let value: unknown;
    try {
      value = JSON.parse(clean);
    } catch (e) {
      const message = (e as Error).message;
      const pos = /position (\d+)/.exec(message);
      const where = pos
        ? (({ line, col }) => ` at line ${line}, column ${col}`)(lineCol(clean, Number(pos[1])))
        : '';
      throw new MockdevError(
        'INVALID_INPUT',
        `${source} is not valid JSON${where}: ${oneLine(message)
          .replace(/ in JSON at position \d+.*$/, '')
          .replace(/\s*\(line \d+ column \d+\)$/, '')}`,
        {
          hint: 'Fix the JSON syntax there (a missing comma, quote or bracket is the usual cause)',
          details: { source, format },
        },
      );
    }
    return { value, format, locate: (pointers) => locateInJson(clean, pointers) };
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(clean, { ...YAML_OPTIONS, lineCounter });
  const error = doc.errors[0];
  if (error) {
    const pos = error.linePos?.[0];
    const where = pos ? ` at line ${pos.line}, column ${pos.col}` : '';
    const first = oneLine(error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, ''));
    throw new MockdevError('INVALID_INPUT', `${source} is not valid YAML${where}: ${first}`, {
      hint: 'Fix the YAML there (indentation and unquoted ": " inside values are the usual causes)',
      details: { source, format },
    });
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: -1 });
  } catch (e) {
    throw new MockdevError(
      'INVALID_INPUT',
      `${source} is not valid YAML: ${oneLine((e as Error).message.split('\n')[0]!)}`,
      {
        hint: 'Fix the YAML (an alias to an anchor that does not exist is a common cause)',
        details: { source, format },
      },
    );
  }
  return {
    value,
    format,
    locate: (pointers) => {
      const found = new Map<string, Position>();
      for (const pointer of pointers) {
        const at = locateInYaml(doc.contents as Node | null, lineCounter, pointer);
        if (at) found.set(pointer, at);
      }
      return found;
    },
  };
}

/** Reads an OpenAPI document: JSON or YAML whose top level is an object with `openapi` or `swagger`. */
export function readOpenApiText(
  text: string,
  source: string,
): DocumentText & { value: Record<string, unknown> } {
  const read = readDocumentText(text, source);
  const value = read.value;
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new MockdevError(
      'INVALID_INPUT',
      `${source} is not an OpenAPI document: its top level is not an object`,
      {
        hint: 'Give an OpenAPI 3.x or Swagger 2.0 document (it starts with "openapi: 3..." or "swagger: \'2.0\'")',
      },
    );
  }
  const doc = value as Record<string, unknown>;
  if (doc.openapi === undefined && doc.swagger === undefined) {
    throw new MockdevError(
      'INVALID_INPUT',
      `${source} is not an OpenAPI document: it has no "openapi" or "swagger" field at the top level`,
      {
        hint: 'Add openapi: 3.0.3 (or 3.1.0), or swagger: "2.0" for Swagger documents',
      },
    );
  }
  return { ...read, value: doc };
}

export function parseDocumentText(text: string, source: string): Record<string, unknown> {
  return readOpenApiText(text, source).value;
}

/** "~1users~1{id}" -> "/users/{id}" (JSON pointer segment decoding). */
const unescapePointer = (s: string): string => s.replace(/~1/g, '/').replace(/~0/g, '~');

function locateInYaml(root: Node | null, lineCounter: LineCounter, pointer: string): Position | undefined {
  const segments = pointer.split('/').slice(1).map(unescapePointer);
  let node: Node | null | undefined = root;
  let offset = node?.range?.[0];
  for (const segment of segments) {
    if (isMap(node)) {
      const pair = node.items.find(
        (p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === segment,
      );
      if (!pair) break;
      offset = (pair.key as Node | null)?.range?.[0] ?? offset;
      node = pair.value as Node | null;
    } else if (isSeq(node)) {
      const item = node.items[Number(segment)] as Node | undefined;
      if (!item) break;
      offset = item.range?.[0] ?? offset;
      node = item;
    } else break;
  }
  if (offset === undefined) return undefined;
  const pos = lineCounter.linePos(offset);
  return { line: pos.line, col: pos.col };
}

/**
 * Finds where a JSON pointer (`/paths/~1users/get`) sits in the text: the line and column of
 * the deepest part of the pointer that exists. Used only when reporting a problem.
 */
export function locatePointer(text: string, pointer: string): Position | undefined {
  try {
    return readDocumentText(text, 'document').locate([pointer]).get(pointer);
  } catch {
    return undefined;
  }
}

const escapePointer = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The JSON twin of locateInYaml, without building a syntax tree: one scan of the text that
 * descends only into the members the pointers name, and skips every other value.
 */
function locateInJson(text: string, pointers: string[]): Map<string, Position> {
  // Every prefix of a wanted pointer is worth entering.
  const wanted = new Set<string>();
  for (const p of pointers) {
    const segments = p.split('/');
    for (let i = 1; i <= segments.length; i++) wanted.add(segments.slice(0, i).join('/'));
  }
  const offsets = new Map<string, number>();
  let i = 0;
  const ws = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else return;
    }
  };
  const skipString = () => {
    i++; // the opening quote
    for (;;) {
      const c = text.charCodeAt(i++);
      if (c === 34 || Number.isNaN(c)) return;
      if (c === 92) i++;
    }
  };
  const skipValue = () => {
    let depth = 0;
    for (;;) {
      const c = text.charCodeAt(i);
      if (Number.isNaN(c)) return;
      if (c === 34) skipString();
      else if (c === 123 || c === 91) {
        depth++;
        i++;
      } else if (c === 125 || c === 93) {
        if (depth === 0) return;
        depth--;
        i++;
        if (depth === 0) return;
      } else if (depth === 0 && (c === 44 || c === 32 || c === 10 || c === 13 || c === 9)) return;
      else i++;
    }
  };
  const value = (path: string): void => {
    ws();
    const c = text.charCodeAt(i);
    if (c === 123) {
      i++;
      for (;;) {
        ws();
        if (text.charCodeAt(i) !== 34) {
          i++; // '}' (or a broken text: stop there)
          return;
        }
        const keyStart = i;
        skipString();
        const key = JSON.parse(text.slice(keyStart, i)) as string;
        const child = `${path}/${escapePointer(key)}`;
        ws();
        i++; // ':'
        if (wanted.has(child)) {
          offsets.set(child, keyStart);
          value(child);
        } else {
          ws();
          skipValue();
        }
        ws();
        if (text.charCodeAt(i) === 44) i++;
      }
    } else if (c === 91) {
      i++;
      for (let index = 0; ; index++) {
        ws();
        if (text.charCodeAt(i) === 93 || Number.isNaN(text.charCodeAt(i))) {
          i++;
          return;
        }
        const child = `${path}/${index}`;
        if (wanted.has(child)) {
          offsets.set(child, i);
          value(child);
        } else skipValue();
        ws();
        if (text.charCodeAt(i) === 44) i++;
      }
    } else skipValue();
  };
  ws();
  offsets.set('', i);
  try {
    value('');
  } catch {
    /* a text JSON.parse accepted always scans; stop quietly otherwise */
  }
  const found = new Map<string, Position>();
  const sorted = [...new Set(offsets.values())].sort((a, b) => a - b);
  const positions = new Map<number, Position>();
  let line = 1;
  let lineStart = 0;
  let at = 0;
  for (const offset of sorted) {
    for (; at < offset; at++) {
      if (text.charCodeAt(at) === 10) {
        line++;
        lineStart = at + 1;
      }
    }
    positions.set(offset, { line, col: offset - lineStart + 1 });
  }
  for (const p of pointers) {
    const segments = p.split('/');
    for (let n = segments.length; n >= 1; n--) {
      const offset = offsets.get(segments.slice(0, n).join('/'));
      if (offset !== undefined) {
        found.set(p, positions.get(offset)!);
        break;
      }
    }
  }
  return found;
}
