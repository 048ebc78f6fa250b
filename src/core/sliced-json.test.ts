import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseJsonBody, parseJsonSliced, SLICED_JSON_MIN_LENGTH } from './sliced-json.js';

/** A small seeded PRNG (mulberry32): the same documents on every run. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick };
}
type Random = ReturnType<typeof random>;

const SPACES = ['', '', '', ' ', '\n', '\t', '\r\n  '];
const KEYS = [
  'a',
  'b',
  'id',
  '__proto__',
  'constructor',
  'toString',
  '0',
  '1',
  '10',
  '-1',
  '',
  'é',
  '\u{1F600}',
];
const NUMBERS = [
  '0',
  '-0',
  '1',
  '-1',
  '7',
  '42',
  '-42',
  '123456789012345',
  '-123456789012345',
  '1234567890123456',
  '9007199254740993',
  '-9007199254740993',
  '12345678901234567890123',
  '0.5',
  '-0.5',
  '3.14159',
  '1e3',
  '1E3',
  '1e+3',
  '1e-3',
  '-1.5E-7',
  '0e0',
  '0.0',
  '2.5e308',
  '1e400',
  '-1e400',
  '1e-400',
  '4.9e-324',
  '0.1',
  '0.30000000000000004',
  '100',
  '1.7976931348623157e308',
  '00',
  '01',
  '-',
  '-a',
  '1.',
  '.5',
  '1e',
  '1e+',
  '+1',
  '0x10',
  '1.2.3',
  'NaN',
  'Infinity',
];
const CHARS = [
  'a',
  'Z',
  ' ',
  'é',
  '\u{1F600}',
  '"',
  '\\',
  '/',
  '\n',
  '\t',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u2028',
  '\ud800',
  '\udc00',
];

/** A JSON string literal of `s`, each character in one of the forms JSON allows (some not: `bad`). */
function quote(r: Random, s: string, bad: boolean): string {
  let out = '"';
  for (const ch of s.split('')) {
    const code = ch.charCodeAt(0);
    const hex = code.toString(16).padStart(4, '0');
    const forms = [`\\u${hex}`, `\\u${hex.toUpperCase()}`];
    if (ch === '"' || ch === '\\') forms.push(`\\${ch}`);
    else if (ch === '/') forms.push('\\/', '/');
    else if (ch === '\n') forms.push('\\n');
    else if (ch === '\t') forms.push('\\t');
    else if (code >= 0x20) forms.push(ch, ch, ch);
    if (bad) forms.push(ch, '\\x', '\\u12g4', '\\', `\\${ch}`);
    out += r.pick(forms);
  }
  return out + '"';
}

/** A random JSON-like text: valid unless `bad`, then sometimes not. */
function document(r: Random, depth: number, bad: boolean): string {
  const sp = () => r.pick(SPACES);
  const kind = depth > 5 ? r.int(4) : r.int(7);
  switch (kind) {
    case 0: {
      const n = r.pick(NUMBERS);
      return bad || /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(n) ? n : '1';
    }
    case 1:
      return quote(r, Array.from({ length: r.int(8) }, () => r.pick(CHARS)).join(''), bad && r.int(4) === 0);
    case 2:
      return r.pick(['true', 'false', 'null']);
    case 3:
      return r.pick(['[]', '{}', '[ ]', '{ }']);
    case 4:
    case 5: {
      const items = Array.from({ length: r.int(5) }, () => sp() + document(r, depth + 1, bad) + sp());
      return `[${items.join(',')}]`;
    }
    default: {
      const items = Array.from(
        { length: r.int(5) },
        () => `${sp()}${quote(r, r.pick(KEYS), false)}${sp()}:${sp()}${document(r, depth + 1, bad)}${sp()}`,
      );
      return `{${items.join(',')}}`;
    }
  }
}

