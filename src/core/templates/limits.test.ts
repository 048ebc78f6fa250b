import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  checkTemplate,
  compileTemplate,
  loadFaker,
  OutputLimitError,
  RENDER_OUTPUT_MAX,
  type TemplateContext,
} from './engine.js';
import { indentedLength } from './limits.js';

const context = (over: Partial<TemplateContext> = {}): TemplateContext =>
  ({ params: {}, query: {}, headers: {}, body: null, bodyRaw: '', env: {}, ...over }) as TemplateContext;
const render = (source: string, over?: Partial<TemplateContext>) =>
  compileTemplate(source).render(context(over));
const refused = (source: string, pattern: RegExp) => {
  const problem = checkTemplate(source);
  assert.ok(problem, `${source} is refused at save`);
  assert.match(problem.message, pattern, source);
};

describe('template limits: refused at save when the text itself breaks them', () => {
  it('a literal fake-data size over its limit, named with the limit', () => {
    refused(
      `{{faker 'string.alpha' 100000000}}`,
      /faker string\.alpha: a length of 100000000 .*limit of 10000/,
    );
    refused(`{{faker 'string.alpha' length=20000}}`, /length of 20000 is over the limit of 10000/);
    refused(`{{faker 'lorem.paragraphs' 5000}}`, /count of 5000 is over the limit of 1000/);
    refused(`{{#if a}}{{faker 'date.betweens' from=1 to=2 count=2000}}{{/if}}`, /count of 2000/);
    refused('{{paragraph 5000}}', /faker lorem\.paragraph: a count of 5000/);
    refused('{{#repeat 5000}}x{{/repeat}}', /repeat gives at most 1000 items, and 5000 were asked for/);
    // Values are not sizes; sizes from the request are checked when it renders.
    for (const ok of [
      `{{faker 'number.int' 1000000000}}`,
      `{{faker 'finance.amount' min=1 max=1000000}}`,
      `{{faker 'string.alpha' 10}}`,
      `{{faker 'string.alpha' (body 'n')}}`,
      '{{#repeat 1000}}x{{/repeat}}',
    ])
      assert.equal(checkTemplate(ok), null, ok);
  });
  it('{{log}} in any form, with the reason (it used to pass and fail every request)', () => {
    for (const source of ['{{log "x"}}', '{{log}}', '{{#if a}}{{log a}}{{/if}}', '{{json (log 1)}}'])
      refused(source, /unknown helper log: a template cannot write to the server log/);
    assert.equal(checkTemplate('{{this.log}}'), null);
  });
});

describe('template limits: stopped as the render goes, before the work', () => {
  before(() => loadFaker());
  it('a fake-data size from the request over its limit fails at once', () => {
    const started = performance.now();
    assert.throws(
      () => render(`{{faker 'string.alpha' (body 'n')}}`, { body: { n: 100_000_000 } }),
      /faker string\.alpha: a length of 100000000 is over the limit of 10000/,
    );
    assert.throws(
      () => render(`{{faker 'lorem.sentence' (body 'r')}}`, { body: { r: { min: 1e6, max: 1e6 } } }),
      /count of 1000000/,
    );
    assert.throws(
      () => render(`{{faker 'lorem.sentences' 3 (bodyRaw)}}`, { bodyRaw: 'x'.repeat(20_000) }),
      /a text of 20000 characters is over the limit/,
    );
    assert.ok(performance.now() - started < 5000);
  });
  it('all fake data of one response together is budgeted', () => {
    assert.throws(
      () =>
        render(`{{#repeat 1000}}{{faker 'lorem.paragraphs' (body 'n')}}{{/repeat}}`, { body: { n: 1000 } }),
      /more than 100000 characters of fake data/,
    );
    assert.equal(render(`{{#repeat 100 comma=false}}{{faker 'string.alpha' 10}}{{/repeat}}`).length, 1000);
  });
  it('each is a loop with a budget (nested over the request body)', () => {
    assert.throws(
      () => render('{{#each body}}{{#each ../body}}{{/each}}{{/each}}', { body: Array(100_000).fill(0) }),
      /each: more than 100000 iterations/,
    );
    assert.equal(render('{{#each body}}{{this}}{{/each}}', { body: [1, 2, 3] }), '123');
  });
  it('the output is counted as it grows: 10 MiB at most', () => {
    const big = { body: Array(1_000_000).fill(0) };
    for (const [source, over] of [
      ['{{#each body}}{{json ../body}}{{/each}}', big],
      ['{{#repeat 1000 separator=bodyRaw}}{{/repeat}}', { bodyRaw: 'x'.repeat(1e6) }],
      ['{{#repeat 1000}}{{bodyRaw}}{{/repeat}}', { bodyRaw: 'x'.repeat(1e6) }],
      ['{{json body 8}}', { body: JSON.parse('['.repeat(3000) + ']'.repeat(3000)) as unknown }],
      ['{{bodyRaw}}'.repeat(100), { bodyRaw: 'x'.repeat(10e6) }],
      ['{{#if 1}}{{/if}}' + '{{request.body}}'.repeat(100), { request: { body: 'x'.repeat(10e6) } }],
    ] as const)
      assert.throws(
        () => render(source, over as Partial<TemplateContext>),
        (e: unknown) => e instanceof OutputLimitError && /larger than the limit of 10 MiB/.test(e.message),
        source.slice(0, 40),
      );
    assert.equal(render('{{bodyRaw}}', { bodyRaw: 'x'.repeat(RENDER_OUTPUT_MAX) }).length, RENDER_OUTPUT_MAX);
  });
  it('json: the indented size is worked out exactly from the compact text', () => {
    for (const value of [{ a: [1, { b: 'x,y:[z]' }, [], {}], c: null }, [[[]], [{}], 'q"uo\\te'], 'plain'])
      for (const indent of [1, 2, 8])
        assert.equal(
          indentedLength(JSON.stringify(value), indent),
          JSON.stringify(value, null, indent).length,
          `${JSON.stringify(value)} ${indent}`,
        );
  });
});
