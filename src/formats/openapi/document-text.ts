import { LineCounter, parseDocument, parse as parseYaml, isMap, isSeq, isScalar, type Node } from 'yaml';
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

export function parseDocumentText(text: string, source: string): Record<string, unknown> {
  const clean = text.replace(/^\uFEFF/, '');
  if (clean.trim() === '') {
    throw new MockdevError('INVALID_INPUT', `${source} is empty`, {
      hint: 'Give an OpenAPI 3.x or Swagger 2.0 document in JSON or YAML',
    });
  }
  const format = detectFormat(clean);
  let value: unknown;
  if (format === 'json') {
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
        `${source} is not valid JSON${where}: ${message.replace(/ in JSON at position \d+.*$/, '').replace(/\s*\(line \d+ column \d+\)$/, '')}`,
        {
          hint: 'Fix the JSON syntax there (a missing comma, quote or bracket is the usual cause)',
          details: { source, format },
        },
      );
    }
  } else {
    try {
      value = parseYaml(clean, { merge: true, maxAliasCount: -1, prettyErrors: true, uniqueKeys: false });
    } catch (e) {
      const err = e as Error & { linePos?: { line: number; col: number }[] };
      const pos = err.linePos?.[0];
      const where = pos ? ` at line ${pos.line}, column ${pos.col}` : '';
      const first = err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
      throw new MockdevError('INVALID_INPUT', `${source} is not valid YAML${where}: ${first}`, {
        hint: 'Fix the YAML there (indentation and unquoted ": " inside values are the usual causes)',
        details: { source, format },
      });
    }
  }
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
  return doc;
}

/** "~1users~1{id}" -> "/users/{id}" (JSON pointer segment decoding). */
const unescapePointer = (s: string): string => s.replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * Finds where a JSON pointer (`/paths/~1users/get`) sits in the text: the line and column of
 * the deepest part of the pointer that exists. Used only when reporting an error.
 */
export function locatePointer(text: string, pointer: string): { line: number; col: number } | undefined {
  const segments = pointer.split('/').slice(1).map(unescapePointer);
  try {
    const lineCounter = new LineCounter();
    const doc = parseDocument(text.replace(/^\uFEFF/, ''), { lineCounter, uniqueKeys: false });
    let node: Node | null | undefined = doc.contents as Node | null;
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
  } catch {
    return undefined;
  }
}
