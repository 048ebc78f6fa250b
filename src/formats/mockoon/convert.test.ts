import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MockdevError } from '../../core/errors.js';
import { mockoonEnvironment, mockoonResponse, mockoonRoute, rule } from '../../../test/helpers/mockoon.js';
import { convertMockoon, recognizeMockoon } from './index.js';

const notes = (list: { message: string }[]) => list.map((n) => n.message).join('\n');

describe('Mockoon import: recognition', () => {
  it('knows an environment, an older export, and says why it cannot read one', () => {
    assert.deepEqual(recognizeMockoon(mockoonEnvironment([])), { looksLike: true });
    const legacy = {
      source: 'mockoon:1.17.0',
      data: [{ type: 'environment', item: mockoonEnvironment([]) }],
    };
    assert.deepEqual(recognizeMockoon(legacy), { looksLike: true });
    assert.deepEqual(recognizeMockoon({ log: { entries: [] } }), { looksLike: false });
    assert.deepEqual(recognizeMockoon({ info: {}, item: [] }), { looksLike: false });
    assert.deepEqual(recognizeMockoon({ lastMigration: 33, routes: {} }), {
      looksLike: true,
      problem: 'routes is not a list',
    });
    assert.equal(
      recognizeMockoon({ source: 'mockoon:1.9.0', data: [] }).problem,
      'data holds no environment (type "environment")',
    );
  });

  it('refuses a document it cannot read: INVALID_INPUT, one line naming the field', () => {
    assert.throws(
      () => convertMockoon({ lastMigration: 33, routes: 'x' }),
      (e: unknown) =>
        e instanceof MockdevError &&
        e.code === 'INVALID_INPUT' &&
        /routes is not a list/.test(e.message) &&
        !e.message.includes('\n'),
    );
    assert.throws(
      () => convertMockoon([1, 2]),
      (e: unknown) => e instanceof MockdevError && e.code === 'INVALID_INPUT',
    );
  });
});

describe('Mockoon import: routes', () => {
  it("takes the name, port, prefix, :params, environment headers under the route's, latency and disabled routes", () => {
    const env = mockoonEnvironment(
      [
        mockoonRoute({
          endpoint: 'users/:id',
          documentation: 'Get user',
          responses: [
            mockoonResponse({
              default: true,
              statusCode: 201,
              latency: 40,
              body: '{"id":"{{urlParam \'id\'}}"}',
              headers: [
                { key: 'X-Route', value: 'r' },
                { key: 'X-Env', value: 'route wins' },
              ],
            }),
          ],
        }),
        { ...mockoonRoute({ method: 'post', endpoint: 'off' }), enabled: false },
      ],
      {
        endpointPrefix: 'api/v1',
        latency: 10,
        port: 4010,
        headers: [
          { key: 'X-Env', value: 'env' },
          { key: 'Content-Type', value: 'application/json' },
        ],
      },
    );
    const out = convertMockoon(env);
    assert.equal(out.title, 'Demo API');
    assert.equal(out.port, 4010);
    assert.equal(out.templates, true);
    const [get, off] = out.endpoints;
    assert.equal(get!.name, 'Get user');
    assert.equal(get!.path, '/api/v1/users/{id}');
    assert.equal(get!.status, 201);
    assert.equal(get!.delay, 50);
    assert.equal(get!.contentType, 'application/json');
    assert.deepEqual(get!.headers, { 'X-Env': 'route wins', 'X-Route': 'r' });
    assert.equal(get!.templating, undefined);
    assert.equal(off!.enabled, false);
    assert.equal(off!.path, '/api/v1/off');
  });

  it('orders routes by rootChildren and folders, keeps the first of two with the same method and path', () => {
    const a = mockoonRoute({ endpoint: 'a' });
    const b = mockoonRoute({ endpoint: 'b' });
    const dup = mockoonRoute({ endpoint: 'a', documentation: 'second a' });
    const env = mockoonEnvironment([a, b, dup], {
      folders: [{ uuid: 'f1', name: 'F', children: [{ type: 'route', uuid: b.uuid }] }],
      rootChildren: [
        { type: 'folder', uuid: 'f1' },
        { type: 'route', uuid: a.uuid },
        { type: 'route', uuid: dup.uuid },
      ],
    });
    const out = convertMockoon(env);
    assert.deepEqual(
      out.endpoints.map((e) => e.path),
      ['/b', '/a'],
    );
    assert.match(notes(out.skipped), /GET \/a: an earlier route answers it/);
  });

  it('method all becomes one endpoint per method; ws routes, file bodies and bad paths are skipped', () => {
    const env = mockoonEnvironment([
      mockoonRoute({ method: 'all', endpoint: 'any' }),
      mockoonRoute({ type: 'ws', endpoint: 'socket' }),
      mockoonRoute({
        endpoint: 'file',
        responses: [mockoonResponse({ bodyType: 'FILE', filePath: './x.json' })],
      }),
      mockoonRoute({ endpoint: 'bad path' }),
    ]);
    const out = convertMockoon(env);
    assert.deepEqual(
      out.endpoints.map((e) => `${e.method} ${e.path}`),
      ['GET /any', 'POST /any', 'PUT /any', 'PATCH /any', 'DELETE /any'],
    );
    assert.match(notes(out.approximate), /method "all" became GET, POST, PUT, PATCH, DELETE/);
    const skipped = notes(out.skipped);
    assert.match(skipped, /WebSocket routes are not imported/);
    assert.match(skipped, /its body is the file ".\/x.json"/);
    assert.match(skipped, /GET \/bad path: path must not contain spaces/);
  });

  it('no Content-Type anywhere: text/html, as Express sends; disableTemplating: templating off', () => {
    const env = mockoonEnvironment(
      [mockoonRoute({ responses: [mockoonResponse({ body: '{{x}}', disableTemplating: true })] })],
      { headers: [] },
    );
    const [e] = convertMockoon(env).endpoints;
    assert.equal(e!.contentType, 'text/html; charset=utf-8');
    assert.equal(e!.templating, false);
  });

  it('names a helper mockdev lacks in an approximate note and sends that template as written', () => {
    const env = mockoonEnvironment([
      mockoonRoute({ responses: [mockoonResponse({ body: '{{noSuchHelper 1}}' })] }),
    ]);
    const out = convertMockoon(env);
    assert.equal(out.endpoints[0]!.templating, false);
    assert.match(notes(out.approximate), /Unknown helper "noSuchHelper"/);
  });
});

