import { MockdevError } from '../../core/errors.js';
import { maskCredentialsInText } from '../../core/model/credentials.js';

/**
 * Splits a pasted cURL command into arguments the way the shell it was written for would.
 * Two dialects:
 * - `bash` (POSIX shells; Chrome/Firefox "Copy as cURL (bash)"): `'…'`, `"…"`, `$'…'`,
 *   backslash escapes and backslash-newline continuations.
 * - `cmd` (Windows; Chrome/Firefox "Copy as cURL (cmd)"): cmd.exe caret escapes `^x` and
 *   caret-newline continuations, then the C runtime's argument rules (`"…"`, `\"`).
 * Pure: text in, tokens out. Offsets point into the original text for error messages.
 */

export type Dialect = 'bash' | 'cmd';

export interface Token {
  value: string;
  /** Offset in the original text where the argument starts. */
  offset: number;
}

export interface Tokenized {
  dialect: Dialect;
  tokens: Token[];
  /** Things that were dropped, such as a pipe into another program. */
  notes: string[];
}

/** "line 2, column 7" for an offset into `text`. */
export function describeOffset(text: string, offset: number): string {
  const before = text.slice(0, Math.max(0, offset));
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return `line ${line}, column ${column}`;
}

/**
 * A quote that is never closed: the command was cut inside a quoted argument (while copying, say).
 * Like a command cut after a line continuation, the argument is incomplete: INVALID_ARGUMENT.
 */
const unclosed = (message: string, hint: string, offset: number) =>
  new MockdevError('INVALID_ARGUMENT', maskCredentialsInText(message), {
    hint: maskCredentialsInText(hint),
    details: { offset },
  });

/** Characters cmd.exe treats specially outside its quotes; `^` before one makes it literal. */
const CMD_SPECIAL = new Set(['&', '|', '<', '>', '^', '(', ')', '%', '!', '"']);

/**
 * Which shell a command was written for. cmd when a caret, outside bash's quotes, does what
 * only cmd.exe gives it to do: continue a line (`^` before a newline or at the very end), or
 * escape one of cmd's special characters (`^&`, `^|`, `^<`, `^>`, `^^`, `^(`, `^)`, `^%`, `^!`,
 * and `^"` as browsers' cmd copies wrap every argument). A bash command never needs a caret
 * there, and inside '…', "…" or $'…' a caret is text in both shells, so a bash command keeps its
 * carets. When the text cannot be read as bash (a quote never closed, as an apostrophe in a cmd
 * command is), a caret before a newline or a quote anywhere decides.
 */
export function detectDialect(text: string): Dialect {
  const end = text.trimEnd().length;
  let i = 0;
  let wordStart = true;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '^') {
      const n = text[i + 1];
      if (i === end - 1 || n === '\n' || (n === '\r' && text[i + 2] === '\n')) return 'cmd';
      if (n !== undefined && CMD_SPECIAL.has(n)) return 'cmd';
      i++;
      wordStart = false;
      continue;
    }
    if (c === '\\') {
      i += 2;
      wordStart = false;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      wordStart = true;
      continue;
    }
    if (wordStart && c === '#') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    wordStart = false;
    let close = -1;
    if (c === "'") close = text.indexOf("'", i + 1);
    else if (c === '$' && text[i + 1] === "'") close = closingQuote(text, i + 2, "'");
    else if (c === '"') close = closingQuote(text, i + 1, '"');
    else {
      i++;
      continue;
    }
    if (close < 0) return /\^\r?\n/.test(text) || /(^|\s)\^"/.test(text) ? 'cmd' : 'bash';
    i = close + 1;
  }
  return 'bash';
}

/** The index of the quote closing a string that starts at `from` (backslash escapes skipped), or -1. */
function closingQuote(text: string, from: number, quote: string): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === quote) return i;
  }
  return -1;
}

/** The refusal of a command that ends in a line continuation: it was cut off while copying. */
const cutOff = (text: string, offset: number, mark: '\\' | '^') =>
  new MockdevError(
    'INVALID_ARGUMENT',
    `The command ends with a line continuation (${mark}) at ${describeOffset(text, offset)} and nothing after it: it looks cut off`,
    {
      hint: `Paste the whole command, or remove the trailing ${mark} if the command is complete`,
      details: { offset },
    },
  );

export function tokenize(text: string, dialect: Dialect = detectDialect(text)): Tokenized {
  return dialect === 'cmd' ? tokenizeCmd(text) : tokenizeBash(text);
}

