import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { elementsNamed, parseXml } from '../../../test/helpers/xml.js';
import type { ContractReport, ContractViolation, RequestResult } from '../model/contract.js';
import { contractJunit, UNMATCHED_SUITE, xmlAttribute, xmlText } from './junit.js';

const violation = (over: Partial<ContractViolation>): ContractViolation => ({
  requestId: 'r1',
  method: 'GET',
  path: '/pets/abc',
  operation: 'GET /pets/{petId}',
  in: 'request',
  location: 'path.petId',
  rule: 'type',
  message: 'must be integer',
  expected: 'integer',
  actual: 'abc',
  schemaPath: '#/paths/~1pets~1{petId}/get/parameters/0/schema/type',
  ...over,
});

const result = (over: Partial<RequestResult>): RequestResult => ({
  requestId: 'r0',
  method: 'GET',
  path: '/pets',
  operation: 'GET /pets',
  outcome: 'passed',
  violations: [],
  ...over,
});

const report = (results: RequestResult[]): ContractReport => ({
  spec: 'https://example.com/openapi.yaml?a=1&b=2',
  checked: results.length,
  passed: results.filter((r) => r.outcome === 'passed').length,
  failed: results.filter((r) => r.outcome === 'failed').length,
  skipped: results.filter((r) => r.notChecked).length,
  violations: results.flatMap((r) => r.violations),
});

describe('contract JUnit XML', () => {
  it('has one testsuite per operation, one testcase per request, failures carrying the violations', () => {
    const bad = violation({ requestId: 'r2', actual: 'abc' });
    const second = violation({
      requestId: 'r2',
      in: 'response',
      location: 'body.items[2].id',
      rule: 'required',
      message: "must have required property 'id'",
      expected: ['id'],
      actual: undefined,
    });
    const results = [
      result({ requestId: 'r1' }),
      result({
        requestId: 'r2',
        path: '/pets/abc',
        operation: 'GET /pets/{petId}',
        outcome: 'failed',
        violations: [bad, second],
      }),
      result({
        requestId: 'r3',
        path: '/pets/7',
        operation: 'GET /pets/{petId}',
        notChecked: 'the response body was cut short by the log',
      }),
      result({
        requestId: 'r4',
        method: 'DELETE',
        path: '/nowhere',
        operation: null,
        outcome: 'failed',
        violations: [
          violation({
            requestId: 'r4',
            operation: null,
            location: 'path',
            rule: 'unknown-operation',
            message: 'no operation DELETE /nowhere',
          }),
        ],
      }),
    ];
    const root = parseXml(contractJunit(report(results), results, '2026-01-02T03:04:05.000Z'));
    assert.equal(root.name, 'testsuites');
    assert.deepEqual(
      { tests: root.attributes.tests, failures: root.attributes.failures, errors: root.attributes.errors },
      { tests: '4', failures: '2', errors: '0' },
    );
    assert.equal(root.attributes.name, 'contract https://example.com/openapi.yaml?a=1&b=2');
    const suites = elementsNamed(root, 'testsuite');
    assert.deepEqual(
      suites.map((s) => [s.attributes.name, s.attributes.tests, s.attributes.failures]),
      [
        ['GET /pets', '1', '0'],
        ['GET /pets/{petId}', '2', '1'],
        [UNMATCHED_SUITE, '1', '1'],
      ],
    );
    const cases = elementsNamed(root, 'testcase');
    assert.deepEqual(
      cases.map((c) => c.attributes.name),
      ['GET /pets (r1)', 'GET /pets/abc (r2)', 'GET /pets/7 (r3)', 'DELETE /nowhere (r4)'],
    );
    assert.deepEqual(elementsNamed(cases[0]!, 'failure'), []);
    const [failure] = elementsNamed(cases[1]!, 'failure');
    assert.equal(failure!.attributes.type, 'type');
    assert.match(failure!.attributes.message!, /^2 violations: path\.petId: must be integer$/);
    const lines = failure!.text.split('\n');
    assert.equal(lines.length, 2);
    assert.match(
      lines[0]!,
      /^request path\.petId: must be integer \[type\]; expected integer; actual abc; at #\/paths\/~1pets~1\{petId\}\/get/,
    );
    assert.match(
      lines[1]!,
      /^response body\.items\[2\]\.id: must have required property 'id' \[required\]; expected \["id"\]; at /,
    );
    assert.equal(
      elementsNamed(cases[2]!, 'system-out')[0]!.text,
      'not checked: the response body was cut short by the log',
    );
    assert.equal(elementsNamed(cases[3]!, 'failure')[0]!.attributes.type, 'unknown-operation');
  });

  it('escapes whatever the traffic holds: markup, quotes, line breaks, control characters, lone surrogates', () => {
    const hostile = `</failure><x a="1">&amp; ' \u0000\u001b\ud800 ]]> "quoted"\nnext line`;
    const results = [
      result({
        requestId: 'r"1',
        path: `/a<b>&"c"`,
        operation: 'GET /a<b>',
        outcome: 'failed',
        violations: [violation({ message: hostile, actual: hostile, location: 'query.<q>' })],
      }),
    ];
    const xml = contractJunit(report(results), results);
    const root = parseXml(xml); // throws if not well-formed
    const [testcase] = elementsNamed(root, 'testcase');
    assert.equal(testcase!.attributes.name, 'GET /a<b>&"c" (r"1)');
    assert.equal(elementsNamed(root, 'testsuite')[0]!.attributes.name, 'GET /a<b>');
    const [failure] = elementsNamed(root, 'failure');
    // The message attribute keeps its line break; the text keeps the violation's words.
    assert.match(
      failure!.attributes.message!,
      /query\.<q>: <\/failure><x a="1">&amp; ' \\u0000\\u001b\\ud800 \]\]> "quoted"\nnext line$/,
    );
    assert.ok(failure!.text.includes('</failure><x a="1">&amp;'), failure!.text);
    assert.equal(elementsNamed(root, 'x').length, 0);
  });

  it('writes an empty report (no logged requests) as a well-formed file with no tests', () => {
    const root = parseXml(contractJunit(report([]), []));
    assert.equal(root.attributes.tests, '0');
    assert.equal(root.children.length, 0);
  });

  it('escapes text and attribute values as XML requires', () => {
    assert.equal(xmlText('a<b>&c'), 'a&lt;b&gt;&amp;c');
    assert.equal(xmlAttribute(`"'\n\t\r`), '&quot;&apos;&#10;&#9;&#13;');
    assert.equal(xmlText('\u0001'), '\\u0001');
  });

  it('is read back by a parser that refuses what is not well-formed (so the checks above can fail)', () => {
    for (const bad of [
      '<a><b></a>',
      '<a x=1/>',
      '<a>&foo;</a>',
      '<a>\u0001</a>',
      '<a x="1\n2"/>',
      '<a/><b/>',
      '<a>1 < 2</a>',
    ])
      assert.throws(() => parseXml(bad), /not well-formed/, bad);
  });
});
