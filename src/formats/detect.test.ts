import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MockdevError } from '../core/errors.js';
import type { ConvertedFormat } from './converted.js';
import { describeValue, detectImportFormat, parseImportText, type Recognizer } from './detect.js';

/** Fake recognizers: each looks for its own top-level field (the real ones are the converters'). */
const fake = (field: string, problem?: (doc: Record<string, unknown>) => string | undefined): Recognizer => {
  return (doc) => {
    if (doc === null || typeof doc !== 'object' || !(field in doc)) return { looksLike: false };
    const p = problem?.(doc as Record<string, unknown>);
    return p === undefined ? { looksLike: true } : { looksLike: true, problem: p };
  };
};

const RECOGNIZERS: Record<ConvertedFormat, Recognizer> = {
  har: fake('log', (d) =>
    Array.isArray((d.log as { entries?: unknown }).entries) ? undefined : 'log.entries is not a list',
  ),
  postman: fake('info'),
  mockoon: fake('routes'),
  wiremock: fake('mappings'),
};

const detect = (text: string) => detectImportFormat(parseImportText(text, 'in.json'), 'in.json', RECOGNIZERS);

const refusal = (text: string): MockdevError => {
  try {
    detect(text);
  } catch (e) {
    assert.ok(e instanceof MockdevError, String(e));
    return e;
  }
  assert.fail(`${text} was not refused`);
};

describe('import format detection', () => {
  it('OpenAPI by its version field, JSON or YAML, and an object with paths (refused later by the OpenAPI import)', () => {
    assert.equal(detect('{"openapi":"3.0.3","info":{},"paths":{}}'), 'openapi');
    assert.equal(detect('swagger: "2.0"\ninfo: {}\npaths: {}\n'), 'openapi');
    assert.equal(detect('{"name":"not an api","paths":{}}'), 'openapi');
  });

  it('each other format by its recognizer, asked in turn', () => {
    assert.equal(detect('{"log":{"entries":[]}}'), 'har');
    assert.equal(detect('{"info":{"name":"c"},"item":[]}'), 'postman');
    assert.equal(detect('{"routes":[]}'), 'mockoon');
    assert.equal(detect('{"mappings":[]}'), 'wiremock');
  });

  it('a file that looks like a format but is refused by it: exit 2, naming the format and the problem', () => {
    const e = refusal('{"log":{"entries":3}}');
    assert.equal(e.code, 'INVALID_ARGUMENT');
    assert.equal(e.exitCode, 2);
    assert.equal(
      e.message,
      'in.json looks like a HAR file but cannot be imported: log.entries is not a list',
    );
    assert.deepEqual(e.details, { file: 'in.json', format: 'har' });
  });

  it('a file that is none of the formats: exit 2, saying what it is', () => {
    const cases: [string, string][] = [
      ['{"hello":1,"world":2}', 'it is a JSON object with the fields "hello", "world"'],
      ['[1,2,3]', 'it is a JSON list of 3 items'],
      ['{}', 'it is an empty JSON object'],
      ['[]', 'it is a JSON list of 0 items'],
      [
        'just some notes',
        'it is YAML text whose top level is a string, not an object (HAR, Postman, Mockoon and WireMock files are JSON)',
      ],
      [
        'a: 1\nb: 2\n',
        'it is a YAML object with the fields "a", "b" without an "openapi" or "swagger" field (HAR, Postman, Mockoon and WireMock files are JSON)',
      ],
    ];
    for (const [text, what] of cases) {
      const e = refusal(text);
      assert.equal(e.code, 'INVALID_ARGUMENT', text);
      assert.equal(e.message, `in.json is not a HAR, Postman, Mockoon, WireMock or OpenAPI file: ${what}`);
    }
  });

  it('broken JSON is a bad document (INVALID_INPUT), saying where', () => {
    const e = refusal('{"log": {');
    assert.equal(e.code, 'INVALID_INPUT');
    assert.match(e.message, /^in\.json is not valid JSON at line 1/);
  });

  it('describes a large object by its first five fields', () => {
    const doc = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, i]));
    assert.equal(describeValue(doc, 'json'), 'a JSON object with 8 fields ("k0", "k1", "k2", "k3", "k4", …)');
  });
});
