import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileTemplate, type TemplateContext } from './engine.js';
import { RequestPath } from './request-path.js';

const context = (over: Partial<TemplateContext> = {}): TemplateContext => ({
  params: {},
  query: { search: 'abc' },
  headers: {},
  body: '',
  bodyRaw: '',
  method: 'POST',
  path: '/things/42',
  env: {},
  tunnel: { url: '' },
  request: {
    url: '/things/42?search=abc',
    path: new RequestPath('/things/42', ['things', '42']),
    pathSegments: ['things', '42'],
    query: { search: 'abc' },
    headers: { 'x-id': 'abc', 'X-Id': 'abc' },
    cookies: { session: 's1' },
    body: '{"things":[{"id":1,"name":"One"},{"id":2,"name":"Two"}],"total":2}',
    method: 'POST',
    baseUrl: 'http://localhost:3000',
  },
  ...over,
});
/** Renders through both paths: the flat renderer and Handlebars itself. */
function render(source: string, over?: Partial<TemplateContext>): string {
  const flat = compileTemplate(source).render(context(over));
  const full = compileTemplate(source, { handlebarsOnly: true }).render(context(over));
  if (!/random|now|pickRandom|uuid|date '/.test(source))
    assert.equal(flat, full, `flat and Handlebars differ on ${source}`);
  return full;
}

describe('WireMock helpers: the request model', () => {
  it('reads request.path as text and by segment, cookies and the base URL', () => {
    assert.equal(
      render(
        '{{request.path}} {{request.path.[0]}} {{request.path.[1]}} {{request.cookies.session}} {{request.baseUrl}}',
      ),
      '/things/42 things 42 s1 http://localhost:3000',
    );
    assert.equal(render('{{uppercase request.path}}'), '/THINGS/42');
  });
});

describe('WireMock helpers: jsonPath', () => {
  it('selects values, lists, filters and deep keys', () => {
    assert.equal(render("{{jsonPath request.body '$.things[0].name'}}"), 'One');
    assert.equal(render("{{jsonPath request.body '$.things[-1].id'}}"), '2');
    assert.equal(render("{{jsonPath request.body '$.things[*].name'}}"), '["One","Two"]');
    assert.equal(render("{{jsonPath request.body '$.things[?(@.id == 2)].name'}}"), '["Two"]');
    assert.equal(render("{{jsonPath request.body '$..name'}}"), '["One","Two"]');
    assert.equal(render("{{jsonPath request.body '$.things[0]'}}"), '{"id":1,"name":"One"}');
    assert.equal(render("{{jsonPath request.body '$.nope' default='none'}}"), 'none');
    assert.equal(render("{{#each (jsonPath request.body '$.things')}}{{id}};{{/each}}"), '1;2;');
    assert.equal(render("{{jsonPath request.body '$.constructor'}}"), '');
  });
  it('a path it cannot read fails with one line naming it', () => {
    assert.throws(() => render("{{jsonPath request.body '$.things[?(oops)]'}}"), /jsonPath: cannot read/);
  });
});

describe('WireMock helpers: dates', () => {
  it('now with offset, format and timezone', () => {
    assert.match(render('{{now}}'), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/); // ours, unchanged
    assert.match(render("{{now format='yyyy-MM-dd'}}"), /^\d{4}-\d\d-\d\d$/);
    const inTen = Number(render("{{now offset='10 years' format='yyyy'}}"));
    assert.equal(inTen, new Date().getUTCFullYear() + 10);
    const epoch = Number(render("{{now offset='-1 days' format='epoch'}}"));
    assert.ok(Math.abs(epoch - (Date.now() - 864e5)) < 60_000);
    const unix = Number(render("{{now format='unix'}}"));
    assert.ok(Math.abs(unix - Date.now() / 1000) < 60);
    assert.match(render("{{now timezone='Asia/Kolkata'}}"), /\+05:30$/);
    assert.match(render("{{now timezone='Asia/Kolkata' format='HH:mm Z'}}"), /^\d\d:\d\d \+0530$/);
    assert.throws(() => render("{{now offset='soon'}}"), /offset "soon" is not/);
    assert.throws(() => render("{{now timezone='Mars/Base'}}"), /not a time zone/);
  });
  it('parseDate and date (WireMock), date between two (Mockoon)', () => {
    const h = { 'x-date': '2024-03-01T10:00:00Z' };
    const req = { ...context().request, headers: h };
    assert.equal(
      render("{{date (parseDate request.headers.x-date) offset='-1 days' format='yyyy-MM-dd'}}", {
        request: req,
      }),
      '2024-02-29',
    );
    assert.equal(render('{{parseDate request.headers.x-date}}', { request: req }), '2024-03-01T10:00:00Z');
    assert.equal(
      render("{{date (parseDate '01/02/2023' format='dd/MM/yyyy') format='yyyy-MM-dd'}}"),
      '2023-02-01',
    );
    assert.equal(render("{{date (parseDate '1700000000' format='unix') format='epoch'}}"), '1700000000000');
    const between = render("{{date '2020-11-20' '2020-11-25' 'yyyy-MM-dd'}}");
    assert.ok(between >= '2020-11-20' && between <= '2020-11-25', between);
    assert.throws(() => render("{{parseDate 'nope'}}"), /parseDate: "nope" is not a date/);
  });
});

describe('WireMock helpers: random values', () => {
  it('randomValue by type, length and case', () => {
    assert.match(render("{{randomValue length=33 type='ALPHANUMERIC'}}"), /^[A-Za-z0-9]{33}$/);
    assert.match(render("{{randomValue length=12 type='ALPHABETIC' uppercase=true}}"), /^[A-Z]{12}$/);
    assert.match(render("{{randomValue length=10 type='NUMERIC'}}"), /^\d{10}$/);
    assert.match(render("{{randomValue length=8 type='HEXADECIMAL'}}"), /^[0-9a-f]{8}$/);
    assert.match(render("{{randomValue type='UUID'}}"), /^[0-9a-f]{8}-[0-9a-f]{4}-4/);
    assert.equal(render("{{randomValue length=5 type='ALPHANUMERIC_AND_SYMBOLS'}}").length, 5);
    assert.throws(() => render('{{randomValue length=100000000}}'), /outside 0 to 10000/);
    assert.throws(() => render("{{randomValue type='EMOJI'}}"), /is not one of/);
  });
  it('randomInt (lower included, upper excluded) and randomDecimal; positional randomInt unchanged', () => {
    for (let i = 0; i < 50; i++) {
      const n = Number(render('{{randomInt lower=5 upper=9}}'));
      assert.ok(Number.isInteger(n) && n >= 5 && n < 9, String(n));
      const d = Number(render('{{randomDecimal lower=-10.1 upper=10.5}}'));
      assert.ok(d >= -10.1 && d <= 10.5, String(d));
      const p = Number(render('{{randomInt 1 3}}'));
      assert.ok(p >= 1 && p <= 3);
    }
  });
  it('is seeded inside {{#seed}}', () => {
    const t = "{{#seed 'k'}}{{randomValue length=20}} {{randomInt lower=0 upper=1000000}}{{/seed}}";
    assert.equal(render(t), render(t));
  });
});
