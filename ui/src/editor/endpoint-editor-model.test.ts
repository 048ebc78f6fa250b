import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Endpoint, Variation } from '../../../src/core/model/endpoint';
import {
  createInput,
  endpointForm,
  endpointPatch,
  endpointProblems,
  headerProblems,
  headersPatch,
  problemField,
  sameForm,
} from './form-model';
import { describeJsonProblem, formatJson, isJsonContentType, jsonProblem, lineColumn } from './json-check';
import {
  inheritedLabel,
  ruleProblems,
  ruleText,
  variationForm,
  variationInput,
  variationPatch,
} from './variation-model';

// The endpoint editor's pure parts (no browser): the JSON check, the form <-> API mapping.

describe('the body JSON check', () => {
  it('tells JSON content types', () => {
    for (const t of [
      'application/json',
      'application/json; charset=utf-8',
      'text/json',
      'application/problem+json',
    ])
      assert.equal(isJsonContentType(t), true, t);
    for (const t of ['text/plain', 'text/csv', 'application/jsonp', 'application/xml', ''])
      assert.equal(isJsonContentType(t), false, t);
  });

  it('accepts JSON and an empty body', () => {
    assert.equal(jsonProblem('{"a": [1, 2.5e3, true, null, "x\\n"]}'), null);
    assert.equal(jsonProblem('   '), null);
  });

  it('places the first mistake by line and column', () => {
    const p = jsonProblem('{\n  "a": 1\n  "b": 2\n}');
    assert.ok(p !== null);
    assert.equal(p.line, 3);
    assert.equal(p.column, 3);
    assert.match(p.message, /expected "," or "}"/);
    assert.equal(p.template, false);
    assert.equal(describeJsonProblem(p), `Line 3, column 3: ${p.message}`);

    const end = jsonProblem('{"a": [1, 2');
    assert.deepEqual([end?.line, end?.column], [1, 12]);
    assert.match(end!.message, /end of the text/);

    const unquoted = jsonProblem('{a: 1}');
    assert.deepEqual([unquoted?.line, unquoted?.column], [1, 2]);
    assert.match(unquoted!.message, /property name in double quotes/);

    const trailing = jsonProblem('[1] x');
    assert.deepEqual([trailing?.line, trailing?.column], [1, 5]);

    const open = jsonProblem('{"a": "never closed}');
    assert.deepEqual([open?.line, open?.column], [1, 7]);
    assert.match(open!.message, /never closed/);
  });

  it('marks a body with a template as such (a warning, not an error)', () => {
    const p = jsonProblem('{"id": {{params.id}}}');
    assert.ok(p);
    assert.equal(p.template, true);
  });

  it('pretty-prints JSON with two spaces and refuses anything else', () => {
    assert.equal(
      formatJson('{"a":[1,{"b":null}]}'),
      '{\n  "a": [\n    1,\n    {\n      "b": null\n    }\n  ]\n}',
    );
    assert.throws(() => formatJson('{'));
  });

  it('counts lines and columns from 1', () => {
    assert.deepEqual(lineColumn('ab\ncd', 0), { line: 1, column: 1 });
    assert.deepEqual(lineColumn('ab\ncd', 4), { line: 2, column: 2 });
    assert.deepEqual(lineColumn('ab', 99), { line: 1, column: 3 });
  });
});

const endpoint: Endpoint = {
  id: 'e1',
  name: 'get-users',
  method: 'GET',
  path: '/api/users',
  status: 200,
  headers: { 'X-One': '1', 'X-Two': '2' },
  body: '[]',
  contentType: 'application/json',
  delay: 0,
  enabled: true,
  kind: 'mock',
  variations: [],
};

