import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Endpoint } from '../core/model/endpoint.js';
import { engineLoaded } from '../core/templates/engine.js';
import { buildAnswer } from './answer.js';
import { compileEndpoint } from './compile.js';
import type { Exchange } from './exchange.js';
import { contextFor, templatePlan } from './templated.js';

const endpoint: Endpoint = {
  id: 'e1',
  name: 'user',
  method: 'GET',
  path: '/users/:id',
  status: 200,
  headers: { 'X-Fixed': 'yes' },
  body: '{"id":"{{params.id}}","q":"{{query.q}}","h":"{{headers.x-id}}","é":"{{env.K}}"}',
  contentType: 'application/json',
  delay: 0,
  enabled: true,
  kind: 'mock',
  variations: [],
};
const exchange = (url: string, rawHeaders: string[] = []): Exchange =>
  ({ url, method: 'GET', req: { rawHeaders }, body: null, bodyTruncated: false }) as unknown as Exchange;

describe('templated answers', () => {
  it('an endpoint without templates stays static and never loads Handlebars', () => {
    const e = { ...endpoint, body: '{"id":1} { {not} }', headers: { 'X-A': 'b' } };
    const plan = compileEndpoint(e, 1000).choose(exchange('/users/1'));
    assert.ok(plan.answer !== undefined && plan.produce === undefined);
    assert.equal(engineLoaded(), false);
    assert.ok(compileEndpoint(endpoint, 1000).choose(exchange('/users/1')).produce !== undefined);
  });
  it('a templated body alone: the same answer buildAnswer gives for the rendered body', () => {
    const produce = templatePlan(endpoint, endpoint, 8, { env: { K: 'ü' } }).produce;
    const answer = produce(exchange('/users/42?q=a%20b&q=2', ['X-Id', 'z']));
    const body = '{"id":"42","q":"a b","h":"z","é":"ü"}';
    const expected = buildAnswer(
      { status: 200, headers: { 'X-Fixed': 'yes' }, body, contentType: 'application/json' },
      8,
      false,
    );
    // The same bytes; the rendered body goes out as the Buffer its length was counted from.
    assert.deepEqual({ ...answer, body: String(answer.body) }, { ...expected, body: String(expected.body) });
    assert.ok(Buffer.isBuffer(answer.body));
  });
  it('a template reaches none of the context internals, prototypes or methods', () => {
    const e = {
      ...endpoint,
      body: '[{{ex}}{{ex.url}}{{route}}{{request.ctx}}{{constructor}}{{params.constructor}}{{request.constructor.name}}{{query.__proto__}}{{lookup this "constructor"}}]',
    };
    const answer = templatePlan(e, e, 1000, {}).produce(exchange('/users/1?q=1'));
    assert.equal(String(answer.body), '[]');
  });
  it("WireMock's request model: every value of a repeated query parameter or header, fast path and blocks", () => {
    const lists =
      '{{request.query.q}}|{{request.query.q.[1]}}|{{request.headers.X-ID}}|{{request.headers.x-Id.1}}';
    for (const body of [lists, `${lists}{{#each request.query.q}}<{{this}}>{{/each}}`]) {
      const e = { ...endpoint, body };
      const answer = templatePlan(e, e, 1000, {}).produce(
        exchange('/users/1?q=a&q=b', ['X-Id', '1', 'x-id', '2']),
      );
      assert.equal(String(answer.body), body === lists ? 'a|b|1|2' : 'a|b|1|2<a><b>');
    }
  });
  it('templated headers, and 204 without a body', () => {
    const e = { ...endpoint, headers: { 'X-Id': '{{params.id}}' } };
    const answer = templatePlan(e, e, 1000, {}).produce(exchange('/users/7'));
    assert.equal(answer.headers[answer.headers.indexOf('X-Id') + 1], '7');
    const empty = { ...endpoint, status: 204 };
    const none = templatePlan(empty, empty, 1000, {}).produce(exchange('/users/7'));
    assert.equal(none.body, '');
    assert.equal(none.headers.includes('Content-Length'), false);
  });
  it('a helper error answers 500 naming the endpoint, and is reported', () => {
    const e = { ...endpoint, body: `{{faker 'person.firstName'}}` };
    const told: string[] = [];
    const answer = templatePlan(e, e, 1000, { onError: (m) => told.push(m) }).produce(exchange('/users/1'));
    assert.equal(answer.status, 500);
    assert.match(String(answer.body), /"templateError":"the fake-data library is not loaded"/);
    assert.match(told[0]!, /endpoint "user" \(GET \/users\/:id\)/);
  });
  it('a status text: static stays static; a template in it makes the response templated', () => {
    const fixed = { ...endpoint, body: '{}', statusText: 'Found It' };
    const plan = compileEndpoint(fixed, 1000).choose(exchange('/users/1'));
    assert.equal(plan.answer?.statusText, 'Found It');
    assert.equal(
      compileEndpoint({ ...fixed, statusText: undefined }, 1000).choose(exchange('/u/1')).answer?.statusText,
      undefined,
    );
    // Only the body a template: the static status text comes along.
    const bodyOnly = { ...endpoint, statusText: 'Fixed' };
    assert.equal(
      templatePlan(bodyOnly, bodyOnly, 1000, {}).produce(exchange('/users/1')).statusText,
      'Fixed',
    );
    const e = { ...endpoint, body: '{}', statusText: 'Created {{params.id}}' };
    const templated = compileEndpoint(e, 1000).choose(exchange('/users/5'));
    assert.ok(templated.answer === undefined && templated.produce !== undefined);
    const answer = templated.produce!(exchange('/users/5')) as ReturnType<
      ReturnType<typeof templatePlan>['produce']
    >;
    assert.equal(answer.status, 200);
    assert.equal(answer.statusText, 'Created 5');
    assert.equal(String(answer.body), '{}');
    // Rendered empty: the standard reason phrase.
    const empty = { ...e, statusText: '{{query.none}}' };
    assert.equal(templatePlan(empty, empty, 1000, {}).produce(exchange('/users/5')).statusText, undefined);
  });
  it('a status text that fails, or renders to what cannot be sent, answers the template 500', () => {
    const told: string[] = [];
    const broken = { ...endpoint, body: '{}', statusText: `{{faker 'person.firstName'}}` };
    const failed = templatePlan(broken, broken, 1000, { onError: (m) => told.push(m) }).produce(
      exchange('/users/1'),
    );
    assert.equal(failed.status, 500);
    assert.equal(failed.statusText, undefined);
    assert.match(
      String(failed.body),
      /"title":"Template error".*"templateError":"the fake-data library is not loaded"/,
    );
    assert.equal(told.length, 1);
    // A line break from the request never reaches the status line.
    const echo = { ...endpoint, body: '{}', statusText: 'Hi {{params.id}}' };
    const split = templatePlan(echo, echo, 1000, {}).produce(exchange('/users/a%0D%0ASet-Cookie:%20x=1'));
    assert.equal(split.status, 500);
    assert.match(String(split.body), /status text rendered to .*must be one line/);
    const long = templatePlan(echo, echo, 1000, {}).produce(exchange(`/users/${'x'.repeat(200)}`));
    assert.equal(long.status, 500);
    assert.match(String(long.body), /at most 200 characters/);
  });
  it('each URL gets its own params and query, parsed once and shared read-only between its requests', () => {
    const e = { ...endpoint, body: '{{params.id}}|{{query.q}}|{{json params}}' };
    const produce = templatePlan(e, e, 1000, {}).produce;
    const body = (url: string) => String(produce(exchange(url)).body);
    assert.equal(body('/users/1?q=a'), '1|a|{"id":"1"}');
    assert.equal(body('/users/2?q=b'), '2|b|{"id":"2"}');
    assert.equal(body('/users/1?q=a'), '1|a|{"id":"1"}');
    assert.equal(body('/users/1?q=c'), '1|c|{"id":"1"}');
    // The shared objects cannot be changed by anything a request does.
    const ctx = contextFor(e, {})(exchange('/users/9?q=z'));
    assert.ok(Object.isFrozen(ctx.params) && Object.isFrozen(ctx.query));
    assert.equal(contextFor(e, {})(exchange('/users/9?q=z')).params.id, '9');
  });
});
