import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { convert, messages, only } from '../../../test/helpers/wiremock.js';
import { jsonPathKey } from './matchers.js';
import { regexLiteral } from './request.js';

const ok = { status: 200, body: 'ok' };

describe('WireMock import: request URL and method', () => {
  it('url, urlPath and urlPathTemplate give the path; url query parameters become equals rules', () => {
    assert.equal(only({ request: { method: 'GET', urlPath: '/users' }, response: ok }).path, '/users');
    const tpl = only({ request: { method: 'GET', urlPathTemplate: '/users/{id}' }, response: ok });
    assert.equal(tpl.path, '/users/{id}');
    const withQuery = convert([{ request: { method: 'GET', url: '/search?q=a%20b&page=2' }, response: ok }]);
    const e = withQuery.endpoints[0]!;
    assert.equal(e.path, '/search');
    // A mapping with conditions is a variation; the endpoint answers WireMock's 404 otherwise.
    assert.equal(e.status, 404);
    assert.deepEqual(e.variations![0]!.rules, [
      { source: 'query', key: 'q', op: 'equals', value: 'a b' },
      { source: 'query', key: 'page', op: 'equals', value: '2' },
    ]);
  });

  it('a urlPattern that is a literal is that path, approximate', () => {
    const r = convert([{ request: { method: 'GET', urlPattern: '^/api/v1\\.json$' }, response: ok }]);
    assert.equal(r.endpoints[0]!.path, '/api/v1.json');
    assert.match(
      messages(r.approximate),
      /urlPattern "\^\/api\/v1\\\\.json\$" is read as the path "\/api\/v1.json"/,
    );
  });

  it('a prefix pattern becomes a one-segment parameter on a mock, a wildcard on a proxy', () => {
    const mock = convert([{ request: { method: 'GET', urlPathPattern: '/files/.*' }, response: ok }]);
    assert.equal(mock.endpoints[0]!.path, '/files/{path}');
    assert.match(messages(mock.approximate), /one more path segment only/);
    const proxy = convert([
      {
        request: { method: 'GET', urlPattern: '/api/.*' },
        response: { proxyBaseUrl: 'https://up.example.com/' },
      },
    ]);
    assert.equal(proxy.endpoints[0]!.path, '/api/*');
    assert.equal(proxy.endpoints[0]!.kind, 'proxy');
    // The wildcard endpoint sends the rest after /api: the target keeps /api so the upstream gets the whole path.
    assert.deepEqual(proxy.endpoints[0]!.proxy, { target: 'https://up.example.com/api', record: false });
  });

  it('a regex that is more than a literal or a prefix is skipped, naming the field', () => {
    const r = convert([{ request: { method: 'GET', urlPattern: '/users/[0-9]+' }, response: ok }]);
    assert.equal(r.endpoints.length, 0);
    assert.match(messages(r.skipped), /urlPattern "\/users\/\[0-9\]\+" is a regular expression/);
    assert.equal(r.skipped[0]!.path, '/users/[0-9]+');
  });

  it('a mock mapping with no URL (every path) is skipped; a proxy one becomes /*', () => {
    const mock = convert([{ request: { method: 'GET' }, response: ok }]);
    assert.equal(mock.endpoints.length, 0);
    assert.match(messages(mock.skipped), /matches every path/);
    const proxy = convert([
      { request: { method: 'ANY', urlPattern: '.*' }, response: { proxyBaseUrl: 'http://localhost:9' } },
    ]);
    assert.deepEqual(
      proxy.endpoints.map((e) => `${e.method} ${e.path} ${e.proxy?.target}`),
      [
        'GET /* http://localhost:9',
        'POST /* http://localhost:9',
        'PUT /* http://localhost:9',
        'PATCH /* http://localhost:9',
        'DELETE /* http://localhost:9',
      ],
    );
  });

  it('ANY (or no method) is made for GET, POST, PUT, PATCH and DELETE, reported once', () => {
    const r = convert([{ name: 'Health', request: { urlPath: '/health' }, response: ok }]);
    assert.deepEqual(
      r.endpoints.map((e) => `${e.method} ${e.name}`),
      [
        'GET Health (GET)',
        'POST Health (POST)',
        'PUT Health (PUT)',
        'PATCH Health (PATCH)',
        'DELETE Health (DELETE)',
      ],
    );
    assert.equal(r.approximate.filter((n) => /method ANY/.test(n.message)).length, 1);
  });

  it('an unknown method is skipped', () => {
    const r = convert([{ request: { method: 'PROPFIND', urlPath: '/x' }, response: ok }]);
    assert.equal(r.endpoints.length, 0);
    assert.match(messages(r.skipped), /request.method "PROPFIND" is not one of/);
  });

  it('regexLiteral and jsonPathKey read only plain texts', () => {
    assert.equal(regexLiteral('/a\\.b\\/c'), '/a.b/c');
    assert.equal(regexLiteral('/a\\d'), undefined);
    assert.equal(regexLiteral('/a|b'), undefined);
    assert.equal(jsonPathKey('$.user.id'), 'user.id');
    assert.equal(jsonPathKey("$.items[0]['name']"), 'items.0.name');
    assert.equal(jsonPathKey('$.items[?(@.id == 1)]'), undefined);
  });
});