const ANSI_SIMPLE: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** Reads the body of a `$'…'` string starting after the opening quote; returns [value, end]. */
function readAnsiC(text: string, start: number, openedAt: number): [string, number] {
  // \xHH and octal escapes are bytes: runs of them are decoded as UTF-8, as a terminal would.
  let result = '';
  let bytes: number[] = [];
  let out = '';
  const flushText = () => {
    if (out) {
      if (bytes.length) flushBytes();
      result += out;
      out = '';
    }
  };
  const flushBytes = () => {
    result += new TextDecoder().decode(Uint8Array.from(bytes));
    bytes = [];
  };
  const pushByte = (b: number) => {
    flushText();
    bytes.push(b);
  };
  let i = start;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'") {
      flushText();
      if (bytes.length) flushBytes();
      return [result, i + 1];
    }
    if (c !== '\\') {
      out += c;
      i++;
      continue;
    }
    const n = text[i + 1];
    if (n === undefined) break;
    if (n in ANSI_SIMPLE) {
      out += ANSI_SIMPLE[n];
      i += 2;
    } else if (n === 'x') {
      const m = /^[0-9a-fA-F]{1,2}/.exec(text.slice(i + 2));
      if (m) {
        pushByte(parseInt(m[0], 16));
        i += 2 + m[0].length;
      } else {
        out += '\\x';
        i += 2;
      }
    } else if (n === 'u' || n === 'U') {
      const m = (n === 'u' ? /^[0-9a-fA-F]{1,4}/ : /^[0-9a-fA-F]{1,8}/).exec(text.slice(i + 2));
      if (m) {
        out += String.fromCodePoint(parseInt(m[0], 16));
        i += 2 + m[0].length;
      } else {
        out += `\\${n}`;
        i += 2;
      }
    } else if (/[0-7]/.test(n)) {
      const m = /^[0-7]{1,3}/.exec(text.slice(i + 1))!;
      pushByte(parseInt(m[0], 8) & 0xff);
      i += 1 + m[0].length;
    } else if (n === 'c' && text[i + 2] !== undefined) {
      out += String.fromCharCode(text[i + 2]!.toUpperCase().charCodeAt(0) ^ 0x40);
      i += 3;
    } else {
      out += `\\${n}`;
      i += 2;
    }
  }
  throw unclosed(
    `Unbalanced quote: the $'…' string opened at ${describeOffset(text, openedAt)} is never closed`,
    "Add the closing ' (write a quote inside it as \\')",
    openedAt,
  );
}

const SHELL_STOP = new Set(['|', ';', '&', '>', '<']);

function tokenizeBash(text: string): Tokenized {
  const tokens: Token[] = [];
  const notes: string[] = [];
  let i = 0;
  let current = null as string | null;
  let start = 0;
  const push = () => {
    if (current !== null) tokens.push({ value: current, offset: start });
    current = null;
  };
  const begin = () => {
    if (current === null) {
      current = '';
      start = i;
    }
  };
  const end = text.trimEnd().length;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\\' && i === end - 1) throw cutOff(text, i, '\\');
    if (c === '\\' && (text[i + 1] === '\n' || (text[i + 1] === '\r' && text[i + 2] === '\n'))) {
      i += text[i + 1] === '\r' ? 3 : 2; // line continuation
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      push();
      i++;
      continue;
    }
    if (current === null && c === '#') {
      while (i < text.length && text[i] !== '\n') i++; // comment
      continue;
    }
    if (SHELL_STOP.has(c)) {
      push();
      const rest = text.slice(i).trim();
      notes.push(
        `Ignored "${rest.length > 40 ? `${rest.slice(0, 40)}…` : rest}" after the curl command (shell operator ${c})`,
      );
      break;
    }
    begin();
    if (c === '\\') {
      if (i + 1 < text.length) current = (current ?? '') + text[i + 1]!;
      i += 2;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) {
        throw unclosed(
          `Unbalanced quote: the ' opened at ${describeOffset(text, i)} is never closed`,
          `Add the closing ', or write a literal quote as '\\'' (near: ${JSON.stringify(text.slice(i, i + 30))})`,
          i,
        );
      }
      current += text.slice(i + 1, end);
      i = end + 1;
    } else if (c === '$' && text[i + 1] === "'") {
      const [value, end] = readAnsiC(text, i + 2, i);
      current += value;
      i = end;
    } else if (c === '"' || (c === '$' && text[i + 1] === '"')) {
      const openedAt = i;
      i += c === '$' ? 2 : 1;
      let closed = false;
      while (i < text.length) {
        const d = text[i]!;
        if (d === '"') {
          closed = true;
          i++;
          break;
        }
        if (d === '\\' && i + 1 < text.length) {
          const n = text[i + 1]!;
          if (n === '\n') i += 2;
          else if (n === '\r' && text[i + 2] === '\n') i += 3;
          else if ('$`"\\'.includes(n)) {
            current += n;
            i += 2;
          } else {
            current += d;
            i++;
          }
          continue;
        }
        current += d;
        i++;
      }
      if (!closed) {
        throw unclosed(
          `Unbalanced quote: the " opened at ${describeOffset(text, openedAt)} is never closed`,
          `Add the closing ", or write a literal quote as \\" (near: ${JSON.stringify(text.slice(openedAt, openedAt + 30))})`,
          openedAt,
        );
      }
    } else {
      current += c;
      i++;
    }
  }
  push();
  return { dialect: 'bash', tokens, notes };
}

