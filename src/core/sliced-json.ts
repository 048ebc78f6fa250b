/**
 * JSON for request bodies that may be large: a parser that does its work in slices of a few
 * milliseconds and lets the event loop turn between them, so that one large body never keeps a
 * server from answering others (docs/decisions.md, "Large JSON bodies are parsed in slices").
 *
 * JSON.parse costs about 0.2 µs per JSON value and cannot be interrupted: 10 MB of `[[],[],…]`
 * takes over a second. This parser gives the value JSON.parse gives (own data properties,
 * `__proto__` included; the last of duplicate keys wins in the first one's place), and fails on
 * the same texts with the same message (V8's wording), at any depth: it keeps its own stack.
 * Pure: no I/O; it only waits for the event loop's next turn (or the `pause` it is given).
 */
import { SLICED_JSON_MIN_LENGTH } from './json-limits.js';
import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  DOT,
  isDigit,
  isSpace,
  LOWER_E,
  LOWER_U,
  MINUS,
  OPEN_BRACE,
  OPEN_BRACKET,
  PLUS,
  QUOTE,
  syntaxError,
  unexpectedToken,
  UPPER_E,
  walkString,
  ZERO,
} from './json-syntax.js';

export { SLICED_JSON_MIN_LENGTH };

export interface SliceOptions {
  /** How long one slice may run before the parser pauses (ms). */
  sliceMs?: number;
  /** What a pause waits for: by default the event loop's next turn (setImmediate). */
  pause?: () => Promise<void>;
}

const SLICE_MS = 4;
/** Values parsed between two looks at the clock. */
const CHECK_EVERY = 256;
/** Characters of a long string read between two looks at the clock. */
const STRING_CHUNK = 1 << 18;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Parses a JSON text as JSON.parse does, in slices: the value, or a SyntaxError with the message
 * JSON.parse would give. Use parseJsonBody unless the text is known to be large.
 */
export async function parseJsonSliced(text: string, options: SliceOptions = {}): Promise<unknown> {
  const sliceMs = options.sliceMs ?? SLICE_MS;
  const pause = options.pause ?? nextTurn;
  const parser = new SlicedParser(text);
  while (!parser.run(performance.now() + sliceMs)) await pause();
  return parser.result;
}

/** A JSON body: JSON.parse up to SLICED_JSON_MIN_LENGTH characters, in slices beyond. */
export function parseJsonBody(text: string): Promise<unknown> {
  if (text.length <= SLICED_JSON_MIN_LENGTH) {
    try {
      return Promise.resolve(JSON.parse(text) as unknown);
    } catch (e) {
      return Promise.reject(e as Error);
    }
  }
  return parseJsonSliced(text);
}

/** An open object, or where an open array's elements begin on the parser's value stack. */
type Open = Record<string, unknown> | number;

/** The parser's state between slices: where it is, and the containers it is inside. */
class SlicedParser {
  result: unknown;
  private i = 0;
  /** A value is due next (otherwise one was just completed: `value`). */
  private expectValue = true;
  private value: unknown;
  /** The open objects and arrays, innermost last; each object's pending key. */
  private readonly stack: Open[] = [];
  private readonly keys: string[] = [];
  /**
   * The elements of the open arrays, one after another (an array is made when it closes, of its
   * exact size: arrays grown by push would take three times the memory JSON.parse's take).
   */
  private readonly elements: unknown[] = [];
  private top = 0;
  /** A long string read in part: its opening quote, how far it is read, and that part decoded. */
  private partial: { start: number; at: number; decoded: string } | undefined;

  constructor(private readonly text: string) {}