describe('WireMock import: request matchers as variation rules', () => {
  const rulesOf = (request: Record<string, unknown>) => {
    const r = convert([{ request: { method: 'POST', urlPath: '/m', ...request }, response: ok }]);
    return { rules: r.endpoints[0]!.variations?.[0]?.rules ?? [], approximate: messages(r.approximate) };
  };

  it('equalTo, matches (whole value), contains and absent:false on query, header and path parameters', () => {
    const { rules, approximate } = rulesOf({
      queryParameters: { page: { equalTo: '2' }, sort: { matches: 'name|date' } },
      headers: { 'X-Role': { contains: 'adm.n' }, Accept: { equalTo: 'TEXT', caseInsensitive: true } },
      pathParameters: { id: { absent: false } },
    });
    assert.deepEqual(rules, [
      { source: 'query', key: 'page', op: 'equals', value: '2' },
      { source: 'query', key: 'sort', op: 'regex', value: '^(?:name|date)$' },
      { source: 'header', key: 'X-Role', op: 'regex', value: 'adm\\.n' },
      { source: 'header', key: 'Accept', op: 'regex', value: '(?i)^TEXT$' },
      { source: 'param', key: 'id', op: 'exists' },
    ]);
    assert.equal(approximate, '');
  });

  it('absent, doesNotMatch, cookies and basic auth are reported approximate, naming them', () => {
    const { rules, approximate } = rulesOf({
      queryParameters: { debug: { absent: true }, q: { equalTo: 'x' } },
      headers: { 'X-A': { doesNotMatch: 'a' } },
      cookies: { session: { equalTo: '1' } },
      basicAuthCredentials: { username: 'u', password: 'p' },
    });
    assert.deepEqual(rules, [{ source: 'query', key: 'q', op: 'equals', value: 'x' }]);
    assert.match(approximate, /queryParameters "debug": "absent" is not supported/);
    assert.match(approximate, /headers "X-A": the matcher "doesNotMatch" is not supported/);
    assert.match(approximate, /cookies are not supported/);
    assert.match(approximate, /basicAuthCredentials are not supported/);
  });

  it('a header name no request can carry is reported, not kept', () => {
    const { rules, approximate } = rulesOf({ headers: { 'X A': { equalTo: '1' } } });
    assert.deepEqual(rules, []);
    assert.match(approximate, /headers "X A": "X A" is not a header name/);
  });

  it('a matches pattern the linear-time engine refuses is reported, not kept', () => {
    const { rules, approximate } = rulesOf({ headers: { 'X-A': { matches: '(a)\\1' } } });
    assert.deepEqual(rules, []);
    assert.match(approximate, /headers "X-A": the pattern cannot be used/);
  });

  it('bodyPatterns: equalToJson field by field (approximate), matchesJsonPath plain paths, whole-body matchers reported', () => {
    const { rules, approximate } = rulesOf({
      bodyPatterns: [
        { equalToJson: { user: { id: 7, name: 'Ada' }, tags: ['a'] } },
        { matchesJsonPath: '$.token' },
        { matchesJsonPath: { expression: '$.kind', equalTo: 'x' } },
        { matchesJsonPath: '$.items[?(@.id)]' },
        { contains: 'hello' },
      ],
    });
    assert.deepEqual(rules, [
      { source: 'body', key: 'user.id', op: 'equals', value: '7' },
      { source: 'body', key: 'user.name', op: 'equals', value: 'Ada' },
      { source: 'body', key: 'tags.0', op: 'equals', value: 'a' },
      { source: 'body', key: 'token', op: 'exists' },
      { source: 'body', key: 'kind', op: 'equals', value: 'x' },
    ]);
    assert.match(approximate, /equalToJson: compared field by field/);
    assert.match(approximate, /matchesJsonPath "\$\.items\[\?\(@\.id\)\]": only plain paths/);
    assert.match(
      approximate,
      /bodyPatterns contains: a rule reads JSON fields of the body, not the whole body/,
    );
  });

  it('equalToJson given as a string is read; one that is not JSON is reported', () => {
    assert.deepEqual(rulesOf({ bodyPatterns: [{ equalToJson: '{"a":true}' }] }).rules, [
      { source: 'body', key: 'a', op: 'equals', value: 'true' },
    ]);
    assert.match(
      rulesOf({ bodyPatterns: [{ equalToJson: '{nope' }] }).approximate,
      /the JSON cannot be read/,
    );
  });
});
