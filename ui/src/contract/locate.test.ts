import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContractViolation } from '../../../src/core/model/contract';
import {
  bodySteps,
  existingSteps,
  groupByOperation,
  headerName,
  markedJson,
  spotFromQuery,
  spotQuery,
} from './locate';

const violation = (requestId: string, operation: string | null, location = 'body'): ContractViolation => ({
  requestId,
  method: 'GET',
  path: '/pets',
  operation,
  in: 'response',
  location,
  rule: 'type',
  message: 'must be integer',
  schemaPath: '#/paths',
});

describe('contract: where a violation points', () => {
  it('reads body locations as steps, any name quoted', () => {
    assert.deepEqual(bodySteps('body'), []);
    assert.deepEqual(bodySteps('body.items[2].id'), ['items', 2, 'id']);
    assert.deepEqual(bodySteps('body["a.b"][0]'), ['a.b', 0]);
    assert.deepEqual(bodySteps("body['it\\'s']"), ["it's"]);
    assert.equal(bodySteps('query.limit'), undefined);
    assert.equal(bodySteps('bodyguard'), undefined);
    assert.equal(headerName('header.X-Trace'), 'x-trace');
    assert.equal(headerName('query.limit'), undefined);
  });

  it('stops at the part of a path the body has (a missing property marks its object)', () => {
    const body = { items: [{ id: 'x' }, { name: 'b' }] };
    assert.deepEqual(existingSteps(body, ['items', 0, 'id']), ['items', 0, 'id']);
    assert.deepEqual(existingSteps(body, ['items', 1, 'id']), ['items', 1]);
    assert.deepEqual(existingSteps(body, ['items', 5]), ['items']);
    assert.deepEqual(existingSteps([1], ['0']), [], 'an array is not stepped into by a name');
  });

  it('writes a body as JSON.stringify(…, null, 2) does, the failing fields marked', () => {
    const body = { id: 'seven', tags: ['a', 'b'], owner: { name: 'Ada' }, empty: [], none: {} };
    const segments = markedJson(body, [['id'], ['tags', 1]]);
    assert.equal(segments.map((s) => s.text).join(''), JSON.stringify(body, null, 2));
    assert.deepEqual(
      segments.filter((s) => s.marked).map((s) => s.text),
      ['"id": "seven"', '"b"'],
    );
    const whole = markedJson([1, null], [[]]);
    assert.deepEqual(whole, [{ text: '[\n  1,\n  null\n]', marked: true }]);
    assert.deepEqual(markedJson('x', []), [{ text: '"x"', marked: false }]);
  });

  it('groups violations by operation, unmatched requests last, counting requests', () => {
    const groups = groupByOperation([
      violation('1', null),
      violation('2', 'GET /pets'),
      violation('2', 'GET /pets', 'body.id'),
      violation('3', 'GET /pets/{petId}'),
    ]);
    assert.deepEqual(
      groups.map((g) => [g.operation, g.violations.length, g.requests]),
      [
        ['GET /pets', 2, 1],
        ['GET /pets/{petId}', 1, 1],
        [null, 1, 1],
      ],
    );
  });

  it('links a violation to its request and reads the link back', () => {
    const q = new URLSearchParams(spotQuery(violation('42', 'GET /pets', 'body.items[2].id')));
    assert.equal(q.get('request'), '42');
    assert.deepEqual(spotFromQuery(q), { in: 'response', location: 'body.items[2].id' });
    assert.equal(spotFromQuery(new URLSearchParams('request=1')), undefined);
  });
});
