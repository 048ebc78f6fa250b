import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Endpoint, Variation } from '../core/model/endpoint.js';
import { parseRule } from '../core/model/rules.js';
import type { ResponsePlan } from './compile.js';
import type { Exchange } from './exchange.js';
import { compileChoice } from './variations.js';

const variation = (name: string, status: number, rules: string[] = []): Variation => ({
  id: `id-${name}`,
  name,
  status,
  headers: {},
  body: '',
  contentType: 'application/json',
  delay: status,
  ...(rules.length ? { rules: rules.map(parseRule) } : {}),
});

const endpoint = (variations: Variation[], extra: Partial<Endpoint> = {}): Endpoint => ({
  id: 'e',
  name: 'e',
  method: 'POST',
  path: '/users/:id',
  status: 200,
  headers: {},
  body: '',
  contentType: 'application/json',
  delay: 200,
  enabled: true,
  kind: 'mock',
  variations,
  ...extra,
});

/** A plan whose delay is the response's status, so a test can tell which one was chosen. */
const plan = (r: { status: number }): ResponsePlan => ({ delay: r.status });

const request = (url: string, headers: Record<string, string> = {}, body?: string): Exchange =>
  ({
    req: { rawHeaders: Object.entries(headers).flat() },
    url,
    method: 'POST',
    body: body === undefined ? null : Buffer.from(body),
    bodyTruncated: false,
  }) as unknown as Exchange;

const chosen = (e: Endpoint, ex: Exchange) => compileChoice(e, plan).choose(ex).delay;

describe('variation selection', () => {
  it('without variations, the default response', () => {
    assert.equal(chosen(endpoint([]), request('/users/1')), 200);
  });

  it('rules: query, header, param and body with equals, regex and exists', () => {
    const e = endpoint([
      variation('page2', 402, ['query.page=2']),
      variation('admin', 403, ['header.X-Role~^adm']),
      variation('seven', 407, ['param.id=7']),
      variation('user', 409, ['body.user.id?']),
      variation('code', 410, ['body.code=5', 'query.all?']),
      variation('plain', 411),
    ]);
    const { choose } = compileChoice(e, plan);
    const at = (ex: Exchange) => choose(ex).delay;
    assert.equal(at(request('/users/1?page=2')), 402);
    assert.equal(at(request('/users/1?page=3')), 200);
    assert.equal(at(request('/users/1?page=1&page=2')), 402, 'any value of a repeated parameter');
    assert.equal(at(request('/users/1', { 'x-role': 'admin' })), 403, 'header names in any case');
    assert.equal(at(request('/users/1', { 'X-ROLE': 'user' })), 200);
    assert.equal(at(request('/users/7')), 407);
    assert.equal(at(request('/users/7/')), 407);
    assert.equal(at(request('/users/70')), 200);
    assert.equal(at(request('/users/1', {}, '{"user":{"id":null}}')), 409, 'present, even null');
    assert.equal(at(request('/users/1', {}, '{"user":{}}')), 200);
    assert.equal(at(request('/users/1', {}, 'not json')), 200);
    assert.equal(at(request('/users/1?all', {}, '{"code":5}')), 410, 'numbers compare as JSON text');
    assert.equal(at(request('/users/1', {}, '{"code":5}')), 200, 'all rules must match');
    // The first matching variation wins.
    assert.equal(at(request('/users/7?page=2')), 402);
  });

  it('param rules read whole-segment and mixed-segment parameters, decoded', () => {
    const whole = endpoint([variation('a', 401, ['param.name=a b'])], { path: '/files/{name}' });
    assert.equal(chosen(whole, request('/files/a%20b?x=1')), 401);
    assert.equal(chosen(whole, request('/files/ab')), 200);
    const mixed = endpoint([variation('json', 402, ['param.name~^rep'])], { path: '/files/{name}.json' });
    assert.equal(chosen(mixed, request('/files/report.json')), 402);
    assert.equal(chosen(mixed, request('/files/data.json')), 200);
  });

  it('a variation without rules is never chosen by rules', () => {
    assert.equal(chosen(endpoint([variation('plain', 404)]), request('/users/1')), 200);
  });

  it('the request header names a variation by name (any case) or id; unknown is ignored', () => {
    const e = endpoint([variation('missing', 404), variation('page2', 402, ['query.page=2'])]);
    assert.equal(chosen(e, request('/users/1', { 'X-Mockdev-Variation': 'Missing' })), 404);
    assert.equal(chosen(e, request('/users/1', { 'x-mockdev-variation': 'id-missing' })), 404);
    assert.equal(chosen(e, request('/users/1?page=2', { 'X-Mockdev-Variation': 'nope' })), 402);
    const active = endpoint(e.variations, { activeVariationId: 'id-page2' });
    assert.equal(
      chosen(active, request('/users/1', { 'X-Mockdev-Variation': 'missing' })),
      404,
      'over active',
    );
  });

  it('the active variation answers every request', () => {
    const e = endpoint([variation('a', 401, ['query.a?']), variation('b', 402)], {
      activeVariationId: 'id-b',
    });
    assert.equal(chosen(e, request('/users/1?a')), 402);
  });

  it('sequential: the default, then each variation, round and round', () => {
    const { choose } = compileChoice(
      endpoint([variation('a', 401), variation('b', 402)], { mode: 'sequential' }),
      plan,
    );
    const seen = Array.from({ length: 7 }, () => choose(request('/users/1')).delay);
    assert.deepEqual(seen, [200, 401, 402, 200, 401, 402, 200]);
  });

  it('random: the default and every variation come up', () => {
    const { choose } = compileChoice(
      endpoint([variation('a', 401), variation('b', 402)], { mode: 'random' }),
      plan,
    );
    const seen = new Set<number>();
    for (let i = 0; i < 500 && seen.size < 3; i++) seen.add(choose(request('/users/1')).delay);
    assert.deepEqual([...seen].sort(), [200, 401, 402]);
  });

  it('a regex rule runs in linear time: a pattern that backtracks for hours answers at once', () => {
    const e = endpoint([
      variation('r', 401, ['header.x-r~(a+)+$']),
      variation('q', 402, ['query.q~^[0-9]+$']),
    ]);
    const { choose } = compileChoice(e, plan);
    const started = Date.now();
    assert.equal(choose(request('/users/1', { 'X-R': `${'a'.repeat(60)}!` })).delay, 200);
    assert.equal(choose(request('/users/1', { 'X-R': 'aaa' })).delay, 401);
    assert.equal(choose(request('/users/1?q=42')).delay, 402);
    assert.equal(choose(request('/users/1?q=4x')).delay, 200);
    assert.ok(Date.now() - started < 5_000);
  });

  it('a stored pattern the engine cannot run never matches, and is reported once', () => {
    const bad = variation('look', 401);
    bad.rules = [{ source: 'header', key: 'x-a', op: 'regex', value: '^(?!adm)' }];
    const warnings: string[] = [];
    const { choose } = compileChoice(endpoint([bad, variation('b', 402, ['query.b?'])]), plan, (m) =>
      warnings.push(m),
    );
    assert.equal(choose(request('/users/1', { 'X-A': 'user' })).delay, 200, 'never matches');
    assert.equal(choose(request('/users/1?b', { 'X-A': 'user' })).delay, 402, 'the others still do');
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0]!,
      /variation "look": the rule header\.x-a~\^\(\?!adm\) never matches: .*lookahead/,
    );
  });
});
