import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { closestRoutes } from './closest.js';
import { compileRoutes, parseSegment, pathTemplateProblem, splitPath, wildcardProblem } from './router.js';

const ep = (method: string, path: string, extra: { enabled?: boolean; id?: string } = {}) => ({
  id: extra.id ?? `${method} ${path}`,
  method,
  path,
  enabled: extra.enabled ?? true,
});

describe('splitPath', () => {
  it('drops the leading and trailing slash, the query and the fragment', () => {
    assert.deepEqual(splitPath('/api/users/'), ['api', 'users']);
    assert.deepEqual(splitPath('/api/users?x=1&y=/2'), ['api', 'users']);
    assert.deepEqual(splitPath('/api/users/?x=1'), ['api', 'users']);
    assert.deepEqual(splitPath('/'), []);
    assert.deepEqual(splitPath('/?a=b'), []);
    assert.deepEqual(splitPath('/a#frag'), ['a']);
  });
});

describe('parseSegment', () => {
  it('reads literal, colon, brace and mixed segments', () => {
    assert.deepEqual(parseSegment('users'), [{ lit: 'users' }]);
    assert.deepEqual(parseSegment(':id'), [{ param: 'id' }]);
    assert.deepEqual(parseSegment('{enterprise-team}'), [{ param: 'enterprise-team' }]);
    assert.deepEqual(parseSegment('{Sid}.json'), [{ param: 'Sid' }, { lit: '.json' }]);
    assert.deepEqual(parseSegment('{base}...{head}'), [{ param: 'base' }, { lit: '...' }, { param: 'head' }]);
  });
});

