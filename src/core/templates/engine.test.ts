import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MockdevError } from '../errors.js';
import {
  assertTemplate,
  checkTemplate,
  compileTemplate,
  fakerLoaded,
  formatDate,
  loadFaker,
  mentionsFaker,
  REPEAT_MAX,
  TemplateError,
  type TemplateContext,
} from './engine.js';

const context = (over: Partial<TemplateContext> = {}): TemplateContext => ({
  params: { id: '42' },
  query: { page: '2' },
  headers: { 'x-id': 'abc', 'X-Id': 'abc' },
  body: { user: { name: 'Ada' }, items: [{ email: 'a@x' }, { email: 'b@x' }], tags: ['t1', 't2'] },
  bodyRaw: '{"user":{"name":"Ada"}}',
  method: 'POST',
  path: '/users/42',
  env: { API: 'http://api' },
  tunnel: { url: '' },
  request: {
    url: '/users/42?page=2',
    path: '/users/42',
    pathSegments: ['users', '42'],
    query: { page: '2' },
    headers: { 'x-id': 'abc', 'X-Id': 'abc' },
    body: '{"user":{"name":"Ada"}}',
    method: 'POST',
  },
  ...over,
});
const render = (source: string, over?: Partial<TemplateContext>) =>
  compileTemplate(source).render(context(over));

describe('templates: faker stays unloaded', () => {
  // First in this file (its own process): nothing so far has used fake data.
  it('is not loaded by templates that do not use it', () => {
    assert.equal(render('{{params.id}} {{uuid}} {{int 1 2}} {{#repeat 2}}x{{/repeat}}').length > 0, true);
    assert.equal(mentionsFaker('{{params.id}} {{body.name}} {{this.email}}'), false);
    assert.equal(mentionsFaker('no template'), false);
    assert.equal(compileTemplate('{{query.page}}').usesFaker, false);
    assert.equal(fakerLoaded(), false);
    assert.equal(mentionsFaker("{{faker 'person.firstName'}}"), true);
    assert.equal(mentionsFaker('{{#repeat 2}}{{email}}{{/repeat}}'), true);
  });
  it('a faker helper without the library loaded fails the render (never a crash)', () => {
    assert.throws(() => render("{{faker 'person.firstName'}}"), /not loaded/);
  });
});

describe('templates: the request', () => {
  it('reads params, query, headers, body, method, path, env', () => {
    assert.equal(
      render(
        '{{params.id}} {{query.page}} {{headers.x-id}} {{body.user.name}} {{method}} {{path}} {{env.API}}',
      ),
      '42 2 abc Ada POST /users/42 http://api',
    );
  });
  it('renders a missing value empty, and output is not HTML-escaped', () => {
    assert.equal(render('[{{query.nope}}][{{body.a.b.c}}][{{env.NONE}}]'), '[][][]');
    assert.equal(render('{{body.q}}', { body: { q: '<"a"&>' } }), '<"a"&>');
  });
  it('keeps a brace right after an expression as text (JSON): `}}}` closes `{{` then `}`', () => {
    assert.equal(render('{"n":{{params.id}}}'), '{"n":42}');
    assert.equal(render('{"a":{"n":{{int 5 5}}}}'), '{"a":{"n":5}}');
    assert.equal(render('{{{params.id}}}'), '42');
    // Error positions are those of the text as written.
    assert.equal(
      checkTemplate('{"a":{{params.id}}} {{oops}')!.column,
      checkTemplate('{"a":{{params.id}}x {{oops}')!.column,
    );
  });
  it('accepts Mockoon helper names', () => {
    assert.equal(
      render(
        `{{urlParam 'id'}} {{queryParam 'page'}} {{queryParam 'x' 'dflt'}} {{header 'X-Id'}} {{body 'user.name'}} {{body 'items.1.email'}}`,
      ),
      '42 2 dflt abc Ada b@x',
    );
    assert.equal(render('{{bodyRaw}}'), '{"user":{"name":"Ada"}}');
    assert.equal(render('{{body}}', { body: 'plain text' }), 'plain text');
    assert.equal(render(`{{urlEncode 'a b&c'}}`), 'a%20b%26c');
  });
  it("accepts WireMock's request.* names", () => {
    assert.equal(
      render(
        "{{request.path}} {{request.pathSegments.[1]}} {{request.query.page}} {{request.headers.X-Id}} {{request.method}} {{request.url}} {{jsonPath request.body '$.user.name'}}",
      ),
      '/users/42 42 2 abc POST /users/42?page=2 Ada',
    );
  });
  it('loops over request data with #each; a field of the item wins over a fake-data helper', () => {
    assert.equal(render('{{#each body.items}}{{@index}}:{{email}},{{/each}}'), '0:a@x,1:b@x,');
    assert.equal(render('{{#each body.tags}}{{this}} {{/each}}{{#if params.id}}yes{{/if}}'), 't1 t2 yes');
  });
});