  /** Parses until the text is done (true) or the clock passes `deadline` (false: call again). */
  run(deadline: number): boolean {
    const { text, stack, keys, elements } = this;
    const n = text.length;
    let top = this.top;
    let i = this.i;
    let value = this.value;
    let expectValue = this.expectValue;
    let count = 0;
    for (;;) {
      // Each turn opens a container, or completes a value and puts it in place.
      if (++count === CHECK_EVERY) {
        count = 0;
        if (performance.now() >= deadline) return this.pause(i, value, expectValue, top);
      }
      if (expectValue) {
        let c = text.charCodeAt(i);
        while (isSpace(c)) c = text.charCodeAt(++i);
        if (c === OPEN_BRACE) {
          const brace = i;
          c = text.charCodeAt(++i);
          while (isSpace(c)) c = text.charCodeAt(++i);
          if (c === CLOSE_BRACE) {
            i++;
            value = {};
          } else {
            if (c !== QUOTE) this.fail(i, "Expected property name or '}'");
            const key = this.string(i, deadline);
            if (key === null) return this.pause(brace, value, true, top);
            i = this.i;
            c = text.charCodeAt(i);
            while (isSpace(c)) c = text.charCodeAt(++i);
            if (c !== COLON) this.fail(i, "Expected ':' after property name");
            i++;
            stack.push({});
            keys.push(key);
            continue;
          }
        } else if (c === OPEN_BRACKET) {
          c = text.charCodeAt(++i);
          while (isSpace(c)) c = text.charCodeAt(++i);
          if (c === CLOSE_BRACKET) {
            i++;
            value = [];
          } else {
            stack.push(top);
            keys.push('');
            continue;
          }
        } else if (c === QUOTE) {
          const string = this.string(i, deadline);
          if (string === null) return this.pause(i, value, true, top);
          value = string;
          i = this.i;
        } else if (c === MINUS || isDigit(c)) {
          value = this.number(i);
          i = this.i;
        } else if (c === 116) {
          i = this.literal(i, 'true');
          value = true;
        } else if (c === 102) {
          i = this.literal(i, 'false');
          value = false;
        } else if (c === 110) {
          i = this.literal(i, 'null');
          value = null;
        } else this.unexpected(i);
        expectValue = false;
      }
      // A value is complete: it goes into the innermost container, or it is the result.
      const after = i;
      const depth = stack.length;
      let c = text.charCodeAt(i);
      while (isSpace(c)) c = text.charCodeAt(++i);
      if (depth === 0) {
        if (i < n) throw new SyntaxError(`Unexpected non-whitespace character after JSON at position ${i}`);
        this.result = value;
        return true;
      }
      const open = stack[depth - 1]!;
      if (typeof open === 'number') {
        elements[top++] = value;
        if (c === COMMA) {
          i++;
          expectValue = true;
        } else if (c === CLOSE_BRACKET) {
          i++;
          value = elements.slice(open, top);
          top = open;
          stack.pop();
          keys.pop();
        } else this.fail(i, "Expected ',' or ']' after array element");
      } else {
        setOwn(open, keys[depth - 1]!, value);
        if (c === COMMA) {
          c = text.charCodeAt(++i);
          while (isSpace(c)) c = text.charCodeAt(++i);
          if (c !== QUOTE) this.fail(i, 'Expected double-quoted property name');
          // A long key read in several slices: this turn starts again (setting a property twice is harmless).
          const key = this.string(i, deadline);
          if (key === null) return this.pause(after, value, false, top);
          keys[depth - 1] = key;
          i = this.i;
          c = text.charCodeAt(i);
          while (isSpace(c)) c = text.charCodeAt(++i);
          // V8 names the missing colon after an object's first key only.
          if (c !== COLON) this.unexpected(i);
          i++;
          expectValue = true;
        } else if (c === CLOSE_BRACE) {
          i++;
          value = open;
          stack.pop();
          keys.pop();
        } else this.fail(i, "Expected ',' or '}' after property value");
      }
    }
  }

  /** Keeps where the parser stands for the next slice; returns false (not done). */
  private pause(i: number, value: unknown, expectValue: boolean, top: number): false {
    this.i = i;
    this.top = top;
    this.value = value;
    this.expectValue = expectValue;
    return false;
  }

