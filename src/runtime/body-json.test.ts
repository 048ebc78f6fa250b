import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EndpointSchema, type Endpoint, type Variation } from '../core/model/endpoint.js';
import { parseRule } from '../core/model/rules.js';
import { SLICED_JSON_MIN_LENGTH } from '../core/sliced-json.js';
import { compileEndpoint } from './compile.js';
import { largeBody, NOT_JSON, parseBodyAhead, type Exchange } from './exchange.js';

/** POST /orders, its template reading `body.name`; with defaults for the rest (the schema's). */
const endpoint = (extra: Partial<Endpoint> = {}): Endpoint =>
  EndpointSchema.parse({
    id: 'e',
    name: 'orders',
    method: 'POST',
    path: '/orders',
    status: 201,
    body: '{"name":"{{body.name}}"}',
    ...extra,
  });

/** A variation for Ada (rule `body.name=Ada`), its template reading `body.name` too. */
const variation = (extra: Partial<Variation> = {}): Variation => ({
  id: 'v',
  name: 'ada',
  status: 200,
  headers: {},
  delay: 0,
  body: '{"rule":"matched","name":"{{body.name}}"}',
  rules: [parseRule('body.name=Ada')],
  ...extra,
});

const exchange = (body: string | null): Exchange =>
  ({
    url: '/orders',
    method: 'POST',
    req: { rawHeaders: [] },
    body: body === null ? null : Buffer.from(body),
    bodyTruncated: false,
    json: undefined,
  }) as unknown as Exchange;

/** Chooses and produces the answer to `ex` (as the pipeline does, without a socket), counting JSON.parse calls. */
function answer(e: Endpoint, ex: Exchange): { status: number; body: string; parses: number } {
  const parse = JSON.parse;
  let parses = 0;
  JSON.parse = (...args: Parameters<typeof JSON.parse>) => {
    parses++;
    return parse(...args) as unknown;
  };
  try {
    const plan = compileEndpoint(e, 1_000_000).choose(ex);
    const produced = plan.answer ?? plan.produce!(ex);
    assert.ok(!(produced instanceof Promise));
    return { status: produced.status, body: String(produced.body), parses };
  } finally {
    JSON.parse = parse;
  }
}

describe('the request body as JSON', () => {
  it('is parsed once per request, shared by the rules and the template', () => {
    const e = endpoint({ variations: [variation()] });
    assert.deepEqual(answer(e, exchange('{"name":"Ada"}')), {
      status: 200,
      body: '{"rule":"matched","name":"Ada"}',
      parses: 1,
    });
    assert.deepEqual(answer(e, exchange('{"name":"Grace"}')), {
      status: 201,
      body: '{"name":"Grace"}',
      parses: 1,
    });
  });

  it('a body that is not JSON: rules see no body, templates its text', () => {
    const e = endpoint({
      body: '{{body}}',
      variations: [variation({ rules: [parseRule('body.name?')] })],
    });
    assert.deepEqual(answer(e, exchange('name=Ada')), { status: 201, body: 'name=Ada', parses: 1 });
    assert.deepEqual(answer(e, exchange(null)), { status: 201, body: '', parses: 0 });
    const cut = exchange('{"name":"Ada"}');
    cut.bodyTruncated = true;
    assert.deepEqual(answer(e, cut), { status: 201, body: '{"name":"Ada"}', parses: 0 });
  });

  it('the endpoint says whether it reads the body as JSON: a body rule in force, or a template reading `body`', () => {
    const reads = (e: Endpoint) => compileEndpoint(e, 1000).readsJson === true;
    assert.equal(reads(endpoint()), true, 'a template reading body');
    assert.equal(reads(endpoint({ body: '{"raw":"{{bodyRaw}}","b":"{{request.body}}"}' })), false);
    assert.equal(reads(endpoint({ body: '{"static":true}' })), false);
    assert.equal(reads(endpoint({ body: "{{bodyRaw 'user.name'}}" })), true, "Mockoon's bodyRaw at a path");
    assert.equal(
      reads(endpoint({ body: "{{jsonPath request.body '$.name'}}" })),
      true,
      "WireMock's jsonPath",
    );
    assert.equal(reads(endpoint({ body: '{{body.name}}', templating: false })), false);
    const ruled = endpoint({ body: '{}', variations: [variation({ body: '{}' })] });
    assert.equal(reads(ruled), true, 'a body rule');
    assert.equal(reads({ ...ruled, mode: 'sequential' }), false, 'rules not in force');
    assert.equal(reads({ ...ruled, activeVariationId: 'v' }), false, 'an active variation answers');
    assert.equal(
      reads(endpoint({ body: '{}', variations: [variation({ body: '{{body.id}}', rules: [] })] })),
      true,
      "a variation's template",
    );
  });

  it('a large body is parsed ahead in slices, then read without JSON.parse', async () => {
    const text = JSON.stringify({
      items: Array.from({ length: SLICED_JSON_MIN_LENGTH / 2 }, () => []),
      name: 'Ada',
    });
    const ex = exchange(text);
    assert.equal(largeBody(ex), true);
    await parseBodyAhead(ex);
    assert.equal(largeBody(ex), false);
    const e = endpoint({ variations: [variation()] });
    assert.deepEqual(answer(e, ex), { status: 200, body: '{"rule":"matched","name":"Ada"}', parses: 0 });

    // WireMock's jsonPath and Mockoon's bodyRaw at a path read the body parsed ahead, not JSON.parse.
    const helpersEx = exchange(text);
    await parseBodyAhead(helpersEx);
    const reading = endpoint({ body: "{{jsonPath request.body '$.name'}} {{bodyRaw 'name'}}" });
    assert.deepEqual(answer(reading, helpersEx), { status: 201, body: 'Ada Ada', parses: 0 });

    const broken = exchange(`${text}x`);
    await parseBodyAhead(broken);
    assert.equal(broken.json, NOT_JSON);
    assert.equal(largeBody(exchange('{"small":true}')), false);
  });
});
