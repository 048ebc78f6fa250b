import { createRequire } from 'node:module';

/**
 * Regular expressions that meet client input (variation rules, path templates with several
 * parameters in one segment) run in linear time (DECISIONS "Trust and data"): on RE2's engine
 * (`re2js`, a JavaScript port), which never backtracks, so no pattern and no input can make one
 * request take long. V8's RegExp backtracks: `(a+)+$` over 31 characters took seconds.
 *
 * The syntax is JavaScript's (re2js translates `\u0041`, `\cJ`, `(?<name>…)`, …) minus what no
 * linear-time engine can run: backreferences (`\1`, `\k<name>`) and lookaround (`(?=…)`,
 * `(?!…)`, `(?<=…)`, `(?<!…)`); RE2's `(?i)` turns on case-insensitive matching. A pattern
 * that is plain text, maybe anchored (`^adm`, `json$`, `^ok$`), is compared as text, without the
 * engine: the engine (about 260 KB) is loaded only when a pattern needs it. A pattern anchored at
 * both ends (`^[0-9]+$`) is run as a whole-text match of what lies between the anchors, which
 * the engine does several times faster than a search (0.4 µs rather than 2 µs for a token).
 */

/** A compiled pattern: whether it matches somewhere in a text (unanchored, as RegExp.test). */
export interface LinearPattern {
  test(text: string): boolean;
}

/** A compiled pattern that captures: `exec` gives the whole match and each group, or null. */
export interface LinearCapture {
  exec(text: string): (string | undefined)[] | null;
}

type Re2Module = typeof import('re2js');
type Re2 = ReturnType<Re2Module['RE2JS']['compile']>;
let engine: Re2Module | undefined;

/** The engine, loaded on first use (synchronously: compiling is). */
function re2(): Re2Module {
  return (engine ??= createRequire(import.meta.url)('re2js') as Re2Module);
}

/** Whether the engine has been loaded (tests check that plain-text patterns never load it). */
export const linearEngineLoaded = (): boolean => engine !== undefined;

/** A pattern the engine cannot run, with why and what to write instead. */
export class LinearRegexError extends Error {}

/** Whether the character at `at` is escaped (an odd number of backslashes before it). */
function escaped(pattern: string, at: number): boolean {
  let slashes = 0;
  for (let k = at - 1; k >= 0 && pattern[k] === '\\'; k--) slashes++;
  return slashes % 2 === 1;
}

/**
 * What lies between the anchors of a pattern that must match the whole text (`^…$`, no `|` outside
 * a group or class: `^a|b$` is `(^a)|(b$)`), or undefined.
 */
function wholeTextPattern(pattern: string): string | undefined {
  const n = pattern.length;
  if (n < 2 || pattern[0] !== '^' || pattern[n - 1] !== '$' || escaped(pattern, n - 1)) return undefined;
  let depth = 0;
  let inClass = false;
  for (let i = 1; i < n - 1; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') {
      inClass = true;
      if (pattern[i + 1] === '^') i++;
      if (pattern[i + 1] === ']') i++;
    } else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return undefined;
  }
  return pattern.slice(1, n - 1);
}

/** Characters with a meaning in a pattern; escaped (`\.`), they stand for themselves. */
const META = '\\^$.|?*+()[]{}';

/** The text and anchors of a pattern that is plain text, or undefined. */
function literalOf(pattern: string): { text: string; start: boolean; end: boolean } | undefined {
  let i = 0;
  let n = pattern.length;
  const start = pattern[0] === '^';
  if (start) i = 1;
  // A final `$` anchors unless it is escaped.
  let end = false;
  if (n > i && pattern[n - 1] === '$' && !escaped(pattern, n - 1)) {
    end = true;
    n--;
  }
  let text = '';
  while (i < n) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1];
      // Only an escaped punctuation mark is itself (`\d`, `\b`, `\u0041` mean more).
      if (next === undefined || /[A-Za-z0-9]/.test(next) || next.charCodeAt(0) > 127) return undefined;
      text += next;
      i += 2;
    } else if (META.includes(c)) return undefined;
    else {
      text += c;
      i++;
    }
  }
  return { text, start, end };
}

