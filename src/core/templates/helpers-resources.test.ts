import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceItem } from '../model/resource.js';
import { checkTemplate, compileTemplate, type TemplateContext } from './engine.js';
import { GLOBALS_MAX, type TemplateResources } from './helpers-resources.js';
import { markSecrets } from './marks.js';

/** The resource helpers through the real engine, over an in-memory set of resources. */

function resources(
  initial: Record<string, ResourceItem[]>,
): TemplateResources & { now: Record<string, ResourceItem[]> } {
  const now = { ...initial };
  return {
    now,
    get: (name) =>
      name.toLowerCase() in now ? { items: now[name.toLowerCase()]!, idField: 'id' } : undefined,
    set: (name, items) => void (now[name.toLowerCase()] = items),
    globals: new Map(),
  };
}

/** A request's context for these tests, with the resources given (none: a template without a server). */
const contextWith = (res: TemplateResources | undefined, params: Record<string, string> = {}, env = {}) =>
  ({
    params,
    query: {},
    headers: {},
    body: {},
    bodyRaw: '',
    method: 'GET',
    path: '/',
    env,
    tunnel: { url: '' },
    request: { url: '/', path: '/', pathSegments: [], query: {}, headers: {}, body: '', method: 'GET' },
    ...(res ? { resources: res } : {}),
  }) as TemplateContext;

const render = (source: string, res: TemplateResources | undefined, params: Record<string, string> = {}) =>
  compileTemplate(source).render(contextWith(res, params));

const USERS = [
  { id: 1, name: 'Ada', tags: ['a'] },
  { id: 2, name: 'Bob', n: 5 },
];

describe('resource helpers', () => {
  it('read: resource and resourceItem print as JSON and walk as values; data and dataRaw at a path', () => {
    const r = resources({ users: USERS });
    assert.equal(render("{{resource 'users'}}", r), JSON.stringify(USERS));
    assert.equal(render("{{#each (resource 'USERS')}}{{name}} {{/each}}", r), 'Ada Bob ');
    assert.equal(render("{{resourceItem 'users' params.id}}", r, { id: '2' }), JSON.stringify(USERS[1]));
    assert.equal(
      render("{{#with (resourceItem 'users' params.id)}}{{name}}{{/with}}", r, { id: '1' }),
      'Ada',
    );
    assert.equal(render("[{{resourceItem 'users' params.id}}]", r, { id: '9' }), '[]');
    assert.equal(render("{{data 'users' '0.tags'}} {{data 'users' '1.name'}}", r), '["a"] Bob');
    assert.equal(render("{{#each (dataRaw 'users' '0.tags')}}<{{this}}>{{/each}}", r), '<a>');
  });

  it('setData: set, push, del, inc, dec, invert, merge on the items; they stay an array of objects', () => {
    const r = resources({ users: USERS });
    render("{{setData 'inc' 'users' '1.n' 2}}{{setData 'dec' 'users' '1.n'}}", r);
    assert.equal(r.now.users![1]!.n, 6);
    render("{{setData 'invert' 'users' '0.admin'}}{{setData 'merge' 'users' '0' (dataRaw 'users' '1')}}", r);
    assert.deepEqual(r.now.users![0], { id: 2, name: 'Bob', tags: ['a'], admin: true, n: 6 });
    render("{{setData 'del' 'users' '0'}}{{setData 'set' 'users' '0.name' 'Cy'}}", r);
    assert.deepEqual(r.now.users, [{ id: 2, name: 'Cy', n: 6 }]);
    assert.deepEqual(USERS[1], { id: 2, name: 'Bob', n: 5 }, 'the items before are untouched');
    assert.throws(() => render("{{setData 'set' 'users' '' 'text'}}", r), /must stay an array of objects/);
    assert.throws(
      () => render("{{setData 'explode' 'users' '' 1}}", r),
      /unknown operation "explode"; use one of set, push/,
    );
    const polluted = resources({ users: [{ id: 1 }] });
    render("{{setData 'set' 'users' '0.__proto__.x' 1}}", polluted);
    assert.equal(({} as Record<string, unknown>).x, undefined);
  });

  it('an unknown resource fails the render naming it; the resources are not a field of the context', () => {
    assert.throws(
      () => render("{{resource 'nope'}}", resources({})),
      /no resource named "nope" in this project/,
    );
    assert.throws(() => render("{{resource 'users'}}", undefined), /no resource named "users"/);
    assert.equal(
      checkTemplate("{{resource 'users'}}{{resourceItem 'users' 1}}{{setData 'set' 'u' '' 1}}"),
      null,
    );
  });

  it("Mockoon's global variables: kept between renders of one server, bounded, never a secret", () => {
    const r = resources({});
    assert.equal(render("{{setGlobalVar 'count' 2}}{{setGlobalVar 'user' (object name='Ada')}}", r), '');
    assert.equal(
      render("{{getGlobalVar 'count'}} {{getGlobalVar 'user' 'name'}} [{{getGlobalVar 'nope'}}]", r),
      '2 Ada []',
    );
    assert.equal(render("{{add (getGlobalVar 'count') 1}}", r), '3');
    for (let i = r.globals.size; i < GLOBALS_MAX; i++) r.globals.set(`v${i}`, i);
    assert.throws(() => render("{{setGlobalVar 'one-more' 1}}", r), /more than 1000 global variables/);
    assert.equal(
      render("{{setGlobalVar 'count' 5}}{{getGlobalVar 'count'}}", r),
      '5',
      'a known name may change',
    );
    const secret = compileTemplate("{{setGlobalVar 't' env.TOKEN}}", { trackSecrets: true });
    const context = contextWith(resources({}), {}, markSecrets({ TOKEN: 's3cret' }, ['s3cret']));
    assert.throws(() => secret.render(context), /made from an environment secret is not kept/);
    assert.throws(() => render("{{getGlobalVar 'x'}}", undefined), /running server's responses only/);
  });
});
