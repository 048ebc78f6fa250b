import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MockdevError } from '../errors.js';
import {
  countIds,
  createItem,
  deleteItem,
  itemBody,
  listItems,
  mergePatch,
  nextId,
  NO_BODY,
  patchItem,
  replaceItem,
  withIds,
} from './crud.js';

const code = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    if (e instanceof MockdevError) return e.code;
    throw e;
  }
  return 'none';
};

describe('resource CRUD rules', () => {
  it('JSON merge patch follows RFC 7396 (its appendix examples)', () => {
    const cases: [unknown, unknown, unknown][] = [
      [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
      [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
      [{ a: 'b' }, { a: null }, {}],
      [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
      [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
      [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
      [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
      [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
      [
        ['a', 'b'],
        ['c', 'd'],
        ['c', 'd'],
      ],
      [{ a: 'b' }, ['c'], ['c']],
      [{ a: 'foo' }, null, null],
      [{ a: 'foo' }, 'bar', 'bar'],
      [{ e: null }, { a: 1 }, { e: null, a: 1 }],
      [[1, 2], { a: 'b', c: null }, { a: 'b' }],
      [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
    ];
    for (const [target, patch, result] of cases) assert.deepEqual(mergePatch(target, patch), result);
    const target = { a: { b: 1 } };
    mergePatch(target, { a: { b: 2 } });
    assert.deepEqual(target, { a: { b: 1 } }, 'the target is untouched');
    const polluted = mergePatch({}, JSON.parse('{"__proto__":{"x":1}}')) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(polluted), Object.prototype);
    assert.deepEqual(Object.keys(polluted), ['__proto__']);
  });

  it('ids: the next integer after the largest numeric one, as text when ids are texts; a UUID otherwise', () => {
    assert.equal(nextId([], 'id'), 1);
    assert.equal(nextId([{ id: 3 }, { id: 10 }, { id: 2 }], 'id'), 11);
    assert.equal(nextId([{ id: '4' }, { id: '9' }], 'id'), '10');
    assert.match(String(nextId([{ id: 1 }, { id: 'ada' }], 'id')), /^[0-9a-f-]{36}$/);
    assert.deepEqual(withIds([{ id: 5 }, { name: 'x' }, { name: 'y' }], 'id'), [
      { id: 5 },
      { name: 'x', id: 6 },
      { name: 'y', id: 7 },
    ]);
  });

  it('a kept counter gives the same ids as counting again: given ids count, a text id turns to UUIDs', () => {
    const items: Record<string, unknown>[] = [{ id: 2 }];
    const counter = countIds(items, 'id');
    assert.equal(createItem(items, 'id', {}, {}, counter).id, 3);
    assert.equal(createItem(items, 'id', {}, { id: 10 }, counter).id, 10);
    assert.equal(createItem(items, 'id', {}, {}, counter).id, 11);
    assert.equal(nextId(items, 'id'), nextId(items, 'id', counter));
    createItem(items, 'id', {}, { id: 'ada' }, counter);
    assert.match(String(createItem(items, 'id', {}, {}, counter).id), /^[0-9a-f-]{36}$/);
  });

  it('create keeps a free id, refuses a taken one (409), and puts the scope on the item', () => {
    const items = [{ id: 1, org: 'a' }];
    assert.deepEqual(createItem(items, 'id', { org: 'b' }, { id: 1, name: 'x' }), {
      id: 1,
      name: 'x',
      org: 'b',
    });
    assert.equal(
      code(() => createItem(items, 'id', { org: 'a' }, { id: '1' })),
      'CONFLICT',
    );
    assert.equal(
      code(() => createItem(items, 'id', {}, { id: { x: 1 } })),
      'MALFORMED_REQUEST',
    );
    assert.deepEqual(createItem(items, 'id', { org: 'a' }, { org: 'z' }), { id: 2, org: 'a' });
  });

  it('replace and patch keep the id of the path; unknown ids are 404; delete removes', () => {
    const items = [{ id: 7, name: 'a', tags: { x: 1 } }];
    assert.deepEqual(replaceItem(items, 'id', {}, '7', { id: 99, name: 'b' }), { id: 7, name: 'b' });
    assert.deepEqual(patchItem(items, 'id', {}, '7', { id: 5, age: 3, name: null }), { id: 7, age: 3 });
    assert.equal(
      code(() => patchItem(items, 'id', {}, '8', {})),
      'NOT_FOUND',
    );
    assert.equal(
      code(() => replaceItem(items, 'id', {}, '8', {})),
      'NOT_FOUND',
    );
    deleteItem(items, 'id', {}, '7');
    assert.deepEqual(items, []);
    assert.equal(
      code(() => deleteItem(items, 'id', {}, '7')),
      'NOT_FOUND',
    );
  });

  it('lists filter by top-level fields as text, page by limit and offset, and refuse bad paging', () => {
    const items = [
      { id: 1, role: 'admin', active: true },
      { id: 2, role: 'user', active: false },
      { id: 3, role: 'admin', active: false },
      { id: 4, role: 'admin', active: true },
    ];
    assert.deepEqual(listItems(items, {}, { role: 'admin', active: 'true' }).items, [items[0], items[3]]);
    const page = listItems(items, {}, { role: 'admin', limit: '1', offset: '1' });
    assert.deepEqual([page.total, page.items], [3, [items[2]]]);
    assert.equal(listItems(items, {}, { limit: '0' }).items.length, 0);
    for (const bad of ['-1', 'x', '1.5', ''])
      assert.equal(
        code(() => listItems(items, {}, { limit: bad })),
        'MALFORMED_REQUEST',
        bad,
      );
    assert.equal(
      code(() => listItems(items, {}, { offset: 'abc' })),
      'MALFORMED_REQUEST',
    );
  });

  it('a body that is not a JSON object is refused saying what it is', () => {
    assert.throws(() => itemBody([1], 'POST /u'), /must be a JSON object.*it is an array/);
    assert.throws(() => itemBody(NO_BODY, 'POST /u'), /missing or not JSON/);
    assert.throws(() => itemBody('x', 'POST /u'), /it is a string/);
    assert.deepEqual(itemBody({ a: 1 }, 'POST /u'), { a: 1 });
  });
});
