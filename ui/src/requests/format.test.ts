import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  dateAndTime,
  filterFromQuery,
  filterToQuery,
  formatDuration,
  headerValue,
  matchesFilter,
  prettyBody,
  queryString,
  timeOfDay,
} from './format';

describe('request log formatting', () => {
  it('pretty-prints a JSON body (by content type or by its look) and leaves other text alone', () => {
    assert.deepEqual(prettyBody('{"a":1,"b":[2]}', 'application/json; charset=utf-8'), {
      text: '{\n  "a": 1,\n  "b": [\n    2\n  ]\n}',
      json: true,
    });
    assert.equal(prettyBody('[1]', undefined).json, true);
    assert.equal(prettyBody('{"x":', 'application/json').text, '{"x":', 'a cut JSON body as stored');
    assert.equal(prettyBody('{"x":', 'application/json').json, false);
    assert.deepEqual(prettyBody('hello', 'text/plain'), { text: 'hello', json: false });
    assert.deepEqual(prettyBody('', 'application/json'), { text: '', json: false });
    assert.deepEqual(prettyBody(null), { text: '', json: false });
    assert.equal(prettyBody('"s"', 'application/problem+json').json, true);
  });

  it('reads the filters from a URL query, ignoring values it does not know, and writes them back', () => {
    assert.deepEqual(
      filterFromQuery(
        new URLSearchParams('method=post&status=4xx&starred=true&path=%2Fusers&violations=true'),
      ),
      {
        method: 'POST',
        status: '4xx',
        starred: true,
        path: '/users',
        violations: true,
      },
    );
    assert.deepEqual(filterFromQuery(new URLSearchParams('method=FETCH&status=6xx&starred=yes')), {
      method: '',
      status: '',
      starred: false,
      path: '',
      violations: false,
    });
    assert.deepEqual(
      filterToQuery({ method: 'GET', status: '', starred: true, path: '', violations: false }),
      {
        method: 'GET',
        status: undefined,
        starred: 'true',
        path: undefined,
        violations: undefined,
      },
    );
    const round = {
      method: 'DELETE',
      status: '5xx' as const,
      starred: false,
      path: '/a b',
      violations: true,
    };
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(filterToQuery(round))) if (v !== undefined) q.set(k, v);
    assert.deepEqual(filterFromQuery(q), round);
  });

  it('matches the filters: method, status class, starred, a text in the path, contract violations', () => {
    const none = { method: '', status: '' as const, starred: false, path: '', violations: false };
    const r = { method: 'post', status: 404, starred: false, path: '/api/users/7' };
    assert.equal(matchesFilter(r, none), true);
    assert.equal(matchesFilter(r, { ...none, method: 'POST', status: '4xx' }), true);
    assert.equal(matchesFilter(r, { ...none, method: 'GET' }), false);
    assert.equal(matchesFilter(r, { ...none, status: '2xx' }), false);
    assert.equal(matchesFilter(r, { ...none, starred: true }), false);
    assert.equal(matchesFilter(r, { ...none, path: 'users/' }), true);
    assert.equal(matchesFilter(r, { ...none, path: 'Users' }), false, 'case-sensitive, as the API');
    assert.equal(matchesFilter({ method: 'GET', status: 599, path: '/' }, { ...none, status: '5xx' }), true);
    // violations: only a record whose live contract check failed (not one unchecked, nor one that passed)
    assert.equal(matchesFilter(r, { ...none, violations: true }), false);
    assert.equal(matchesFilter({ ...r, contract: { ok: true } }, { ...none, violations: true }), false);
    assert.equal(matchesFilter({ ...r, contract: { ok: false } }, { ...none, violations: true }), true);
  });

  it('writes times one way: the row’s time of day, and the detail’s date before the same', () => {
    const local = new Date(2025, 2, 9, 14, 5, 7, 42).toISOString();
    assert.equal(timeOfDay(local), '14:05:07.042');
    assert.equal(dateAndTime(local), '2025-03-09 14:05:07.042');
    assert.ok(dateAndTime(local).endsWith(timeOfDay(local)));
    assert.equal(dateAndTime('not a time'), 'not a time');
  });

  it('finds headers in any case, writes queries and durations', () => {
    assert.equal(headerValue({ 'Content-Type': 'text/html' }, 'content-type'), 'text/html');
    assert.equal(headerValue({}, 'x'), undefined);
    assert.equal(queryString({ a: '1', b: ['2', '3 4'] }), '?a=1&b=2&b=3+4');
    assert.equal(queryString({}), '');
    assert.equal(formatDuration(3.14159), '3.1 ms');
    assert.equal(formatDuration(120.6), '121 ms');
  });
});
