import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  compileLinearCapture,
  compileLinearRegex,
  linearEngineLoaded,
  linearRegexProblem,
} from './linear-regex.js';

const TEXTS = [
  '',
  'admin',
  'adm',
  'xadm',
  'ADMIN',
  'a.b',
  'axb',
  'json',
  'app.json',
  'ok',
  'ok!',
  '^adm',
  'a$',
];

describe('linear-time regular expressions', () => {
  // First in the file: nothing has loaded the engine yet.
  it('compares plain-text patterns as text, as RegExp would, without loading the engine', () => {
    for (const pattern of ['^adm', 'adm', 'json$', '^ok$', 'a\\.b', '\\^adm', 'a\\$', '^$', '', 'x-role'])
      for (const text of TEXTS)
        assert.equal(
          compileLinearRegex(pattern).test(text),
          new RegExp(pattern).test(text),
          `${pattern} on ${JSON.stringify(text)}`,
        );
    assert.equal(linearRegexProblem('^adm'), undefined);
    assert.equal(linearEngineLoaded(), false);
  });

  it('matches what RegExp matches for the usual patterns', () => {
    const patterns = [
      '^adm.*',
      '^[2-9]$',
      '\\d+',
      '^Bearer [A-Za-z0-9._-]+$',
      'a|b',
      '^(admin|root)$',
      '(?<role>adm)in',
      '\\u0041',
      '[^]',
      'a{2,}',
      '\\bjson\\b',
      '^\\w+@\\w+\\.com$',
      // Anchored at both ends: a whole-text match; not when `|` splits the anchors apart.
      '^a|in$',
      '^(ad|ro)[a-z]+$',
      '^[a-z]*\\$$',
      '^a.*$|^x',
    ];
    const texts = [
      ...TEXTS,
      'Bearer abc.def',
      'root',
      'A',
      'aa',
      'x@y.com',
      'x@y.org',
      '7',
      '12',
      'application/json',
    ];
    for (const pattern of patterns)
      for (const text of texts)
        assert.equal(
          compileLinearRegex(pattern).test(text),
          new RegExp(pattern).test(text),
          `${pattern} on ${JSON.stringify(text)}`,
        );
    assert.equal(compileLinearRegex('(?i)^adm').test('ADMIN'), true, "RE2's (?i) flag");
  });

  it('runs the patterns that freeze a backtracking engine in linear time', () => {
    // V8 takes about a second at 25 characters here and doubles with each one more.
    const long = `${'a'.repeat(100_000)}!`;
    const started = Date.now();
    for (const pattern of ['(a+)+$', '^(a|a)*$', '(a|aa)+$', '^(\\w+\\s?)*$', '(.*a){20}b'])
      assert.equal(compileLinearRegex(pattern).test(long), false, pattern);
    assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
  });

  it('refuses backreferences and lookaround with what to write instead', () => {
    assert.match(linearRegexProblem('(a)x\\1')!, /backreference.*write the text it repeats/);
    assert.match(linearRegexProblem('(?<n>a)\\k<n>')!, /backreference/);
    for (const p of ['^(?=adm)', 'a(?!b)', '(?<=a)b', '(?<!a)b'])
      assert.match(linearRegexProblem(p)!, /lookahead or lookbehind.*add a variation for this case first/, p);
    // Inside a character class these are plain characters.
    assert.equal(linearRegexProblem('[(?=]'), undefined);
    assert.equal(linearRegexProblem('[\\1]x'), linearRegexProblem('[\\1]x'));
  });

  it('refuses what is not a regular expression, naming the problem', () => {
    assert.match(linearRegexProblem('(')!, /"\(" is not a valid regular expression \(missing closing \)/);
    assert.match(linearRegexProblem('[')!, /missing closing \]/);
    assert.match(linearRegexProblem('a**')!, /not a valid regular expression/);
    assert.throws(() => compileLinearRegex('a(?=b)'), /lookahead/);
  });

  it('captures as a backtracking engine fills the groups (path templates)', () => {
    const patterns = [
      '^(.+?)-(.+)$',
      '^(.+?)\\.(.+?)\\.(.+)$',
      '^v(.+?)\\.(.+)x$',
      '^(.+?)(?:ü|%C3%BC)(.+)$',
    ];
    const alphabet = ['a', '-', '.', 'x', 'v', 'ü', '%C3%BC'];
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (const pattern of patterns) {
      const ours = compileLinearCapture(pattern);
      const theirs = new RegExp(pattern);
      for (let n = 0; n < 400; n++) {
        const text = Array.from(
          { length: 1 + Math.floor(random() * 10) },
          () => alphabet[Math.floor(random() * alphabet.length)],
        ).join('');
        const want = theirs.exec(text);
        assert.deepEqual(ours.exec(text), want ? [...want] : null, `${pattern} on ${text}`);
      }
    }
  });
});
