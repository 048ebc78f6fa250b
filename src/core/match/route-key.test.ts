import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isUnderPathPrefix } from './route-key.js';

describe('isUnderPathPrefix: a path prefix is a folder', () => {
  it('holds the path itself and everything below it, never a longer sibling name', () => {
    assert.equal(isUnderPathPrefix('/api/users', '/api/users'), true);
    assert.equal(isUnderPathPrefix('/api/users/{id}', '/api/users'), true);
    assert.equal(isUnderPathPrefix('/api/users/:id/posts', '/api/users'), true);
    assert.equal(isUnderPathPrefix('/api/usersettings', '/api/users'), false);
    assert.equal(isUnderPathPrefix('/api/user', '/api/users'), false);
    assert.equal(isUnderPathPrefix('/api', '/api/users'), false);
    assert.equal(isUnderPathPrefix('/other/api/users', '/api/users'), false);
  });

  it('ignores a trailing slash on either side', () => {
    assert.equal(isUnderPathPrefix('/api/users', '/api/users/'), true);
    assert.equal(isUnderPathPrefix('/api/users/', '/api/users'), true);
    assert.equal(isUnderPathPrefix('/api/users/{id}', '/api/users/'), true);
    assert.equal(isUnderPathPrefix('/api/usersettings', '/api/users/'), false);
  });

  it('treats :id, {id} and {userId} as the same parameter segment', () => {
    assert.equal(isUnderPathPrefix('/api/users/{id}/posts', '/api/users/:id'), true);
    assert.equal(isUnderPathPrefix('/api/users/:id', '/api/users/{userId}'), true);
    assert.equal(isUnderPathPrefix('/api/users/{id}', '/api/users/{id}'), true);
    assert.equal(isUnderPathPrefix('/api/users/me', '/api/users/:id'), false, 'a literal is not a parameter');
    assert.equal(isUnderPathPrefix('/api/users/{id}x', '/api/users/{id}'), false);
  });

  it('the root / holds every path', () => {
    for (const p of ['/', '/health', '/api/users/{id}']) assert.equal(isUnderPathPrefix(p, '/'), true, p);
    assert.equal(isUnderPathPrefix('/health', '//'), true);
  });
});
