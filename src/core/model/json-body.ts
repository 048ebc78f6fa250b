/**
 * The rule for a body under a JSON content type (one function for every adapter): where a JSON
 * text goes wrong (line and column, whatever the JavaScript engine's JSON.parse messages look
 * like) and the warning the CLI, MCP and the UI give for it. Saving is allowed: a mock may send
 * broken JSON on purpose. A body holding a template (`{{…}}`) may not be JSON until it is
 * rendered, so it gets no warning. Pure, no imports: the web UI uses it too.
 */

export interface JsonProblem {
  message: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  /** The body holds `{{`: a template may make it JSON once rendered (a warning, not an error). */
  template: boolean;
}

/** application/json, text/json, application/problem+json, `…; charset=utf-8`. */
export function isJsonContentType(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return /^[a-z0-9.!#$&^_-]+\/([a-z0-9.!#$&^_-]+\+)?json$/.test(type);
}

export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}

/** Thrown by the scanner: what was wrong and where. */
class ScanError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Walks a JSON text (RFC 8259) and throws a ScanError at its first mistake. */
function scan(text: string): void {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const describe = (at: number) =>
    at >= text.length ? 'the end of the text' : `"${text[at] === '\n' ? '\\n' : text[at]}"`;
  const fail = (expected: string): never => {
    throw new ScanError(`expected ${expected}, found ${describe(i)}`, i);
  };
  const string = () => {
    const start = i;
    i++; // the opening quote
    while (i < text.length) {
      const c = text[i]!;
      if (c === '"') {
        i++;
        return;
      }
      if (c === '\\') {
        const next = text[i + 1];
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)))
            throw new ScanError('a \\u escape needs four hexadecimal digits', i);
          i += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) i += 2;
        else throw new ScanError(`invalid escape "\\${next ?? ''}" in a string`, i);
        continue;
      }
      if (c < ' ') throw new ScanError('a line break or control character inside a string', i);
      i++;
    }
    throw new ScanError('a string that is never closed (missing ")', start);
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m || m[0] === '-') fail('a value');
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('a property name in double quotes');
        string();
        ws();
        if (text[i] !== ':') fail('":" after the property name');
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail('"," or "}"');
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail('"," or "]"');
      }
    }
    if (c === '"') return string();
    for (const word of ['true', 'false', 'null'])
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    fail('a value');
  };
  value();
  ws();
  if (i < text.length) fail('the end of the text after the value');
}

/** The first problem of a JSON text, or null when it parses (an empty body is fine: no body). */
export function jsonProblem(text: string): JsonProblem | null {
  if (text.trim() === '') return null;
  try {
    JSON.parse(text);
    return null;
  } catch (e) {
    let message = (e as Error).message;
    let offset = 0;
    try {
      scan(text);
    } catch (s) {
      if (s instanceof ScanError) {
        message = s.message;
        offset = s.offset;
      }
    }
    return { message, ...lineColumn(text, offset), template: text.includes('{{') };
  }
}

/** The problem as one line: `Line 2, column 10: expected "," or "}", found "x"`. */
export function describeJsonProblem(p: JsonProblem): string {
  return `Line ${p.line}, column ${p.column}: ${p.message}`;
}

/**
 * The warning for a response whose content type is JSON and whose body is not (empty bodies and
 * templates aside), or null: `the body is not valid JSON (line 1, column 9: expected …) although
 * its content type is application/json; saved as written`. `what` names the response.
 */
export function jsonBodyWarning(
  r: { body?: string; contentType?: string; templating?: boolean },
  what = 'the body',
): string | null {
  if (r.body === undefined || r.contentType === undefined || !isJsonContentType(r.contentType)) return null;
  const problem = jsonProblem(r.body);
  if (!problem || (problem.template && r.templating !== false)) return null;
  return `${what} is not valid JSON (${describeJsonProblem(problem).replace(/^Line/, 'line')}) although its content type is ${r.contentType}; saved as written`;
}

/**
 * The warning for a variation's own body under the content type it answers with (its own, or the
 * endpoint's it inherits), or null; a body it inherits is the endpoint's, warned about with it.
 */
export function variationJsonBodyWarning(
  endpoint: { contentType: string },
  v: { name: string; body?: string; contentType?: string; templating?: boolean },
  what = `the body of variation "${v.name}"`,
): string | null {
  return jsonBodyWarning({ ...v, contentType: v.contentType ?? endpoint.contentType }, what);
}
