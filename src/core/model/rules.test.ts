import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MockdevError } from '../errors.js';
import { EndpointSchema } from './endpoint.js';
import {
  assertRulesSavable,
  formatRule,
  parseRule,
  RulesSchema,
  StoredRulesSchema,
  toRule,
} from './rules.js';

const invalid = (text: string, pattern: RegExp) =>
  assert.throws(
    () => parseRule(text),
    (e: unknown) => e instanceof MockdevError && e.code === 'INVALID_ARGUMENT' && pattern.test(e.message),
  );

describe('variation rules', () => {
  it('parses every source and operator', () => {
    assert.deepEqual(parseRule('query.page=2'), { source: 'query', key: 'page', op: 'equals', value: '2' });
    assert.deepEqual(parseRule('header.x-role~^adm'), {
      source: 'header',
      key: 'x-role',
      op: 'regex',
      value: '^adm',
    });
    assert.deepEqual(parseRule('param.id=42'), { source: 'param', key: 'id', op: 'equals', value: '42' });
    assert.deepEqual(parseRule('body.user.id?'), { source: 'body', key: 'user.id', op: 'exists' });
    // The value is everything after the first operator sign, which may include more signs.
    assert.deepEqual(parseRule('query.q=a=b?'), { source: 'query', key: 'q', op: 'equals', value: 'a=b?' });
    assert.deepEqual(parseRule('query.q='), { source: 'query', key: 'q', op: 'equals', value: '' });
  });

  it('refuses bad rules with one clear message', () => {
    invalid('page=2', /expected <source>\.<key><op><value>/);
    invalid('cookie.a=1', /unknown source "cookie"/);
    invalid('query.=1', /expected|key is empty/);
    invalid('query. =1', /key is empty/);
    invalid('query.page', /expected/);
    invalid('body.id?x', /takes no value/);
    invalid('header.x~(', /not a valid regular expression/);
    invalid('header.x~(?=a)', /lookahead or lookbehind/);
    invalid('header.x~(a)\\1', /backreference/);
    invalid('header.x a=1', /"x a" is not a header name .*no request could match it/);
    invalid('header.x:y?', /"x:y" is not a header name/);
  });

  it('refuses an operator other than =, ~ and ?, naming the three', () => {
    const three = /unknown operator "(.+)": use = \(equals\), ~ \(regex\) or \? \(exists\)/;
    for (const [text, op] of [
      ['query.q!=x', '!='],
      ['header.x-a=~abc', '=~'],
      ['query.q==x', '=='],
      ['query.q!~x', '!~'],
      ['query.n<=5', '<='],
      ['query.n>5', '>'],
      ['query.n?=5', '?='],
      ['header.x~=a', '~='],
      ['query.q^=x', '^='],
      ['query.q$=x', '$='],
      ['query.q*=x', '*='],
      ['query.q|=x', '|='],
    ])
      assert.throws(
        () => parseRule(text!),
        (e: unknown) =>
          e instanceof MockdevError && e.code === 'INVALID_ARGUMENT' && three.exec(e.message)?.[1] === op,
        text,
      );
  });

  it('a value that starts with = or ~ is written with a backslash before it', () => {
    assert.deepEqual(parseRule('query.q=\\=x'), { source: 'query', key: 'q', op: 'equals', value: '=x' });
    assert.deepEqual(parseRule('header.x-a=\\~abc'), {
      source: 'header',
      key: 'x-a',
      op: 'equals',
      value: '~abc',
    });
    assert.deepEqual(parseRule('query.q=\\\\=x'), { source: 'query', key: 'q', op: 'equals', value: '\\=x' });
    assert.deepEqual(parseRule('query.q=\\d'), { source: 'query', key: 'q', op: 'equals', value: '\\d' });
    // In a regex the backslash stays: \= matches "=".
    assert.deepEqual(parseRule('query.q~\\=x'), { source: 'query', key: 'q', op: 'regex', value: '\\=x' });
    for (const value of ['=x', '~abc', '\\=x', '\\~', '\\\\', '\\d', 'a=b'])
      assert.deepEqual(
        parseRule(formatRule({ source: 'query', key: 'q', op: 'equals', value })).value,
        value,
      );
    assert.equal(formatRule({ source: 'query', key: 'q', op: 'regex', value: '~a' }), 'query.q~\\~a');
  });

  it('stored rules load whatever their pattern; saving refuses a new pattern the engine cannot run', () => {
    const look = { source: 'header' as const, key: 'x', op: 'regex' as const, value: '(?=a)' };
    assert.equal(StoredRulesSchema.safeParse([look]).success, true);
    assert.equal(RulesSchema.safeParse([look]).success, false);
    assert.equal(StoredRulesSchema.safeParse([{ source: 'query', key: 'a', op: 'equals' }]).success, false);
    assert.throws(
      () => assertRulesSavable([{ name: 'v', rules: [look] }]),
      /Invalid rule "header\.x~\(\?=a\)" of variation "v": .*lookahead/,
    );
    // Already stored (an earlier mockdev, a hand edit): other changes still save.
    assert.doesNotThrow(() => assertRulesSavable([{ name: 'v2', rules: [look] }], [{ rules: [look] }]));
  });

  it('formats back to the CLI syntax', () => {
    for (const text of ['query.page=2', 'header.x-role~^adm', 'body.user.id?', 'param.id='])
      assert.equal(formatRule(parseRule(text)), text);
    assert.deepEqual(toRule({ source: 'query', key: 'a', op: 'exists' }), {
      source: 'query',
      key: 'a',
      op: 'exists',
    });
  });

  it('the schema checks values and regexes of stored rules', () => {
    assert.equal(RulesSchema.safeParse([{ source: 'query', key: 'a', op: 'equals' }]).success, false);
    assert.equal(
      RulesSchema.safeParse([{ source: 'query', key: 'a', op: 'regex', value: '[' }]).success,
      false,
    );
    assert.equal(RulesSchema.safeParse([{ source: 'query', key: '', op: 'exists' }]).success, false);
    assert.equal(
      RulesSchema.safeParse([{ source: 'query', key: 'a', op: 'exists', value: 'x' }]).success,
      false,
    );
    assert.equal(RulesSchema.safeParse([{ source: 'body', key: 'a.b', op: 'exists' }]).success, true);
  });

  it('endpoints without rules or mode still load; variation names are unique', () => {
    const base = { id: 'e', name: 'e', method: 'GET', path: '/x', status: 200 };
    const v = (id: string, name: string) => ({ id, name, status: 404 });
    const loaded = EndpointSchema.parse({ ...base, variations: [v('a', 'one')] });
    assert.equal(loaded.mode, undefined);
    assert.equal(loaded.variations[0]!.rules, undefined);
    assert.equal(
      EndpointSchema.safeParse({ ...base, variations: [v('a', 'one'), v('b', 'ONE')] }).success,
      false,
    );
    assert.equal(EndpointSchema.safeParse({ ...base, mode: 'sometimes' }).success, false);
    assert.equal(EndpointSchema.safeParse({ ...base, mode: 'random' }).success, true);
  });
});
