import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { endpointKey, routeKey } from './match/route-key.js';
import { NAME_MAX, suggestEndpointName, uniqueName } from './naming.js';
import { newId, ID_PATTERN } from './ids.js';

describe('suggestEndpointName', () => {
  for (const [method, path, name] of [
    ['GET', '/api/v1/users/42', 'get-users-by-id'],
    ['POST', '/api/users', 'post-users'],
    ['GET', '/users/:userId', 'get-users-by-user-id'],
    ['GET', '/orgs/{org}/repos', 'get-orgs-by-org-repos'],
    ['GET', '/', 'get-root'],
    ['DELETE', '/items/3f2b8c1e-1a2b-4c3d-9e8f-0a1b2c3d4e5f', 'delete-items-by-id'],
    ['GET', '/Calls/{Sid}.json', 'get-calls-sid-json'],
    ['GET', '/api/*', 'get-all'],
    ['POST', '/api/users/*', 'post-users-all'],
    ['GET', '/ü/日本', 'get-ü-日本'],
    ['GET', '/caf%C3%A9/menü', 'get-café-menü'],
    ['GET', '/bad%zz', 'get-bad-zz'],
  ] as const) {
    it(`${method} ${path} -> ${name}`, () => assert.equal(suggestEndpointName(method, path), name));
  }
});

describe('uniqueName', () => {
  it('adds the first free numeric suffix, case-insensitively', () => {
    assert.equal(uniqueName('a', []), 'a');
    assert.equal(uniqueName('a', ['A', 'a-2']), 'a-3');
  });

  it('keeps generated and suffixed names within the 200 characters a name may have', () => {
    const long = suggestEndpointName('GET', `/${'p'.repeat(5000)}`);
    assert.equal(long.length, NAME_MAX);
    assert.equal(suggestEndpointName('GET', `/${'p'.repeat(195)}/x`), `get-${'p'.repeat(195)}`);
    const full = 'n'.repeat(NAME_MAX);
    assert.equal(uniqueName(full, [full]), `${'n'.repeat(NAME_MAX - 2)}-2`);
    const emoji = `${'n'.repeat(NAME_MAX - 3)}😀`; // the cut would split the emoji: it goes whole
    assert.equal(uniqueName(emoji, [emoji]), `${'n'.repeat(NAME_MAX - 3)}-2`);
  });
});

describe('routeKey', () => {
  it('treats :id, {id} and {other} as one slot and ignores a trailing slash', () => {
    assert.equal(routeKey('/users/:id/'), '/users/{}');
    assert.equal(routeKey('/users/{userId}'), '/users/{}');
    assert.equal(routeKey('/compare/{base}...{head}'), '/compare/{}...{}');
    assert.equal(routeKey('/'), '/');
    assert.notEqual(endpointKey('GET', '/a'), endpointKey('POST', '/a'));
  });
});

describe('newId', () => {
  it('never starts with "-" and stays URL-safe', () => {
    for (let i = 0; i < 2000; i++) assert.match(newId(), ID_PATTERN);
    assert.equal(new Set(Array.from({ length: 1000 }, () => newId())).size, 1000);
  });
});
