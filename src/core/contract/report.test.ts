import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compiledFixture, record } from '../../../test/helpers/contract.js';
import { coverageOf, validateRecords } from './index.js';

/** The report of `contract validate` and the coverage of `contract status`. */

const contract = compiledFixture('petstore-rules.yaml', '3.0');
const JSON_H = { 'content-type': 'application/json' };
const pet = (id: string, body = '{"id":1,"name":"a"}') =>
  record({ path: `/pets/${id}`, response: { headers: JSON_H, body } });

describe('validateRecords', () => {
  it('sums up passed, failed, skipped and every violation, one result per record in order', () => {
    const records = [
      pet('1'),
      pet('x'),
      pet('2', '{"id":"a"}'),
      record({ method: 'GET', path: '/unknown' }),
      { ...pet('3', '{"id":'), truncated: true },
    ];
    const run = validateRecords(contract, records, 'contract.yaml');
    assert.deepEqual(run.report, {
      spec: 'contract.yaml',
      checked: 5,
      passed: 2,
      failed: 3,
      skipped: 1,
      violations: run.results.flatMap((r) => r.violations),
    });
    assert.equal(run.report.violations.length, 4);
    assert.deepEqual(
      run.results.map((r) => [r.requestId, r.outcome]),
      records.map((r, i) => [r.id, i === 0 || i === 4 ? 'passed' : 'failed']),
    );
    assert.ok(run.results[4]!.notChecked);
  });
  it('an empty log: nothing checked', () => {
    const run = validateRecords(contract, [], 's');
    assert.deepEqual(run.report, { spec: 's', checked: 0, passed: 0, failed: 0, skipped: 0, violations: [] });
  });
});

describe('coverageOf', () => {
  it('counts requests per operation, the unexercised ones, the unmatched requests and the percentage', () => {
    const run = validateRecords(
      contract,
      [
        pet('1'),
        pet('x'),
        record({ path: '/pets/mine', response: { headers: JSON_H, body: '[]' } }),
        record({ method: 'get', path: '/nope' }),
        record({ method: 'GET', path: '/nope' }),
        record({ method: 'POST', path: '/nope' }),
      ],
      'doc',
    );
    const cov = coverageOf(contract, run);
    assert.equal(cov.spec, 'doc');
    assert.equal(cov.total, 9);
    assert.equal(cov.covered, 2);
    assert.equal(cov.percent, 22.2);
    const show = cov.operations.find((o) => o.operation === 'GET /pets/{petId}')!;
    assert.deepEqual(show, {
      operation: 'GET /pets/{petId}',
      method: 'GET',
      path: '/pets/{petId}',
      operationId: 'showPet',
      requests: 2,
      passed: 1,
      failed: 1,
    });
    assert.deepEqual(
      cov.operations.map((o) => o.operation),
      contract.operations.map((o) => o.operation),
    );
    assert.equal(cov.unexercised.length, 7);
    assert.ok(cov.unexercised.includes('POST /pets'));
    assert.ok(!cov.unexercised.includes('GET /pets/mine'));
    assert.deepEqual(cov.unmatched, [
      { method: 'GET', path: '/nope', requests: 2 },
      { method: 'POST', path: '/nope', requests: 1 },
    ]);
  });
  it('a document with no operation: 0 of 0, 0 %', () => {
    const empty = compiledFixture('petstore-rules.yaml', '3.0');
    const cov = coverageOf({ ...empty, operations: [] }, validateRecords(empty, [], 's'));
    assert.deepEqual([cov.covered, cov.total, cov.percent], [0, 0, 0]);
  });
});