/** Breaks a text the ways people and programs do: a character dropped, added, changed; cut short. */
function mutate(r: Random, text: string): string {
  const at = r.int(text.length + 1);
  const noise = r.pick([
    '',
    ',',
    ':',
    '"',
    '\\',
    '[',
    ']',
    '{',
    '}',
    'x',
    ' ',
    '-',
    '.',
    'e',
    '0',
    '1',
    't',
    'n',
    '\u0001',
  ]);
  switch (r.int(4)) {
    case 0:
      return text.slice(0, at) + text.slice(at + 1);
    case 1:
      return text.slice(0, at) + noise + text.slice(at);
    case 2:
      return text.slice(0, at) + noise + text.slice(at + 1);
    default:
      return text.slice(0, at);
  }
}

/** JSON.parse's outcome: the value, or the error's message. */
function reference(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** Parses `text` both ways and requires the same outcome: an equal value (keys in the same order), or the same error. */
async function same(text: string, options = { sliceMs: 0 }): Promise<void> {
  const expected = reference(text);
  let got: { value: unknown } | { error: string };
  try {
    got = { value: await parseJsonSliced(text, options) };
  } catch (e) {
    assert.ok(e instanceof SyntaxError, `a SyntaxError for ${JSON.stringify(text)}`);
    got = { error: e.message };
  }
  if ('error' in expected) return assert.deepEqual(got, expected, `the error for ${JSON.stringify(text)}`);
  assert.ok('value' in got, `${JSON.stringify(text)} parses: ${'error' in got ? got.error : ''}`);
  assert.deepStrictEqual(got.value, expected.value, JSON.stringify(text));
  assert.equal(
    JSON.stringify(got.value),
    JSON.stringify(expected.value),
    `key order of ${JSON.stringify(text)}`,
  );
}

describe('parseJsonSliced', () => {
  it('gives the value JSON.parse gives, on generated documents', async () => {
    const r = random(20);
    for (let n = 0; n < 3000; n++) await same(document(r, 0, false));
  });

  it('fails where JSON.parse fails, with its message, on broken documents', async () => {
    const r = random(21);
    let failed = 0;
    for (let n = 0; n < 6000; n++) {
      const text = n % 2 ? mutate(r, document(r, 0, false)) : document(r, 0, true);
      if ('error' in reference(text)) failed++;
      await same(text);
    }
    assert.ok(failed > 2000, `${failed} of the texts are not JSON`);
  });

  it('fails with JSON.parse’s message on each kind of mistake', async () => {
    const texts = [
      '',
      ' ',
      'x',
      'NaN',
      'undefined',
      'Infinity',
      '[object Object]',
      '[1,]',
      '{"a":1,}',
      '{a:1}',
      '{"a" 1}',
      '{"a":1,"b" 2}',
      '{"a":1 "b"}',
      '[1 2]',
      '"abc',
      '"a\u0001"',
      '"\\x"',
      '"\\u12g4"',
      '"\\u12',
      '"ab\\',
      '-',
      '-a',
      '1e',
      '1e+',
      '1.',
      '01',
      '-01',
      '1 2',
      'tru',
      '[t]',
      '{"x":tru}',
      '[',
      '{',
      '{"a"',
      '{"a":',
      '{"a":1,"b"',
      '[]x',
      '\u00a0[]',
      `[${'1,'.repeat(30)}x]`,
      `[${'1,'.repeat(3)}x${',1'.repeat(30)}]`,
      `x${' '.repeat(40)}`,
      '\ufeff{}',
      '[1]\u0000',
    ];
    for (const text of texts) await same(text);
  });

  it('keeps __proto__ an own property, and the last of duplicate keys in the first one’s place', async () => {
    const text = '{"__proto__":{"polluted":1},"a":1,"b":2,"a":3,"__proto__":[]}';
    const value = (await parseJsonSliced(text)) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
    assert.deepEqual(Object.keys(value), ['__proto__', 'a', 'b']);
    assert.deepEqual(Object.getOwnPropertyDescriptor(value, '__proto__'), {
      value: [],
      writable: true,
      enumerable: true,
      configurable: true,
    });
    assert.equal(value.a, 3);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    await same(text);
  });

  it('reads long strings and keys in chunks, pausing between them, as JSON.parse does', async () => {
    const r = random(22);
    const long = (n: number) => quote(r, Array.from({ length: n }, () => r.pick(CHARS)).join(''), false);
    const chunk = 1 << 18;
    const texts = [
      `[${long(300_000)}]`,
      `{${long(300_000)}:${long(10)}, ${long(300_000)} : 1, "a":${long(300_000)}}`,
      JSON.stringify('x'.repeat(1_000_000)),
      JSON.stringify({ ['k'.repeat(600_000)]: 'v'.repeat(600_000) }),
      // Escapes across the chunk's end, at each offset.
      ...Array.from({ length: 8 }, (_, k) => `"${'a'.repeat(chunk - 4 + k)}\\u00e9\\n\\ud83d\\ude00\\"b"`),
      // Mistakes far into a long string.
      `"${'a'.repeat(800_000)}\\u12g4"`,
      `["${'\\n'.repeat(400_000)}\\x"]`,
      `"${'a'.repeat(800_000)}\u0001"`,
      `"${'\\t'.repeat(400_000)}`,
      `"${'a'.repeat(800_000)}\\`,
      `{"a":1,"${'b'.repeat(600_000)}" 2}`,
    ];
    for (const text of texts) await same(text);
    let pauses = 0;
    await parseJsonSliced(JSON.stringify(['\n'.repeat(2_000_000)]), {
      sliceMs: 0,
      pause: async () => void pauses++,
    });
    assert.ok(pauses >= 10, `${pauses} pauses within one string`);
  });

  it('parses any depth without a stack overflow', async () => {
    const depth = 500_000;
    /** How deep `value` nests through `step`, to its innermost value (walked without recursion). */
    const nesting = (value: unknown, step: (v: unknown) => unknown) => {
      let levels = 0;
      for (let v = value; typeof v === 'object' && v !== null; v = step(v)) levels++;
      return levels;
    };
    const arrays = await parseJsonSliced(`${'['.repeat(depth)}${']'.repeat(depth)}`);
    assert.equal(
      nesting(arrays, (v) => (v as unknown[])[0]),
      depth,
    );
    const objects = await parseJsonSliced(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
    assert.equal(
      nesting(objects, (v) => (v as { a: unknown }).a),
      depth,
    );
    await same(`${'['.repeat(depth)}${']'.repeat(depth - 1)}`);
  });

  it('pauses between slices, and gives the same value as parsed at once', async () => {
    const values = Array.from({ length: 200_000 }, (_, n) => (n % 3 ? [] : { n, s: 'é\n"' }));
    const text = JSON.stringify(values);
    let pauses = 0;
    const value = await parseJsonSliced(text, {
      sliceMs: 1,
      pause: () => {
        pauses++;
        return new Promise((resolve) => setImmediate(resolve));
      },
    });
    assert.deepStrictEqual(value, values);
    assert.ok(pauses >= 5, `${pauses} pauses`);
  });

  it('lets timers run while it parses a large text', async () => {
    const text = `[${'[],{},'.repeat(500_000)}0]`;
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 1);
    try {
      await parseJsonSliced(text);
    } finally {
      clearInterval(ticker);
    }
    assert.ok(ticks >= 3, `${ticks} timer turns during the parse`);
  });
});

describe('parseJsonBody', () => {
  it('parses small texts with JSON.parse and large ones in slices, with the same outcome', async () => {
    assert.deepEqual(await parseJsonBody('{"a":[1,2]}'), { a: [1, 2] });
    await assert.rejects(parseJsonBody('{"a":'), {
      name: 'SyntaxError',
      message: 'Unexpected end of JSON input',
    });
    const large = JSON.stringify({ items: Array.from({ length: SLICED_JSON_MIN_LENGTH / 4 }, (_, n) => n) });
    assert.ok(large.length > SLICED_JSON_MIN_LENGTH);
    assert.deepEqual(await parseJsonBody(large), JSON.parse(large));
    await assert.rejects(parseJsonBody(`${large}x`), {
      name: 'SyntaxError',
      message: `Unexpected non-whitespace character after JSON at position ${large.length}`,
    });
  });
});