describe('compileRoutes', () => {
  const routes = compileRoutes([
    ep('GET', '/api/users'),
    ep('GET', '/api/users/:id'),
    ep('GET', '/api/users/me'),
    ep('POST', '/api/users'),
    ep('GET', '/2010-04-01/Accounts/{AccountSid}/Calls/{Sid}.json'),
    ep('GET', '/repos/{owner}/{repo}/compare/{base}...{head}'),
    ep('GET', '/enterprises/{enterprise}/teams/{enterprise-team}'),
    ep('GET', '/orgs/{org}/members'),
    ep('GET', '/orgs/github/settings'),
    ep('DELETE', '/items/{id}', { enabled: false }),
    ep('GET', '/files/{name}'),
    ep('GET', '/files/{name}.json'),
  ]);

  it('matches by method and path, with :id and {id} parameters', () => {
    assert.deepEqual(routes.match('GET', '/api/users/42'), {
      endpoint: ep('GET', '/api/users/:id'),
      params: { id: '42' },
    });
    assert.equal(routes.match('POST', '/api/users')?.endpoint.method, 'POST');
    assert.equal(routes.match('PUT', '/api/users'), undefined);
    assert.equal(routes.match('GET', '/api/users/42/extra'), undefined);
    assert.equal(routes.match('GET', '/api'), undefined);
  });

  it('prefers a literal segment over a parameter', () => {
    assert.equal(routes.match('GET', '/api/users/me')?.endpoint.path, '/api/users/me');
    assert.equal(routes.match('GET', '/api/users/you')?.endpoint.path, '/api/users/:id');
  });

  it('backtracks from a literal branch that dead-ends', () => {
    // /orgs/github/settings is literal, but /orgs/github/members only exists through {org}
    assert.deepEqual(routes.match('GET', '/orgs/github/members')?.params, { org: 'github' });
    assert.equal(routes.match('GET', '/orgs/github/settings')?.endpoint.path, '/orgs/github/settings');
  });

  it('tolerates a trailing slash and a query string', () => {
    assert.equal(routes.match('GET', '/api/users/')?.endpoint.path, '/api/users');
    assert.equal(routes.match('GET', '/api/users?page=2')?.endpoint.path, '/api/users');
    assert.deepEqual(routes.match('GET', '/api/users/7/?x=1')?.params, { id: '7' });
  });

  it('matches OpenAPI templates: suffix, two parameters in a segment, hyphenated names', () => {
    assert.deepEqual(routes.match('GET', '/2010-04-01/Accounts/AC1/Calls/CA9.json')?.params, {
      AccountSid: 'AC1',
      Sid: 'CA9',
    });
    assert.deepEqual(routes.match('GET', '/repos/octo/hello/compare/main...feature/x'), undefined);
    assert.deepEqual(routes.match('GET', '/repos/octo/hello/compare/main...feature')?.params, {
      owner: 'octo',
      repo: 'hello',
      base: 'main',
      head: 'feature',
    });
    assert.deepEqual(routes.match('GET', '/enterprises/acme/teams/blue-team')?.params, {
      enterprise: 'acme',
      'enterprise-team': 'blue-team',
    });
  });

  it('prefers a segment with a fixed suffix over a bare parameter', () => {
    assert.deepEqual(routes.match('GET', '/files/report.json'), {
      endpoint: ep('GET', '/files/{name}.json'),
      params: { name: 'report' },
    });
    assert.deepEqual(routes.match('GET', '/files/report.csv')?.params, { name: 'report.csv' });
  });

  it('decodes parameters and skips disabled endpoints', () => {
    assert.deepEqual(routes.match('GET', '/api/users/a%20b')?.params, { id: 'a b' });
    assert.equal(routes.match('DELETE', '/items/1'), undefined);
    assert.equal(routes.hasMethod('DELETE'), false);
    assert.equal(routes.endpoints.length, 11);
  });

  it('matches non-ASCII and spaced literal segments as clients send them, percent-encoded', () => {
    const r = compileRoutes([ep('GET', '/ü/日本'), ep('GET', '/a b/:id'), ep('GET', '/caf%C3%A9')]);
    assert.equal(r.match('GET', '/%C3%BC/%E6%97%A5%E6%9C%AC')?.endpoint.path, '/ü/日本');
    assert.equal(r.match('GET', '/ü/日本')?.endpoint.path, '/ü/日本');
    assert.deepEqual(r.match('GET', '/a%20b/x%2Fy')?.params, { id: 'x/y' });
    assert.equal(r.match('GET', '/café')?.endpoint.path, '/caf%C3%A9');
    assert.equal(r.match('GET', '/caf%C3%A9')?.endpoint.path, '/caf%C3%A9');
    assert.equal(r.match('GET', '/%E6%97%A5'), undefined);
    const mixed = compileRoutes([ep('GET', '/files/{name}.日本'), ep('GET', '/t/{id}-ü')]);
    assert.deepEqual(mixed.match('GET', '/files/a%20b.%E6%97%A5%E6%9C%AC')?.params, { name: 'a b' });
    assert.deepEqual(mixed.match('GET', '/t/7-%C3%BC')?.params, { id: '7' });
    assert.deepEqual(mixed.match('GET', '/t/7-ü')?.params, { id: '7' });
  });

  it('keeps each endpoint\u2019s own parameter names where slots are shared', () => {
    const r = compileRoutes([
      ep('GET', '/u/{userId}'),
      ep('PUT', '/u/:id'),
      ep('GET', '/u/{userId}/posts/{postId}'),
    ]);
    assert.deepEqual(r.match('GET', '/u/1')?.params, { userId: '1' });
    assert.deepEqual(r.match('PUT', '/u/1')?.params, { id: '1' });
    assert.deepEqual(r.match('GET', '/u/1/posts/2')?.params, { userId: '1', postId: '2' });
  });

  it('lets the first of two endpoints on one route win', () => {
    const r = compileRoutes([ep('GET', '/a/:x', { id: 'first' }), ep('GET', '/a/{y}', { id: 'second' })]);
    assert.equal(r.match('GET', '/a/1')?.endpoint.id, 'first');
  });

  it('matches the root path', () => {
    const r = compileRoutes([ep('GET', '/')]);
    assert.ok(r.match('GET', '/'));
    assert.ok(r.match('GET', '/?q=1'));
    assert.equal(r.match('GET', '/x'), undefined);
  });

  it('does not scan: 1,000 endpoints give the same matches as a handful', () => {
    const many = [ep('GET', '/api/users/:id')];
    for (let i = 0; i < 1000; i++) many.push(ep('GET', `/api/r${i}/items/{id}`), ep('POST', `/api/r${i}`));
    const big = compileRoutes(many);
    assert.deepEqual(big.match('GET', '/api/users/42')?.params, { id: '42' });
    assert.deepEqual(big.match('GET', '/api/r999/items/5')?.endpoint.path, '/api/r999/items/{id}');
  });
});

