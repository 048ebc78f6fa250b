import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Variation } from './endpoint.js';
import { inheritedFields, inheritedText, variationHeaders, variationResponse } from './variation-response.js';

const endpoint = {
  body: '{"id":1}',
  contentType: 'application/json',
  headers: { 'X-Version': '2', 'Cache-Control': 'no-store' },
};
const v = (extra: Partial<Variation>): Variation => ({
  id: 'v',
  name: 'v',
  status: 404,
  headers: {},
  delay: 0,
  ...extra,
});

describe("a variation's response", () => {
  it("takes the endpoint's body, content type and headers where it sets none", () => {
    assert.deepEqual(variationResponse(endpoint, v({ delay: 3000, headers: { 'Retry-After': '5' } })), {
      status: 404,
      headers: { 'X-Version': '2', 'Cache-Control': 'no-store', 'Retry-After': '5' },
      body: '{"id":1}',
      contentType: 'application/json',
      delay: 3000,
    });
    assert.deepEqual(inheritedFields(v({})), ['body', 'contentType', 'headers']);
    assert.equal(inheritedText(v({ headers: { A: '1' } })), 'body, content type');
  });

  it('keeps its own, an empty body included', () => {
    const r = variationResponse(endpoint, v({ body: '', contentType: 'text/plain', statusText: 'Gone' }));
    assert.deepEqual([r.body, r.contentType, r.statusText], ['', 'text/plain', 'Gone']);
    assert.deepEqual(inheritedFields(v({ body: '', contentType: 'text/plain', headers: { A: '1' } })), []);
  });

  it("sends its headers over the endpoint's: same name in any case replaces; its content type beats an inherited header", () => {
    assert.deepEqual(variationHeaders(endpoint, { headers: { 'x-version': '3' } }), {
      'Cache-Control': 'no-store',
      'x-version': '3',
    });
    const typed = { ...endpoint, headers: { 'Content-Type': 'text/csv', 'X-Version': '2' } };
    assert.deepEqual(variationHeaders(typed, { headers: {}, contentType: 'text/plain' }), {
      'X-Version': '2',
    });
    assert.deepEqual(variationHeaders(typed, { headers: {} }), typed.headers);
  });
});

describe("a variation's templating", () => {
  it('never renders text it takes from an endpoint whose templating is off', () => {
    const literal = { ...endpoint, body: '{{json env}}', templating: false };
    assert.equal(variationResponse(literal, v({})).templating, false, 'the imported body, inherited');
    assert.equal(variationResponse(literal, v({ body: '{{uuid}}' })).templating, undefined, 'its own body');
    const literalHeader = { ...endpoint, headers: { 'X-Env': '{{env.KEY}}' }, templating: false };
    assert.equal(variationResponse(literalHeader, v({ body: 'x' })).templating, false);
    assert.equal(
      variationResponse(literalHeader, v({ body: 'x', headers: { 'x-env': 'own' } })).templating,
      undefined,
      'the header replaced',
    );
    assert.equal(variationResponse(endpoint, v({ templating: false })).templating, false);
  });
});