describe('templates: helpers', () => {
  it('uuid', () =>
    assert.match(
      render('{{uuid}}'),
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    ));
  it('now, with formats and an offset', () => {
    assert.match(render('{{now}}'), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.match(render(`{{now 'YYYY-MM-DD'}}`), /^\d{4}-\d\d-\d\d$/);
    assert.match(render(`{{now 'unix'}}`), /^\d{10}$/);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    assert.equal(render(`{{now 'yyyy-MM-dd' days=1}}`), tomorrow);
    assert.equal(
      formatDate(new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6)), 'DD/MM/YYYY HH:mm:ss.SSS'),
      '02/01/2024 03:04:05.006',
    );
  });
  it('int / randomInt, float / randomFloat', () => {
    for (let i = 0; i < 50; i++) {
      const n = Number(render('{{int 1 3}}'));
      assert.ok(n >= 1 && n <= 3 && Number.isInteger(n));
      const r = Number(render('{{randomInt min=5 max=5}}'));
      assert.equal(r, 5);
      const f = Number(render('{{float 1 2}}'));
      assert.ok(f >= 1 && f <= 2);
      assert.ok(Number(render('{{randomFloat 0 1 4}}')) <= 1);
    }
  });
  it('oneOf / pick: one of the arguments or of an array', () => {
    for (let i = 0; i < 20; i++) {
      assert.ok(['a', 'b'].includes(render(`{{oneOf 'a' 'b'}}`)));
      assert.ok(['t1', 't2'].includes(render('{{pick body.tags}}')));
    }
  });
  it('repeat: a count or min max, with @index, capped', () => {
    assert.equal(render('{{#repeat 3 comma=false}}{{@index}}{{/repeat}}'), '012');
    assert.equal(render(`{{#repeat 3 separator=','}}x{{/repeat}}`), 'x,x,x');
    const n = render('{{#repeat 2 4 comma=false}}x{{/repeat}}').length;
    assert.ok(n >= 2 && n <= 4);
    assert.equal(render('{{#repeat 1000000 comma=false}}x{{/repeat}}').length, REPEAT_MAX);
    assert.throws(() => render('{{#repeat 1000}}{{#repeat 1000}}x{{/repeat}}{{/repeat}}'), /iterations/);
  });
  it('unless (Handlebars runs it through if, which the template does not name)', () => {
    assert.equal(render('{{#unless query.nope}}none{{/unless}}'), 'none');
    assert.equal(render('{{#unless query.page}}none{{else}}{{query.page}}{{/unless}}'), '2');
  });
  it('lowercase, uppercase, json', () => {
    assert.equal(render(`{{lowercase 'AbC'}} {{uppercase 'AbC'}}`), 'abc ABC');
    assert.equal(render('{{json body.user}}'), '{"name":"Ada"}');
    assert.equal(render('{{json body.nope}}'), 'null');
  });
});

describe('templates: safety', () => {
  it('reaches no prototype and runs no code', () => {
    for (const source of [
      '{{constructor}}',
      '{{constructor.constructor}}',
      '{{__proto__}}',
      '{{params.constructor}}',
      '{{params.__proto__.toString}}',
      '{{#with params}}{{constructor.name}}{{/with}}',
      '{{lookup params "constructor"}}',
      '{{#with (lookup this "constructor")}}{{#with (lookup this "constructor")}}x{{/with}}{{/with}}',
    ])
      assert.equal(render(source).replace(/x/g, ''), '', source);
  });
  it('refuses partials and unknown helpers at compile time', () => {
    assert.match(checkTemplate('{{> secret}}')!.message, /partials/);
    assert.match(checkTemplate('{{exec "rm -rf /"}}')!.message, /^Unknown helper "exec" at line 1, column 1/);
    assert.equal(checkTemplate('no template here'), null);
    assert.equal(checkTemplate('{{params.id}}'), null);
  });
});

