/**
 * The syntax of JSON texts as the sliced parser (sliced-json.ts) reads it: character codes, and
 * its mistakes worded as V8's JSON.parse words them (Node's wording: the messages people and the
 * admin API see do not depend on which parser read a body).
 */

// Character codes.
export const QUOTE = 34;
export const BACKSLASH = 92;
export const COMMA = 44;
export const COLON = 58;
export const MINUS = 45;
export const PLUS = 43;
export const DOT = 46;
export const ZERO = 48;
export const NINE = 57;
export const OPEN_BRACE = 123;
export const CLOSE_BRACE = 125;
export const OPEN_BRACKET = 91;
export const CLOSE_BRACKET = 93;
export const LOWER_E = 101;
export const UPPER_E = 69;
export const LOWER_U = 117;

export const isDigit = (c: number): boolean => c >= ZERO && c <= NINE;
export const isSpace = (c: number): boolean => c === 32 || c === 10 || c === 13 || c === 9;

/** The value of a hexadecimal digit, or -1. */
export function hexValue(c: number): number {
  if (c >= ZERO && c <= NINE) return c - ZERO;
  const lower = c | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/** The characters that may follow a backslash besides `u`. */
const ESCAPES = '"\\/bfnrt';

/** Whole texts V8 names rather than quoting a token of (JSON.parse(undefined) and the like). */
const SPECIAL = new Set(['[object Object]', 'undefined', 'Infinity', 'NaN']);

/** Texts up to this length are quoted whole in an "Unexpected token" message; longer, around it. */
const WHOLE_CONTEXT = 20;
const CONTEXT = 10;

/** A mistake V8 words with its position: `Bad escaped character in JSON at position 4`. */
export const syntaxError = (at: number, what: string): SyntaxError =>
  new SyntaxError(`${what} in JSON at position ${at}`);

const fail = (at: number, what: string): never => {
  throw syntaxError(at, what);
};

/**
 * Walks a string JSON.parse refused, character by character from `j` (inside the string,
 * between two of its characters), to its mistake: thrown as JSON.parse words it.
 */
export function walkString(text: string, j: number): never {
  const n = text.length;
  for (;;) {
    if (j >= n) fail(n, 'Unterminated string');
    const c = text.charCodeAt(j);
    // Not reached: JSON.parse refuses only what the walk finds before the closing quote.
    if (c === QUOTE) throw unexpectedToken(text, j);
    if (c < 32) fail(j, 'Bad control character in string literal');
    if (c !== BACKSLASH) {
      j++;
      continue;
    }
    j++;
    if (j >= n) throw unexpectedToken(text, j);
    const e = text[j]!;
    if (e === 'u') {
      for (let k = 1; k <= 4; k++)
        if (hexValue(text.charCodeAt(j + k)) < 0) fail(j + k, 'Bad Unicode escape');
      j += 5;
    } else if (ESCAPES.includes(e)) j++;
    // V8 words an escaped character beyond Latin-1 as an unexpected token.
    else if (e.charCodeAt(0) > 0xff) throw unexpectedToken(text, j);
    else fail(j, 'Bad escaped character');
  }
}

/** V8's message for a token that cannot stand where it is (or for the end of the text). */
export function unexpectedToken(text: string, at: number): SyntaxError {
  if (at >= text.length) return new SyntaxError('Unexpected end of JSON input');
  const c = text.charCodeAt(at);
  if (c === QUOTE) return syntaxError(at, 'Unexpected string');
  if (c === MINUS || isDigit(c)) return syntaxError(at, 'Unexpected number');
  if (SPECIAL.has(text)) return new SyntaxError(`"${text}" is not valid JSON`);
  const token = `Unexpected token '${text[at]}', `;
  if (text.length <= WHOLE_CONTEXT) return new SyntaxError(`${token}"${text}" is not valid JSON`);
  // Ten characters either side, and an ellipsis on a side with more (V8 counts from the token).
  const before = at >= CONTEXT ? '...' : '';
  const after = at < text.length - CONTEXT ? '...' : '';
  const quoted = text.slice(Math.max(0, at - CONTEXT), at + CONTEXT);
  return new SyntaxError(`${token}${before}"${quoted}"${after} is not valid JSON`);
}