/**
 * Why the engine cannot run a pattern that JavaScript knows (a backreference, lookaround), with
 * what to write instead; undefined when it has neither.
 */
function unsupported(pattern: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1];
      if (!inClass && next !== undefined && (/[1-9]/.test(next) || (next === 'k' && pattern[i + 2] === '<')))
        return 'uses a backreference (\\1, \\k<name>), which cannot run in linear time: write the text it repeats (e.g. (a|b)x(a|b) rather than (a|b)x\\1), or compare with = (equals)';
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
      if (pattern[i + 1] === '^') i++;
      if (pattern[i + 1] === ']') i++; // `[]` is an empty class in JavaScript, `[]a]` in RE2: both closed further on
    } else if (c === '(' && pattern[i + 1] === '?') {
      const kind = pattern[i + 2] === '<' ? pattern[i + 3] : pattern[i + 2];
      if (kind === '=' || kind === '!')
        return 'uses a lookahead or lookbehind ((?=…), (?!…), (?<=…), (?<!…)), which cannot run in linear time: match the text itself (^adm rather than ^(?=adm)); for "not this", add a variation for this case first (the first variation whose rules all match answers)';
    }
  }
  return undefined;
}

const describePattern = (pattern: string) =>
  pattern.length > 80 ? `${JSON.stringify(pattern.slice(0, 80))}…` : JSON.stringify(pattern);

/** Compiles a pattern on the engine; LinearRegexError says what is wrong with it. */
function compileOnEngine(pattern: string): Re2 {
  const why = unsupported(pattern);
  if (why) throw new LinearRegexError(`${describePattern(pattern)} ${why}`);
  const { RE2JS } = re2();
  try {
    return RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch (e) {
    const message = (e instanceof Error ? e.message : String(e)).replace(/^error parsing regexp: /, '');
    throw new LinearRegexError(
      `${describePattern(pattern)} is not a valid regular expression (${message}; the syntax is JavaScript's without backreferences and lookaround)`,
    );
  }
}

/**
 * Compiles a pattern to test texts in linear time; throws LinearRegexError (with why and what
 * to write instead) for a pattern the engine cannot run.
 */
export function compileLinearRegex(pattern: string): LinearPattern {
  const literal = literalOf(pattern);
  if (literal) {
    const { text, start, end } = literal;
    if (start && end) return { test: (v) => v === text };
    if (start) return { test: (v) => v.startsWith(text) };
    if (end) return { test: (v) => v.endsWith(text) };
    return { test: (v) => v.includes(text) };
  }
  const compiled = compileOnEngine(pattern);
  const inner = wholeTextPattern(pattern);
  if (inner !== undefined) {
    const whole = compileOnEngine(inner);
    return { test: (v) => whole.testExact(v) };
  }
  return { test: (v) => compiled.test(v) };
}

/** What is wrong with a pattern for the linear-time engine (why, what to write instead), or undefined. */
export function linearRegexProblem(pattern: string): string | undefined {
  if (literalOf(pattern)) return undefined;
  try {
    compileOnEngine(pattern);
    return undefined;
  } catch (e) {
    if (e instanceof LinearRegexError) return e.message;
    throw e;
  }
}

/**
 * Compiles a pattern that captures (mockdev's own, built from a path template): `exec` answers
 * like RegExp's (leftmost-first, the groups as a backtracking engine would fill them).
 */
export function compileLinearCapture(pattern: string): LinearCapture {
  const compiled = compileOnEngine(pattern);
  return {
    exec(text) {
      const m = compiled.matcher(text);
      if (!m.find()) return null;
      const out: (string | undefined)[] = [];
      for (let g = 0; g <= m.groupCount(); g++) out.push(m.group(g) ?? undefined);
      return out;
    },
  };
}
