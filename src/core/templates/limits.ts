/**
 * What one render may produce (docs/templates.md "Safety limits"): every limit is checked before
 * the work it bounds, or as the output grows, never by measuring a finished result. A render is
 * synchronous and renders do not nest, so the counters are per render (reset by `startRender`).
 */

/** The most a rendered text may hold: 10 MiB (characters while rendering, bytes of the body). */
export const RENDER_OUTPUT_MAX = 10 * 1024 * 1024;
/** Most items one `repeat` gives, and all `repeat`s of one render together. */
export const REPEAT_MAX = 1000;
export const RENDER_ITERATION_BUDGET = 10_000;
/** All iterations of `each` in one render together. */
export const EACH_ITERATION_BUDGET = 100_000;
/** Fake data: a length (characters) one call may ask for, a count (words, lines, dates, …). */
export const FAKE_LENGTH_MAX = 10_000;
export const FAKE_COUNT_MAX = 1000;
/** A text or a list one fake-data call may be given. */
export const FAKE_INPUT_MAX = 10_000;
/** All sizes asked of fake data in one render together (a count weighs 10 characters). */
export const FAKE_RENDER_BUDGET = 100_000;
const COUNT_WEIGHT = 10;

/** The output of a render outgrew RENDER_OUTPUT_MAX. */
export class OutputLimitError extends Error {
  constructor() {
    super(`the rendered output is larger than the limit of ${RENDER_OUTPUT_MAX / 1024 / 1024} MiB`);
  }
}

let produced = 0;
let repeats = 0;
let eachIterations = 0;
let fakeSpent = 0;

/** Resets the counters: called as a render starts. */
export function startRender(): void {
  produced = 0;
  repeats = 0;
  eachIterations = 0;
  fakeSpent = 0;
}

/** Counts `n` characters of output; throws OutputLimitError beyond the limit. */
export function grow(n: number): void {
  produced += n;
  if (produced > RENDER_OUTPUT_MAX) throw new OutputLimitError();
}

/** A finished text within the limit, or OutputLimitError (a string past V8's own limit too). */
export function checkOutput(text: string): string {
  if (text.length > RENDER_OUTPUT_MAX) throw new OutputLimitError();
  return text;
}

/** V8's "Invalid string length": the output grew past what a string can hold. */
export const isStringOverflow = (e: unknown): boolean =>
  e instanceof RangeError && /Invalid string length/.test(e.message);

/** One iteration of a `repeat` block; throws beyond the render's budget. */
export function countRepeat(): void {
  if (++repeats > RENDER_ITERATION_BUDGET)
    throw new Error(`repeat: more than ${RENDER_ITERATION_BUDGET} iterations in one response`);
}

/**
 * A block's body as a loop runs it: each iteration counted against `budget`, and its output
 * against the output limit (what helpers inside already counted is not counted twice).
 */
export function countedBlock<F extends (...a: never[]) => string>(fn: F, iteration: () => void): F {
  return ((...a: never[]) => {
    iteration();
    const before = produced;
    const out = fn(...a);
    const inner = produced - before;
    if (out.length > inner) grow(out.length - inner);
    return out;
  }) as F;
}

/** One iteration of `each`; throws beyond the render's budget. */
export function countEach(): void {
  if (++eachIterations > EACH_ITERATION_BUDGET)
    throw new Error(`each: more than ${EACH_ITERATION_BUDGET} iterations in one response`);
}

// ---- fake data

/**
 * Modules whose positional arguments are sizes: a length (`string.alpha 10`, `finance.pin 6`) or a
 * count (`lorem.words 5`, `word.words 5`). Elsewhere (`number.int 100`) a number is a value.
 */
const LENGTH_MODULES = new Set(['string', 'finance']);
/** Option names that are sizes: a length in characters, or a count of items. */
const LENGTH_OPTIONS = new Set(['length']);
const COUNT_OPTIONS = new Set(['count', 'extensionCount']);
const COUNT_MODULES = new Set(['lorem', 'word']);

/** A range's bound as Faker reads it (its arithmetic turns a numeric text into a number). */
const bound = (v: unknown): number | undefined => {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
  return undefined;
};

