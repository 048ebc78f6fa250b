import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileTemplate, loadFaker, type TemplateContext } from './engine.js';

/** A context shaped like the runtime's: lazy parts as prototype getters, private state hidden. */
class Ctx {
  readonly method = 'POST';
  readonly path = '/users/42';
  readonly env = { API: 'http://api', EMPTY: '' };
  get params() {
    return { id: '42', zero: '0' };
  }
  get query() {
    return { page: '2', q: 'Hello World' };
  }
  get headers() {
    return { 'x-id': 'abc', 'X-Id': 'abc' };
  }
  get body() {
    return {
      user: { name: 'Ada', admin: false, age: 36, nothing: null },
      items: [{ email: 'a@x' }, { email: 'b@x' }],
      tags: ['t1', 't2'],
      email: 'own@x',
    };
  }
  get bodyRaw() {
    return '{"user":{"name":"Ada"}}';
  }
  get request() {
    return {
      url: '/users/42?page=2',
      path: '/users/42',
      pathSegments: ['users', '42'],
      query: this.query,
      headers: this.headers,
      body: this.bodyRaw,
      method: 'POST',
    };
  }
  secret() {
    return 'never';
  }
}
const ctx = () => new Ctx() as unknown as TemplateContext;

/** Templates rendered the same by the fast path and by Handlebars (deterministic helpers only). */
const SAME = [
  '{"id":"{{params.id}}","page":{{query.page}},"api":"{{env.API}}"}',
  '{{method}} {{path}} {{headers.x-id}} {{request.headers.X-Id}} {{request.pathSegments.[1]}}',
  '{{body.user.name}} {{body.user.admin}} {{body.user.age}} [{{body.user.nothing}}] [{{body.user.missing.deeper}}]',
  '{{body.tags}} {{body.items.[1].email}} {{body.items.length}} {{params.id.length}}',
  '{{urlParam "id"}} {{queryParam "page"}} {{queryParam "none" "dflt"}} {{header "X-ID"}} {{body "user.name"}}',
  '{{bodyRaw}} {{body}} {{method}} {{jsonPath bodyRaw "user.name"}}',
  '{{lowercase query.q}} {{uppercase (queryParam "q")}} {{json body.user}} {{json body.tags 2}}',
  '{{urlEncode query.q}} {{int 5 5}} {{float 1 1 3}} {{oneOf "only"}}',
  '{{int min=7 max=7}} {{float min=2 max=2 decimals=1}} {{json params}}',
  '[{{params.constructor}}][{{query.__proto__}}][{{secret}}][{{params.toString}}][{{env.EMPTY}}]',
  'no expressions at all',
  '{"n": {{int 1 1}}}',
  '{{! a comment }}a{{!-- another --}}b {{~ params.id ~}} c',
  '{{params.zero}}{{body.email}}',
];

describe('templates: the fast path of flat templates', () => {
  it('renders exactly as Handlebars does', async () => {
    await loadFaker();
    for (const source of SAME) {
      const fast = compileTemplate(source);
      const slow = compileTemplate(source, { handlebarsOnly: true });
      assert.equal(fast.flat, true, `fast path taken for ${source}`);
      assert.equal(slow.flat, false);
      assert.equal(fast.render(ctx()), slow.render(ctx()), source);
    }
  });

  it('renders fake data and seeds per render like Handlebars', async () => {
    await loadFaker();
    const source = '{{#seed params.id}}{{faker "person.firstName"}} {{int 1 1000}}{{/seed}}';
    // A block: Handlebars renders it. A flat template with fake data renders on the fast path.
    assert.equal(compileTemplate(source).flat, false);
    const flat = compileTemplate('{{faker "person.firstName"}} {{firstName}} {{uuid}}');
    assert.equal(flat.flat, true);
    assert.match(
      flat.render(ctx()),
      /^\S+ \S+ [0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('leaves blocks, @data, this and parent paths, and built-ins to Handlebars', () => {
    for (const source of [
      '{{#each body.tags}}{{this}}{{/each}}',
      '{{#if params.id}}yes{{/if}}',
      '{{@root.method}}',
      '{{this.method}}',
      '{{lookup params "id"}}',
      '{{#repeat 2}}x{{/repeat}}',
    ]) {
      const t = compileTemplate(source);
      assert.equal(t.flat, false, source);
      assert.equal(t.render(ctx()), compileTemplate(source, { handlebarsOnly: true }).render(ctx()), source);
    }
    // An unknown helper is refused when compiled, before any render.
    assert.throws(() => compileTemplate('{{nosuchhelper "x"}}'), /Unknown helper "nosuchhelper"/);
  });

  it('a helper error fails the render on the fast path too', () => {
    const t = compileTemplate('{{faker "no.suchMethod"}}');
    assert.equal(t.flat, true);
    assert.throws(() => t.render(ctx()), /faker/);
  });
});
