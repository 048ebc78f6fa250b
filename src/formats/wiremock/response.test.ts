import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { convert, messages, only } from '../../../test/helpers/wiremock.js';

const req = { method: 'GET', urlPath: '/r' };

describe('WireMock import: responses', () => {
  it('status, statusMessage, headers (Content-Type as the content type) and body', () => {
    const e = only({
      request: req,
      response: {
        status: 201,
        statusMessage: 'Made',
        headers: {
          'Content-Type': 'application/xml',
          'X-Id': '7',
          'Cache-Control': ['no-cache', 'no-store'],
        },
        body: '<a/>',
      },
    });
    assert.equal(e.status, 201);
    assert.equal(e.statusText, 'Made');
    assert.equal(e.contentType, 'application/xml');
    assert.deepEqual(e.headers, { 'X-Id': '7', 'Cache-Control': 'no-cache, no-store' });
    assert.equal(e.body, '<a/>');
    const r = convert([{ request: req, response: { headers: { A: ['1', '2'] } } }]);
    assert.match(messages(r.approximate), /header "A" has 2 values: sent as one/);
  });

  it('jsonBody is sent as JSON; a body with no Content-Type is JSON when it reads as JSON, else text', () => {
    const json = only({ request: req, response: { jsonBody: { id: 1, tags: ['a'] } } });
    assert.equal(json.contentType, 'application/json');
    assert.deepEqual(JSON.parse(json.body!), { id: 1, tags: ['a'] });
    assert.equal(only({ request: req, response: { body: '[1,2]' } }).contentType, 'application/json');
    assert.equal(only({ request: req, response: { body: 'hello' } }).contentType, 'text/plain');
    assert.equal(only({ request: req, response: { status: 204 } }).body, '');
  });

  it('base64Body is decoded; bytes that are not text are skipped', () => {
    const e = only({ request: req, response: { base64Body: Buffer.from('héllo').toString('base64') } });
    assert.equal(e.body, 'héllo');
    const r = convert([
      { request: req, response: { base64Body: Buffer.from([0xff, 0xfe, 0x00]).toString('base64') } },
    ]);
    assert.equal(r.endpoints.length, 0);
    assert.match(messages(r.skipped), /base64Body is not UTF-8 text/);
  });

  it('bodyFileName is read from __files; a missing one skips the mapping with a note', () => {
    const e = only(
      { request: req, response: { bodyFileName: 'users/list.json' } },
      { 'users/list.json': '[{"id":1}]' },
    );
    assert.equal(e.body, '[{"id":1}]');
    assert.equal(e.contentType, 'application/json');
    const r = convert([{ name: 'gone', request: req, response: { bodyFileName: 'nope.json' } }]);
    assert.equal(r.endpoints.length, 0);
    assert.deepEqual(r.skipped, [
      { method: 'GET', path: '/r', name: 'gone', message: 'bodyFileName "nope.json" is not in __files' },
    ]);
    const templated = convert([
      { request: req, response: { bodyFileName: 'users/{{request.pathSegments.[1]}}.json' } },
    ]);
    assert.match(messages(templated.skipped), /is a template \(the file depends on the request\)/);
  });

  it('fixedDelayMilliseconds and delayDistribution (uniform, lognormal) become delays', () => {
    assert.equal(only({ request: req, response: { fixedDelayMilliseconds: 250 } }).delay, 250);
    assert.deepEqual(
      only({ request: req, response: { delayDistribution: { type: 'uniform', lower: 100, upper: 300 } } })
        .delay,
      { uniform: [100, 300] },
    );
    assert.deepEqual(
      only({
        request: req,
        response: {
          fixedDelayMilliseconds: 50,
          delayDistribution: { type: 'uniform', lower: 10, upper: 20 },
        },
      }).delay,
      { uniform: [60, 70] },
    );
    assert.deepEqual(
      only({ request: req, response: { delayDistribution: { type: 'lognormal', median: 80, sigma: 0.4 } } })
        .delay,
      { lognormal: { median: 80, sigma: 0.4 } },
    );
    const r = convert([{ request: req, response: { fixedDelayMilliseconds: 10_000_000 } }]);
    assert.equal(r.endpoints[0]!.delay, 600_000);
    assert.match(messages(r.approximate), /cut to 600000 ms/);
  });

  it('faults: reset, empty, garbage; MALFORMED_RESPONSE_CHUNK as garbage, approximate; unknown skipped', () => {
    const fault = (f: string) => only({ request: req, response: { fault: f } }).fault;
    assert.equal(fault('CONNECTION_RESET_BY_PEER'), 'reset');
    assert.equal(fault('EMPTY_RESPONSE'), 'empty');
    assert.equal(fault('RANDOM_DATA_THEN_CLOSE'), 'garbage');
    const r = convert([{ request: req, response: { fault: 'MALFORMED_RESPONSE_CHUNK' } }]);
    assert.equal(r.endpoints[0]!.fault, 'garbage');
    assert.match(messages(r.approximate), /MALFORMED_RESPONSE_CHUNK is sent as random bytes/);
    const unknown = convert([{ request: req, response: { fault: 'SOMETHING' } }]);
    assert.match(messages(unknown.skipped), /fault "SOMETHING" is not one mockdev can answer with/);
  });

  it('chunkedDribbleDelay becomes a drip at the rate that sends the body in the total duration, approximate', () => {
    const r = convert([
      {
        request: req,
        response: { body: 'x'.repeat(1000), chunkedDribbleDelay: { numberOfChunks: 5, totalDuration: 2000 } },
      },
    ]);
    assert.equal(r.endpoints[0]!.fault, 'drip:500');
    assert.match(messages(r.approximate), /chunkedDribbleDelay is sent as a steady 500 bytes per second/);
  });

  it('proxyBaseUrl makes a proxy endpoint whose target gets the whole path; a bad URL is skipped', () => {
    const e = only({
      request: { method: 'GET', urlPath: '/v1/users' },
      response: { proxyBaseUrl: 'https://api.example.com' },
    });
    assert.equal(e.kind, 'proxy');
    assert.deepEqual(e.proxy, { target: 'https://api.example.com', record: false });
    const r = convert([{ request: req, response: { proxyBaseUrl: 'ftp://x' } }]);
    assert.equal(r.endpoints.length, 0);
    assert.match(messages(r.skipped), /proxyBaseUrl "ftp:\/\/x" must be an http: or https: URL/);
  });

  it('templates are kept with the response-template transformer; otherwise the text is sent as written', () => {
    const kept = convert([
      { request: req, response: { body: '{{request.path}}', transformers: ['response-template'] } },
    ]);
    assert.equal(kept.templates, true);
    assert.equal(kept.endpoints[0]!.templating, undefined);
    const plain = convert([{ request: req, response: { body: '{{request.path}}' } }]);
    assert.equal(plain.templates, false);
    assert.equal(plain.endpoints[0]!.templating, false);
  });

  it('other transformers, scenarios and webhooks are reported approximate', () => {
    const r = convert([
      {
        request: req,
        response: { body: 'x', transformers: ['body-transformer'] },
        scenarioName: 'Cart',
        requiredScenarioState: 'Started',
        serveEventListeners: [{ name: 'webhook' }],
      },
    ]);
    assert.equal(r.endpoints.length, 1);
    const text = messages(r.approximate);
    assert.match(text, /transformer "body-transformer" is not applied/);
    assert.match(text, /scenario "Cart" \(state "Started"\) is not followed/);
    assert.match(text, /webhooks/);
  });

  it('a status outside 200 to 599 is skipped', () => {
    const r = convert([{ request: req, response: { status: 101 } }]);
    assert.match(messages(r.skipped), /response.status 101 is not a status from 200 to 599/);
  });
});