describe('the endpoint form', () => {
  it('starts a new endpoint from the prefilled path and the defaults', () => {
    const f = endpointForm(undefined, { path: '/api/users' });
    assert.equal(f.path, '/api/users');
    assert.equal(f.method, 'GET');
    assert.equal(endpointForm(undefined, { path: '/x', method: 'PATCH' }).method, 'PATCH', 'a logged method');
    assert.equal(endpointForm(undefined, { method: 'BREW' }).method, 'GET', 'a method the form has not');
    assert.equal(endpointForm(undefined).path, '/');
    assert.deepEqual(createInput({ ...f, method: 'POST', status: '201', delay: '250' }), {
      method: 'POST',
      path: '/api/users',
      status: 201,
      headers: {},
      body: '',
      contentType: 'application/json',
      delay: 250,
      enabled: true,
      kind: 'mock',
    });
    const proxy = createInput({
      ...f,
      kind: 'proxy',
      proxyTarget: ' https://a.example ',
      proxyTimeout: '500',
    });
    assert.deepEqual(proxy.proxy, { target: 'https://a.example', record: false, timeoutMs: 500 });
  });

  it('patches only the changed fields, a removed header as null', () => {
    const base = endpointForm(endpoint);
    assert.deepEqual(endpointPatch(base, base), {});
    const form = {
      ...base,
      status: '404',
      statusText: 'Gone away',
      headers: base.headers.filter((h) => h.name !== 'X-One').map((h) => ({ ...h, value: '3' })),
    };
    assert.deepEqual(endpointPatch(base, form), {
      status: 404,
      statusText: 'Gone away',
      headers: { 'X-One': null, 'X-Two': '3' },
    });
    assert.deepEqual(endpointPatch({ ...base, statusText: 'Old' }, base), { statusText: null });
    const proxy = endpointPatch(base, {
      ...base,
      kind: 'proxy',
      proxyTarget: 'https://a.example',
      proxyRecord: true,
    });
    assert.deepEqual(proxy, { kind: 'proxy', proxy: { target: 'https://a.example', record: true } });
    // A proxy endpoint's settings: only those changed (the API keeps the others); an emptied timeout is null.
    const proxied = endpointForm({
      ...endpoint,
      kind: 'proxy',
      proxy: { target: 'https://a.example', record: true, timeoutMs: 900 },
    });
    assert.deepEqual(endpointPatch(proxied, { ...proxied, proxyRecord: false }), {
      proxy: { record: false },
    });
    assert.deepEqual(endpointPatch(proxied, { ...proxied, proxyTimeout: '' }), {
      proxy: { timeoutMs: null },
    });
  });

  it('merges header names in any case', () => {
    assert.deepEqual(headersPatch({ 'X-A': '1', B: '2' }, { 'x-a': '1', B: '2' }), { 'x-a': '1' });
    assert.deepEqual(headersPatch({ A: '1' }, {}), { A: null });
  });

  it('tells the problems it can see before the API does', () => {
    const base = endpointForm(endpoint);
    assert.deepEqual(endpointProblems(base, false), {});
    const bad = endpointProblems(
      { ...base, status: '99', delay: '-1', path: ' ', name: '', kind: 'proxy', proxyTimeout: 'x' },
      false,
    );
    assert.deepEqual(Object.keys(bad).sort(), [
      'delay',
      'name',
      'path',
      'proxy.target',
      'proxy.timeoutMs',
      'status',
    ]);
    assert.equal(
      endpointProblems({ ...base, name: '' }, true).name,
      undefined,
      'a new endpoint gets a generated name',
    );
    const rows = [
      { id: 1, name: 'X-A', value: '1' },
      { id: 2, name: 'x-a', value: '2' },
      { id: 3, name: 'Bad Name', value: '' },
      { id: 4, name: '', value: 'v' },
      { id: 5, name: '', value: '' },
    ];
    assert.deepEqual(Object.keys(headerProblems(rows)), ['2', '3', '4']);
  });

  it('tells which field an API problem is about', () => {
    assert.equal(problemField('body'), 'body');
    assert.equal(problemField('proxy.target'), 'proxy.target');
    assert.equal(problemField('header "X-A"'), 'headers');
    assert.equal(problemField('headers.X-A'), 'headers');
    assert.equal(problemField('variation "v" body'), 'body');
    assert.equal(problemField('variation "a b" statusText'), 'statusText');
    assert.equal(problemField('variations.0.rules.0.value'), 'rules');
    assert.equal(problemField('variations.3.status'), 'status');
  });

  it('compares forms whatever the row ids', () => {
    assert.equal(sameForm(endpointForm(endpoint), endpointForm(endpoint)), true);
    assert.equal(sameForm(endpointForm(endpoint), { ...endpointForm(endpoint), body: '{}' }), false);
  });
});