  /**
   * The string starting at `start` (its opening quote); leaves `this.i` after its closing quote.
   * A long one is read in chunks, the clock looked at between them: null when `deadline` passed
   * (the next slice goes on where this one stopped).
   */
  private string(start: number, deadline: number): string | null {
    const text = this.text;
    let j = start + 1;
    /** Where the part not decoded yet begins; what the string holds before it. */
    let from = j;
    let decoded = '';
    let escaped = false;
    const partial = this.partial;
    if (partial !== undefined && partial.start === start) {
      j = from = partial.at;
      decoded = partial.decoded;
      this.partial = undefined;
    }
    for (;;) {
      // Up to the closing quote, a mistake or the chunk's end; an escape is skipped whole, so the
      // chunk ends between two characters of the string.
      const limit = j + STRING_CHUNK;
      let c = text.charCodeAt(j);
      while (j < limit) {
        if (c === BACKSLASH) {
          escaped = true;
          j += text.charCodeAt(j + 1) === LOWER_U ? 6 : 2;
        } else if (c !== QUOTE && c >= 32) j++;
        else break;
        c = text.charCodeAt(j);
      }
      if (c !== QUOTE && c !== BACKSLASH && !(c >= 32)) return walkString(text, from);
      if (!escaped) {
        if (c === QUOTE) {
          this.i = j + 1;
          return decoded + text.slice(from, j);
        }
        decoded += text.slice(from, j);
      } else {
        // Escapes are decoded by JSON.parse: at native speed, with its own rules.
        let part: string;
        try {
          part = JSON.parse(
            from === start + 1 && c === QUOTE ? text.slice(start, j + 1) : `"${text.slice(from, j)}"`,
          ) as string;
        } catch {
          return walkString(text, from);
        }
        if (c === QUOTE) {
          this.i = j + 1;
          return decoded + part;
        }
        decoded += part;
        escaped = false;
      }
      from = j;
      if (performance.now() >= deadline) {
        this.partial = { start, at: j, decoded };
        return null;
      }
    }
  }

  /** The number starting at `start`; leaves `this.i` after it. */
  private number(start: number): number {
    const text = this.text;
    let j = start;
    let c = text.charCodeAt(j);
    const negative = c === MINUS;
    if (negative) {
      c = text.charCodeAt(++j);
      if (!isDigit(c)) this.fail(j, 'No number after minus sign');
    }
    let whole = 0;
    if (c === ZERO) {
      c = text.charCodeAt(++j);
      if (isDigit(c)) this.unexpected(j);
    } else
      while (isDigit(c)) {
        whole = whole * 10 + (c - ZERO);
        c = text.charCodeAt(++j);
      }
    let integer = true;
    if (c === DOT) {
      integer = false;
      c = text.charCodeAt(++j);
      if (!isDigit(c)) this.fail(j, 'Unterminated fractional number');
      while (isDigit(c)) c = text.charCodeAt(++j);
    }
    if (c === LOWER_E || c === UPPER_E) {
      integer = false;
      c = text.charCodeAt(++j);
      if (c === PLUS || c === MINUS) c = text.charCodeAt(++j);
      if (!isDigit(c)) this.fail(j, 'Exponent part is missing a number');
      while (isDigit(c)) c = text.charCodeAt(++j);
    }
    this.i = j;
    // Up to 15 digits, an integer is exact as summed; anything else is converted as JSON.parse does.
    if (integer && j - start <= (negative ? 16 : 15)) return negative ? -whole : whole;
    return Number(text.slice(start, j));
  }

  /** Checks the literal `word` at `start`; returns the position after it. */
  private literal(start: number, word: string): number {
    for (let k = 1; k < word.length; k++)
      if (this.text.charCodeAt(start + k) !== word.charCodeAt(k)) this.unexpected(start + k);
    return start + word.length;
  }

  private fail(at: number, what: string): never {
    throw syntaxError(at, what);
  }

  private unexpected(at: number): never {
    throw unexpectedToken(this.text, at);
  }
}

/** Sets a property as JSON.parse does: an own data property, `__proto__` too. */
function setOwn(o: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
  else o[key] = value;
}
