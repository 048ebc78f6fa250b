import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { documentType, exportFileName, formatBody, maskSecret, queryRows } from './format';

describe('import and export helpers', () => {
  it('sends a document as JSON only when it parses as JSON', () => {
    assert.equal(documentType('{"openapi":"3.0.3"}'), 'application/json');
    assert.equal(documentType('openapi: 3.0.3\ninfo: {}'), 'application/yaml');
    assert.equal(documentType('{"openapi": '), 'application/yaml');
  });

  it('pretty-prints a JSON body and keeps any other as it is', () => {
    assert.deepEqual(formatBody('{"a":1,"b":[1,2]}'), {
      text: '{\n  "a": 1,\n  "b": [\n    1,\n    2\n  ]\n}',
      json: true,
    });
    assert.deepEqual(formatBody('name=Ada&x=1'), { text: 'name=Ada&x=1', json: false });
    assert.deepEqual(formatBody('{not json'), { text: '{not json', json: false });
  });

  it('masks a credential, showing at most its last 4 characters of a long one', () => {
    assert.equal(maskSecret('secret'), '********');
    assert.equal(maskSecret('abcdefghijklmnop'), '********mnop');
  });

  it('names the exported file after the project, without characters a file name cannot hold', () => {
    assert.equal(exportFileName('Shop', 'yaml'), 'Shop.openapi.yaml');
    assert.equal(exportFileName('a/b: c', 'json'), 'a-b- c.openapi.json');
    assert.equal(exportFileName('  ', 'json'), 'project.openapi.json');
  });

  it('lists repeated query keys once per value', () => {
    assert.deepEqual(queryRows({ a: '1', tag: ['x', 'y'] }), [
      ['a', '1'],
      ['tag', 'x'],
      ['tag', 'y'],
    ]);
  });
});
