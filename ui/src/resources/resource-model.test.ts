import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultName, itemsProblem, parseItems } from './resource-model';

describe('the Resources screen: items typed as JSON', () => {
  it('takes an array of objects, and empty text as none', () => {
    assert.equal(itemsProblem('[{"id": 1}, {"id": "a", "tags": []}]'), undefined);
    assert.equal(itemsProblem('  '), undefined);
    assert.deepEqual(parseItems(''), []);
    assert.deepEqual(parseItems('[{"id":1}]'), [{ id: 1 }]);
  });

  it('says where the JSON is wrong, or which item is not an object', () => {
    assert.match(itemsProblem('[{"id": 1,}]')!, /^Invalid JSON: Line 1, column 11: /);
    assert.match(itemsProblem('{"id": 1}')!, /Must be a JSON array of objects/);
    assert.match(itemsProblem('[{"id": 1}, 2]')!, /Item 1 is not a JSON object/);
    assert.match(itemsProblem('[null]')!, /Item 0 /);
    assert.match(itemsProblem('[[]]')!, /Item 0 /);
  });

  it('names a resource after the last literal segment of its path', () => {
    assert.equal(defaultName('/api/users'), 'users');
    assert.equal(defaultName('/api/orgs/{org}/users/'), 'users');
    assert.equal(defaultName('/api/users/{id}'), undefined);
    assert.equal(defaultName('/'), undefined);
  });
});