describe('Mockoon import: responses, modes and rules', () => {
  const two = (fields: Record<string, unknown>, second: Record<string, unknown> = {}) =>
    mockoonEnvironment([
      mockoonRoute({
        endpoint: 'r',
        ...fields,
        responses: [
          mockoonResponse({ label: 'first', statusCode: 200 }),
          mockoonResponse({ label: 'Main', default: true, statusCode: 202 }),
          mockoonResponse({ label: 'third', statusCode: 404, ...second }),
        ],
      }),
    ]);

  it('the default response answers; others are variations named by label', () => {
    const [e] = convertMockoon(two({})).endpoints;
    assert.equal(e!.status, 202);
    assert.deepEqual(
      e!.variations!.map((v) => [v.name, v.status, v.rules]),
      [
        ['first', 200, undefined],
        ['third', 404, undefined],
      ],
    );
    assert.equal(e!.mode, undefined);
  });

  it('SEQUENTIAL and RANDOM keep Mockoon order (the first response first); old flags read too', () => {
    const [seq] = convertMockoon(two({ responseMode: 'SEQUENTIAL' })).endpoints;
    assert.equal(seq!.mode, 'sequential');
    assert.equal(seq!.status, 200);
    assert.deepEqual(
      seq!.variations!.map((v) => v.name),
      ['Main', 'third'],
    );
    const [rnd] = convertMockoon(two({ responseMode: 'RANDOM' })).endpoints;
    assert.equal(rnd!.mode, 'random');
    const [old] = convertMockoon(two({ responseMode: undefined, sequentialResponse: true })).endpoints;
    assert.equal(old!.mode, 'sequential');
  });

  it("AND rules become one variation's rules; OR rules one variation per rule; operators translated", () => {
    const env = mockoonEnvironment([
      mockoonRoute({
        endpoint: 'r',
        responses: [
          mockoonResponse({ default: true }),
          mockoonResponse({
            label: 'admin',
            rulesOperator: 'AND',
            rules: [
              rule('header', 'X-Role', 'equals', 'admin'),
              rule('query', 'filter.name', 'regex_i', '^bo'),
              rule('params', 'id', 'regex', '^\\d+$'),
            ],
          }),
          mockoonResponse({
            label: 'either',
            rulesOperator: 'OR',
            rules: [
              rule('body', 'user.tags', 'empty_array'),
              rule('cookie', 'session', 'equals', 'a.b'),
              rule('query', 'q', 'null', '', true),
            ],
          }),
        ],
      }),
    ]);
    const [e] = convertMockoon(env).endpoints;
    const v = e!.variations!;
    assert.deepEqual(
      v.map((x) => x.name),
      ['admin', 'either', 'either-2', 'either-3'],
    );
    assert.deepEqual(v[0]!.rules, [
      { source: 'header', key: 'X-Role', op: 'equals', value: 'admin' },
      { source: 'query', key: 'filter[name]', op: 'regex', value: '(?i)^bo' },
      { source: 'param', key: 'id', op: 'regex', value: '^\\d+$' },
    ]);
    assert.deepEqual(v[1]!.rules, [{ source: 'body', key: 'user.tags', op: 'equals', value: '[]' }]);
    assert.deepEqual(v[2]!.rules, [
      { source: 'header', key: 'cookie', op: 'regex', value: '(?:^|;\\s*)session=a\\.b(?:;|$)' },
    ]);
    assert.deepEqual(v[3]!.rules, [{ source: 'query', key: 'q', op: 'regex', value: '.' }]);
  });

  it('a rule ours cannot say is reported: AND leaves the response without rules, OR drops that rule only', () => {
    const env = mockoonEnvironment([
      mockoonRoute({
        endpoint: 'r',
        responses: [
          mockoonResponse({ default: true }),
          mockoonResponse({
            label: 'and',
            rulesOperator: 'AND',
            rules: [rule('header', 'x', 'equals', '1'), rule('request_number', '', 'equals', '2')],
          }),
          mockoonResponse({
            label: 'or',
            rulesOperator: 'OR',
            rules: [rule('method', '', 'equals', 'get'), rule('query', 'a', 'equals', '1')],
          }),
          mockoonResponse({ label: 'inv', rules: [rule('query', 'a', 'equals', '1', true)] }),
          mockoonResponse({ label: 'slow', rules: [rule('query', 'a', 'regex', '(a)\\1')] }),
        ],
      }),
    ]);
    const out = convertMockoon(env);
    const v = out.endpoints[0]!.variations!;
    assert.equal(v.find((x) => x.name === 'and')!.rules, undefined);
    assert.deepEqual(v.find((x) => x.name === 'or')!.rules, [
      { source: 'query', key: 'a', op: 'equals', value: '1' },
    ]);
    assert.equal(v.find((x) => x.name === 'inv')!.rules, undefined);
    assert.equal(v.find((x) => x.name === 'slow')!.rules, undefined);
    const text = notes(out.approximate);
    assert.match(
      text,
      /response "and": rule "request_number equals "2"" cannot be said here \(the request_number target\); the response is not chosen by rules/,
    );
    assert.match(
      text,
      /response "or": rule "method equals "get"" cannot be said here \(the method target\); the response answers for its other rules/,
    );
    assert.match(text, /rule "not query a equals "1"" cannot be said here \(an inverted rule\)/);
    assert.match(text, /response "slow": rule "query a regex/);
  });

  it('a default response with rules is also a variation in its place; DISABLE_RULES drops rules; FALLBACK is approximate', () => {
    const routeWith = (responseMode: string | null) =>
      mockoonEnvironment([
        mockoonRoute({
          endpoint: 'r',
          responseMode,
          responses: [
            mockoonResponse({ label: 'main', default: true, rules: [rule('query', 'a', 'equals', '1')] }),
            mockoonResponse({ label: 'other', rules: [rule('query', 'b', 'equals', '1')] }),
          ],
        }),
      ]);
    const [rules] = convertMockoon(routeWith(null)).endpoints;
    assert.deepEqual(
      rules!.variations!.map((v) => [v.name, v.rules?.[0]?.key]),
      [
        ['main', 'a'],
        ['other', 'b'],
      ],
    );
    const [off] = convertMockoon(routeWith('DISABLE_RULES')).endpoints;
    assert.deepEqual(
      off!.variations!.map((v) => [v.name, v.rules]),
      [['other', undefined]],
    );
    assert.match(notes(convertMockoon(routeWith('FALLBACK')).approximate), /responseMode FALLBACK/);
  });

  it('older shapes: a route holding its response, statusCode as text, isRegex, enabled', () => {
    const env = {
      uuid: 'e',
      lastMigration: 5,
      name: 'Old',
      endpointPrefix: '',
      port: 3000,
      routes: [
        {
          uuid: 'r',
          method: 'get',
          endpoint: 'old',
          statusCode: '418',
          headers: [],
          body: 'tea',
          latency: 0,
          enabled: false,
        },
      ],
    };
    const [e] = convertMockoon(env).endpoints;
    assert.equal(e!.status, 418);
    assert.equal(e!.body, 'tea');
    assert.equal(e!.enabled, false);
    const withRegex = mockoonEnvironment([
      mockoonRoute({
        responses: [
          mockoonResponse({ default: true }),
          mockoonResponse({
            label: 'r',
            rules: [{ target: 'query', modifier: 'a', value: '^x', isRegex: true }],
          }),
        ],
      }),
    ]);
    assert.equal(convertMockoon(withRegex).endpoints[0]!.variations![0]!.rules![0]!.op, 'regex');
  });
});

describe('Mockoon import: data buckets, CRUD routes, proxy', () => {
  const buckets = [
    {
      uuid: 'b1',
      id: 'abcd',
      name: 'Users',
      documentation: '',
      value: '[{"id":1,"name":"Ann"},{"name":"Bob"}]',
    },
    { uuid: 'b2', id: 'efgh', name: 'Config', documentation: '', value: '{"a":1}' },
    { uuid: 'b3', id: 'ijkl', name: 'Tags', documentation: '', value: '[{"id":"t1"}]' },
    {
      uuid: 'b4',
      id: 'mnop',
      name: 'Fake',
      documentation: '',
      value: '[{{#repeat 2}}{"id":{{@index}}}{{/repeat}}]',
    },
  ];

  it('a CRUD route is a resource at its path seeded from its bucket; other array buckets are resources; the rest skipped', () => {
    const env = mockoonEnvironment(
      [
        mockoonRoute({
          type: 'crud',
          endpoint: 'users',
          responses: [mockoonResponse({ default: true, databucketID: 'abcd', crudKey: 'id' })],
        }),
        mockoonRoute({
          endpoint: 'config',
          responses: [mockoonResponse({ default: true, bodyType: 'DATABUCKET', databucketID: 'efgh' })],
        }),
      ],
      { data: buckets, endpointPrefix: 'api' },
    );
    const out = convertMockoon(env);
    assert.deepEqual(out.resources, [
      {
        path: '/api/users',
        name: 'Users',
        idField: 'id',
        seed: [
          { id: 1, name: 'Ann' },
          { name: 'Bob', id: 2 },
        ],
      },
      { path: '/tags', name: 'Tags', idField: 'id', seed: [{ id: 't1' }] },
    ]);
    assert.equal(out.endpoints[0]!.body, '{"a":1}');
    assert.match(notes(out.approximate), /items without "id" were given one/);
    assert.match(notes(out.approximate), /data bucket "Tags" is a resource at \/tags/);
    const skipped = notes(out.skipped);
    assert.match(skipped, /data bucket "Config" makes no resource: it is not a JSON array of objects/);
    assert.match(skipped, /data bucket "Fake" makes no resource: its text is a template/);
  });

  it('proxy mode: proxy endpoints for unmatched paths to proxyHost (prefix removed when asked)', () => {
    const env = mockoonEnvironment([mockoonRoute({ endpoint: 'mocked' })], {
      proxyMode: true,
      proxyHost: 'https://api.example.com',
      endpointPrefix: 'api',
      proxyRemovePrefix: true,
    });
    const proxies = convertMockoon(env).endpoints.filter((e) => e.kind === 'proxy');
    assert.deepEqual([...new Set(proxies.map((p) => p.path))], ['/api/*', '/*']);
    assert.equal(proxies.length, 10);
    assert.equal(proxies[0]!.proxy!.target, 'https://api.example.com');
  });

  it('more environments in an older export are reported', () => {
    const item = mockoonEnvironment([mockoonRoute({ endpoint: 'x' })]);
    const out = convertMockoon({
      source: 'mockoon:1.9.0',
      data: [
        { type: 'environment', item },
        { type: 'environment', item },
      ],
    });
    assert.equal(out.endpoints.length, 1);
    assert.match(notes(out.skipped), /1 more environment in the export/);
  });
});
