import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MockdevError } from '../../core/errors.js';
import { detectFormat, locatePointer, parseDocumentText, readDocumentText } from './document-text.js';

describe('document text', () => {
  it('tells JSON from YAML by content', () => {
    assert.equal(detectFormat('  {"openapi": "3.0.0"}'), 'json');
    assert.equal(detectFormat('# comment\nopenapi: 3.0.0'), 'yaml');
  });

  it('gives line and column for syntax errors and refuses non-OpenAPI documents', () => {
    const bad = (text: string, re: RegExp) =>
      assert.throws(
        () => parseDocumentText(text, 'doc.yaml'),
        (e: unknown) => e instanceof MockdevError && e.code === 'INVALID_INPUT' && re.test(e.fullMessage),
      );
    bad('{\n "openapi": "3.0.0",\n "info": {} x\n}', /not valid JSON at line 3, column/);
    bad('openapi: 3.0.0\ninfo:\n  title: a\n   version: 1\n', /not valid YAML at line 3, column 10/);
    bad('', /is empty/);
    bad('[1, 2]', /top level is not an object/);
    bad('title: x\n', /no "openapi" or "swagger" field/);
  });

  it('locates a JSON pointer in the text', () => {
    const text = 'openapi: 3.0.0\npaths:\n  /users:\n    get:\n      responses: 1\n';
    assert.deepEqual(locatePointer(text, '/paths/~1users/get/responses'), { line: 5, col: 7 });
  });

  it('locates many pointers in JSON in one pass: keys with escapes, array items, the deepest part that exists', () => {
    const text = [
      '{',
      '  "openapi": "3.0.0", "info": {"title": "a \\"quoted\\" {title}", "version": "1"},',
      '  "paths": {',
      '    "/a~b/{id}": {"get": {"tags": ["x", "y"], "responses": {"200": {"description": "ok"}}}}',
      '  }',
      '}',
    ].join('\n');
    const found = readDocumentText(text, 'doc.json').locate([
      '/paths/~1a~0b~1{id}/get/responses/200',
      '/paths/~1a~0b~1{id}/get/tags/1',
      '/paths/~1a~0b~1{id}/get/nothing/here',
      '/info/version',
      '',
    ]);
    assert.deepEqual(Object.fromEntries(found), {
      '/paths/~1a~0b~1{id}/get/responses/200': { line: 4, col: 61 },
      '/paths/~1a~0b~1{id}/get/tags/1': { line: 4, col: 41 },
      '/paths/~1a~0b~1{id}/get/nothing/here': { line: 4, col: 19 },
      '/info/version': { line: 2, col: 65 },
      '': { line: 1, col: 1 },
    });
  });
});