describe('the variation form', () => {
  const variation: Variation = {
    id: 'v1',
    name: 'page-2',
    status: 206,
    headers: { 'X-Page': '2' },
    body: '',
    contentType: 'application/json',
    delay: 0,
    rules: [{ source: 'query', key: 'page', op: 'equals', value: '2' }],
  };

  it('starts a new variation with the endpoint status and content type', () => {
    const f = variationForm(undefined, { status: 201, contentType: 'text/plain' });
    assert.deepEqual([f.status, f.contentType, f.rules.length], ['201', 'text/plain', 0]);
    const input = variationInput({
      ...f,
      name: ' admin ',
      rules: [
        { id: 1, source: 'header', key: 'x-role', op: 'regex', value: '^adm' },
        { id: 2, source: 'body', key: 'user.id', op: 'exists', value: 'ignored' },
      ],
    });
    assert.equal(input.name, 'admin');
    assert.deepEqual(input.rules, [
      { source: 'header', key: 'x-role', op: 'regex', value: '^adm' },
      { source: 'body', key: 'user.id', op: 'exists' },
    ]);
  });

  it('patches the changed fields; rules replace the list', () => {
    const base = variationForm(variation, endpoint);
    assert.deepEqual(variationPatch(base, base), {});
    assert.deepEqual(variationPatch(base, { ...base, statusText: 'Partial', rules: [] }), {
      statusText: 'Partial',
      rules: [],
    });
    assert.deepEqual(variationPatch(base, { ...base, headers: [] }), { headers: { 'X-Page': null } });
  });

  it("a new variation inherits the endpoint's body and content type; ticking sends null, unticking the value", () => {
    const f = variationForm(undefined, { status: 201, contentType: 'text/plain' });
    assert.deepEqual([f.inheritBody, f.inheritContentType], [true, true]);
    const input = variationInput({ ...f, name: 'slow', delay: '3000' });
    assert.equal('body' in input, false, "unset: the endpoint's");
    assert.equal('contentType' in input, false);
    assert.deepEqual(
      variationInput({ ...f, name: 'x', inheritBody: false, body: '' }).body,
      '',
      'an empty body of its own',
    );

    const base = variationForm(variation, endpoint);
    assert.deepEqual(
      [base.inheritBody, base.inheritContentType],
      [false, false],
      'stored values are its own',
    );
    assert.deepEqual(variationPatch(base, { ...base, inheritBody: true, inheritContentType: true }), {
      body: null,
      contentType: null,
    });
    const inheriting = variationForm({ ...variation, body: undefined, contentType: undefined }, endpoint);
    assert.deepEqual(variationPatch(inheriting, { ...inheriting, body: 'typed while inherited' }), {});
    assert.deepEqual(variationPatch(inheriting, { ...inheriting, inheritBody: false, body: 'own' }), {
      body: 'own',
    });
    assert.equal(inheritedLabel({ headers: {} }), 'body, content type, headers');
    assert.equal(inheritedLabel(variation), '');
  });

  it('writes rules as the CLI does and checks them', () => {
    assert.equal(ruleText({ source: 'query', key: 'page', op: 'equals', value: '2' }), 'query.page=2');
    assert.equal(
      ruleText({ source: 'header', key: 'x-role', op: 'regex', value: '^adm' }),
      'header.x-role~^adm',
    );
    assert.equal(ruleText({ source: 'body', key: 'user.id', op: 'exists' }), 'body.user.id?');
    const problems = ruleProblems([
      { id: 1, source: 'query', key: ' ', op: 'equals', value: '' },
      { id: 2, source: 'query', key: 'q', op: 'regex', value: '^(?!adm)' },
      { id: 3, source: 'query', key: 'q', op: 'exists', value: '' },
    ]);
    // Patterns are the server's to check (its linear-time engine refuses what the browser runs).
    assert.deepEqual(Object.keys(problems), ['1']);
  });
});