/**
 * cmd.exe first: `^x` gives x literally (outside cmd's own quotes), `^` + newline continues
 * the line (and `^` newline newline is a literal newline, as browsers write them). Then the C
 * runtime splits the result: whitespace separates, `"` groups, `\"` is a quote, and
 * backslashes are literal unless they precede a quote.
 */
function tokenizeCmd(text: string): Tokenized {
  // Phase 1: cmd.exe. Keep a map from output position to input offset for errors.
  let stage = '';
  const origin: number[] = [];
  let inQuote = false;
  let quoteOpenedAt = -1;
  const notes: string[] = [];
  const end = text.trimEnd().length;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (!inQuote && c === '^') {
      if (i === end - 1) throw cutOff(text, i, '^');
      const n = text[i + 1];
      if (n === undefined) break;
      if (n === '\n' || (n === '\r' && text[i + 2] === '\n')) {
        i += n === '\r' ? 2 : 1;
        const after = text[i + 1];
        if (after === '\n' || (after === '\r' && text[i + 2] === '\n')) {
          stage += '\n';
          origin.push(i + 1);
          i += after === '\r' ? 2 : 1;
        }
        continue;
      }
      stage += n;
      origin.push(i + 1);
      i++;
      continue;
    }
    if (c === '"') {
      inQuote = !inQuote;
      if (inQuote) quoteOpenedAt = i;
    }
    if (!inQuote && (c === '|' || c === '&' || c === '>' || c === '<')) {
      const rest = text.slice(i).trim();
      notes.push(
        `Ignored "${rest.length > 40 ? `${rest.slice(0, 40)}…` : rest}" after the curl command (cmd operator ${c})`,
      );
      break;
    }
    stage += c;
    origin.push(i);
  }
  if (inQuote) {
    throw unclosed(
      `Unbalanced quote: the " opened at ${describeOffset(text, quoteOpenedAt)} is never closed`,
      'Add the closing ", or escape a literal quote as \\^" in a cmd command',
      quoteOpenedAt,
    );
  }
  // Phase 2: the C runtime's argument splitting.
  const tokens: Token[] = [];
  let current = null as string | null;
  let start = 0;
  let quoted = false;
  let openedAt = 0;
  for (let i = 0; i < stage.length; i++) {
    const c = stage[i]!;
    if (!quoted && (c === ' ' || c === '\t' || c === '\n' || c === '\r')) {
      if (current !== null) tokens.push({ value: current, offset: start });
      current = null;
      continue;
    }
    if (current === null) {
      current = '';
      start = origin[i] ?? 0;
    }
    if (c === '\\') {
      let j = i;
      while (stage[j] === '\\') j++;
      const count = j - i;
      if (stage[j] === '"') {
        current += '\\'.repeat(Math.floor(count / 2));
        if (count % 2 === 1) {
          current += '"';
          i = j;
        } else {
          i = j - 1;
        }
      } else {
        current += '\\'.repeat(count);
        i = j - 1;
      }
      continue;
    }
    if (c === '"') {
      if (quoted && stage[i + 1] === '"') {
        current += '"';
        i++;
        continue;
      }
      quoted = !quoted;
      if (quoted) openedAt = origin[i] ?? 0;
      continue;
    }
    current += c;
  }
  if (quoted) {
    throw unclosed(
      `Unbalanced quote: the " opened at ${describeOffset(text, openedAt)} is never closed`,
      'Add the closing ^", or escape a literal quote as \\^"',
      openedAt,
    );
  }
  if (current !== null) tokens.push({ value: current, offset: start });
  return { dialect: 'cmd', tokens, notes };
}