describe('closestRoutes', () => {
  it('ranks same-method, similar paths first', () => {
    const eps = [
      ep('GET', '/health'),
      ep('GET', '/api/users/:id'),
      ep('POST', '/api/users'),
      ep('GET', '/api/users'),
    ];
    const closest = closestRoutes(eps, 'GET', '/api/user', 3).map((e) => `${e.method} ${e.path}`);
    assert.equal(closest[0], 'GET /api/users');
    assert.ok(closest.includes('POST /api/users'));
    assert.ok(!closest.includes('GET /health'));
    assert.equal(closestRoutes(eps, 'GET', '/api/users/1/x', 1)[0]!.path, '/api/users/:id');
    assert.deepEqual(closestRoutes([], 'GET', '/x'), []);
  });
});

describe('wildcard routes (proxy endpoints)', () => {
  const routes = compileRoutes([
    ep('GET', '/api/*'),
    ep('GET', '/api/users/:id'),
    ep('GET', '/api/health'),
    ep('GET', '/files/{name}/*'),
  ]);

  it('takes every deeper path, the rest captured as "*"', () => {
    assert.deepEqual(routes.match('GET', '/api/orders/7/items?x=1'), {
      endpoint: ep('GET', '/api/*'),
      params: { '*': 'orders/7/items' },
    });
    assert.deepEqual(routes.match('GET', '/api')?.params, { '*': '' });
    assert.deepEqual(routes.match('GET', '/api/')?.params, { '*': '' });
    assert.deepEqual(routes.match('GET', '/files/a/b/c')?.params, { name: 'a', '*': 'b/c' });
  });

  it('loses to a literal or parameter route, and catches what they leave', () => {
    assert.equal(routes.match('GET', '/api/health')?.endpoint.path, '/api/health');
    assert.equal(routes.match('GET', '/api/users/3')?.endpoint.path, '/api/users/:id');
    // /api/users/3/x dead-ends under the parameter route and falls back to the wildcard.
    assert.deepEqual(routes.match('GET', '/api/users/3/x'), {
      endpoint: ep('GET', '/api/*'),
      params: { '*': 'users/3/x' },
    });
    assert.equal(routes.match('GET', '/other'), undefined);
    assert.equal(routes.match('POST', '/api/x'), undefined);
  });
});

describe('pathTemplateProblem and wildcardProblem', () => {
  it('allows "*" only as a final segment, and only for proxy endpoints', () => {
    assert.equal(pathTemplateProblem('/api/*'), undefined);
    assert.match(pathTemplateProblem('/api/*/x') ?? '', /wildcards are not supported/);
    assert.match(pathTemplateProblem('/a*b/*') ?? '', /only as its last segment/);
    assert.equal(wildcardProblem('proxy', '/api/*'), undefined);
    assert.match(wildcardProblem('mock', '/api/*') ?? '', /wildcards are not supported/);
    assert.equal(wildcardProblem('mock', '/api/:id'), undefined);
  });
});

describe('segments with several parameters', () => {
  it('match in linear time, capturing as before', () => {
    const routes = compileRoutes([ep('GET', '/c/{a}-{b}-{c}x'), ep('GET', '/d/{base}...{head}')]);
    assert.deepEqual(routes.match('GET', '/c/1-2-3-4x')?.params, { a: '1', b: '2', c: '3-4' });
    assert.deepEqual(routes.match('GET', '/d/main...feature...x')?.params, {
      base: 'main',
      head: 'feature...x',
    });
    // A backtracking engine tries every pair of splits of `a-a-a-…`: minutes at this length.
    const started = Date.now();
    assert.equal(routes.match('GET', `/c/${'a-'.repeat(4000)}`), undefined);
    assert.ok(Date.now() - started < 5_000, `took ${Date.now() - started} ms`);
  });
});