describe('templates: errors', () => {
  it('gives the line and column of a syntax error', () => {
    assert.deepEqual(
      { ...checkTemplate('{\n  "id": "{{params.id}"\n}')!, message: '' },
      { message: '', line: 2, column: 21 },
    );
    const unclosed = checkTemplate('{{#if params.id}}\nx');
    assert.equal(unclosed!.line, 2);
    assert.match(unclosed!.message, /ends inside/);
    const mismatch = checkTemplate('a\n{{#if x}}\n{{/each}}');
    assert.equal(mismatch!.line, 2);
    assert.match(mismatch!.message, /doesn't match/);
    assert.throws(() => compileTemplate('{{#if x}}'), TemplateError);
  });
  it('assertTemplate refuses with INVALID_ARGUMENT naming the field, line and column', () => {
    assert.throws(
      () => assertTemplate('ok\n {{oops}', 'body'),
      (e: unknown) =>
        e instanceof MockdevError &&
        e.code === 'INVALID_ARGUMENT' &&
        /Invalid template in body at line 2, column \d+/.test(e.message),
    );
  });
});

describe('templates: fake data', () => {
  it("faker 'module.method', short names, arguments", async () => {
    await loadFaker();
    assert.equal(fakerLoaded(), true);
    assert.match(render(`{{faker 'person.firstName'}}`), /^\S+/);
    assert.match(render('{{email}}'), /@/);
    for (const name of [
      'firstName',
      'lastName',
      'fullName',
      'name',
      'phone',
      'city',
      'street',
      'address',
      'country',
      'company',
      'lorem',
      'sentence',
      'paragraph',
      'word',
    ])
      assert.notEqual(render(`{{${name}}}`), '', name);
    const n = Number(render(`{{faker 'number.int' min=3 max=3}}`));
    assert.equal(n, 3);
    assert.equal(render(`{{faker 'string.numeric' 5}}`).length, 5);
  });
  it('an unknown or unsafe faker method fails the render', async () => {
    await loadFaker();
    assert.throws(() => render(`{{faker 'person.nope'}}`), /unknown faker method/);
    assert.throws(() => render(`{{faker 'constructor.constructor'}}`), /unknown faker method/);
    assert.throws(() => render(`{{faker 'person._x'}}`), /unknown faker method/);
  });
  it('#seed makes fake data and random helpers deterministic per key', async () => {
    await loadFaker();
    const t = compileTemplate(
      '{{#seed params.id}}{{firstName}} {{email}} {{int 1 1000000}} {{uuid}}{{/seed}}',
    );
    const a = t.render(context());
    assert.equal(t.render(context()), a);
    assert.notEqual(t.render(context({ params: { id: '43' } })), a);
    // Outside the block the data is random again.
    const outside = compileTemplate('{{#seed params.id}}{{/seed}}{{int 1 1000000000}}');
    assert.notEqual(outside.render(context()), outside.render(context()));
  });
});

describe("templates: WireMock's request model", () => {
  const model = (): Partial<TemplateContext> => ({
    request: {
      ...context().request,
      pathSegments: ['users', '42'],
      query: { tag: 'a' },
      headers: { 'x-id': 'abc', 'X-Id': 'abc' },
      'query[]': { tag: ['a', 'b'] },
      'headers[]': { 'x-id': ['abc', 'def'] },
    },
  });
  const both = (source: string) => {
    const flat = compileTemplate(source);
    const full = compileTemplate(source, { handlebarsOnly: true });
    const out = full.render(context(model()));
    assert.equal(flat.render(context(model())), out, `flat and Handlebars agree on ${source}`);
    return { out, flat: flat.flat };
  };
  it('reads a numeric segment as an index, on the fast path too; number and string literals stay', () => {
    assert.deepEqual(both('{{request.pathSegments.1}}|{{request.pathSegments.[0]}}|{{body.items.1.email}}'), {
      out: '42|users|b@x',
      flat: true,
    });
    assert.equal(
      render("{{body.tags.0}}{{#each body.items}}{{this.email}}{{/each}}|{{concat 'v.1' 'x'}}"),
      't1a@xb@x|v.1x',
    );
    assert.equal(render('{{#if (gt 2.5 1)}}yes{{/if}}'), 'yes');
  });
  it('reads request header names in any case, and repeated query parameters and headers as lists', () => {
    assert.deepEqual(both('{{request.headers.X-ID}}|{{request.headers.[X-Id]}}|{{request.headers.X-Id.1}}'), {
      out: 'abc|abc|def',
      flat: true,
    });
    assert.equal(
      both('{{request.query.tag}}|{{request.query.tag.[1]}}|{{request.query.tag.length}}').out,
      'a|b|2',
    );
    assert.equal(render('{{#each request.query.tag}}<{{this}}>{{/each}}', model()), '<a><b>');
    assert.equal(render('{{#each request.headers.X-ID}}<{{this}}>{{/each}}', model()), '<abc><def>');
    // A field named headers elsewhere is read as written.
    assert.equal(
      render('{{#with body}}{{headers.X-A}}{{/with}}', { body: { headers: { 'X-A': 'kept' } } }),
      'kept',
    );
  });
  it('gives positions in the text as written, after index segments and `}}}`', () => {
    const unknown = checkTemplate('{"a": {{params.id}}}, "b": {{request.path.0.1}} {{nope 1}}');
    assert.deepEqual(
      { ...unknown, message: unknown?.message.replace(/;.*$/, '') },
      {
        message: 'Unknown helper "nope" at line 1, column 49',
        line: 1,
        column: 49,
        positioned: true,
      },
    );
    // The same position as in a template of the same length without index segments.
    const at = (source: string) => checkTemplate(source)?.column;
    assert.equal(at('{{request.path.0}}{{request.path.1}} {{a b=}} x'), 44); // the `}}` after `b=`
    assert.equal(
      at('{{request.path.0}}{{request.path.1}} {{a b=}} x'),
      at('{{request.path.a}}{{request.path.b}} {{a b=}} x'),
    );
  });
});