/** The largest number of a size given as a number or a `{ min, max }` range (a text is no size). */
function sizeOf(v: unknown, range = true): number | undefined {
  if (typeof v === 'number') return v;
  if (range && typeof v === 'object' && v !== null && !Array.isArray(v)) {
    const { min, max } = v as { min?: unknown; max?: unknown };
    const sizes = [bound(min), bound(max)].filter((x): x is number => x !== undefined);
    return sizes.length ? Math.max(...sizes) : undefined;
  }
  return undefined;
}

/** A size over its limit: the message says which and what the limit is. */
function checkSize(method: string, what: string, size: number | undefined, max: number): number {
  if (size === undefined) return 0;
  if (!(size <= max)) throw new Error(`faker ${method}: a ${what} of ${size} is over the limit of ${max}`);
  return Math.max(0, size);
}

/** Texts and lists given to fake data, bounded (a separator, characters to pick from, a format). */
function checkInput(method: string, v: unknown, depth = 0): void {
  if (typeof v === 'string' && v.length > FAKE_INPUT_MAX)
    throw new Error(
      `faker ${method}: a text of ${v.length} characters is over the limit of ${FAKE_INPUT_MAX}`,
    );
  if (Array.isArray(v) && v.length > FAKE_INPUT_MAX)
    throw new Error(`faker ${method}: a list of ${v.length} items is over the limit of ${FAKE_INPUT_MAX}`);
  if (typeof v === 'object' && v !== null && depth < 2)
    for (const x of Object.values(v as Record<string, unknown>)) checkInput(method, x, depth + 1);
}

/**
 * Checks the arguments of a fake-data call before it runs: sizes (a string's length, a count of
 * words, dates, file extensions) within FAKE_LENGTH_MAX / FAKE_COUNT_MAX, texts and lists within
 * FAKE_INPUT_MAX. Returns what the call asks for, in characters (a count weighs 10).
 */
export function checkFakeArguments(method: string, args: readonly unknown[]): number {
  const mod = method.slice(0, method.indexOf('.'));
  let asked = 0;
  for (const arg of args) {
    checkInput(method, arg);
    // A `{ min, max }` is a size range in `string` and `lorem`; in `finance.amount` it is values.
    if (LENGTH_MODULES.has(mod))
      asked += checkSize(method, 'length', sizeOf(arg, mod === 'string'), FAKE_LENGTH_MAX);
    else if (COUNT_MODULES.has(mod))
      asked += checkSize(method, 'count', sizeOf(arg), FAKE_COUNT_MAX) * COUNT_WEIGHT;
    if (typeof arg === 'object' && arg !== null && !Array.isArray(arg))
      for (const [key, value] of Object.entries(arg as Record<string, unknown>)) {
        if (LENGTH_OPTIONS.has(key)) asked += checkSize(method, key, sizeOf(value), FAKE_LENGTH_MAX);
        else if (COUNT_OPTIONS.has(key))
          asked += checkSize(method, key, sizeOf(value), FAKE_COUNT_MAX) * COUNT_WEIGHT;
      }
  }
  return asked;
}

/** Spends what a fake-data call asks for against the render's budget. */
export function spendFake(asked: number): void {
  fakeSpent += asked;
  if (fakeSpent > FAKE_RENDER_BUDGET)
    throw new Error(
      `faker: more than ${FAKE_RENDER_BUDGET} characters of fake data asked for in one response`,
    );
}

/**
 * The length of `JSON.stringify(value, null, indent)` worked out from the compact text, so an
 * indented form of deeply nested data is refused before it is built.
 */
export function indentedLength(compact: string, indent: number): number {
  if (indent <= 0) return compact.length;
  let length = compact.length;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < compact.length; i++) {
    const c = compact.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      const next = compact.charCodeAt(i + 1);
      depth++;
      if (next !== 125 && next !== 93) length += 1 + depth * indent;
    } else if (c === 125 || c === 93) {
      const prev = compact.charCodeAt(i - 1);
      depth--;
      if (prev !== 123 && prev !== 91) length += 1 + depth * indent;
    } else if (c === 44) length += 1 + depth * indent;
    else if (c === 58) length += 1;
  }
  return length;
}
