import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MockdevError } from '../errors.js';
import {
  assertTemplate,
  checkTemplate,
  compileTemplate,
  loadFaker,
  OutputLimitError,
  type TemplateContext,
} from './engine.js';
import { markSecrets, maskMarks, stripMarks } from './marks.js';

/** Mockoon's helpers through the real engine, both renderers (flat and Handlebars). */

const context = (over: Partial<TemplateContext> = {}): TemplateContext => ({
  params: { id: '42' },
  query: { page: '2', type: 'b' },
  headers: { cookie: 'session=abc; theme=dark' },
  body: {
    users: [
      { name: 'Ada', age: 36, role: 'admin' },
      { name: 'Bob', age: 25, role: 'user' },
      { name: 'Cy', age: 30, role: 'user' },
    ],
    csv: 'a,b,c',
  },
  bodyRaw: '',
  method: 'GET',
  path: '/users/42',
  env: {},
  tunnel: { url: '' },
  hostname: 'api.local',
  ip: '127.0.0.1',
  request: { url: '/', path: '/', pathSegments: [], query: {}, headers: {}, body: '', method: 'GET' },
  ...over,
});
/** One render (random helpers: flat and Handlebars renders differ). */
const once = (source: string, over?: Partial<TemplateContext>) =>
  compileTemplate(source).render(context(over));
const render = (source: string, over?: Partial<TemplateContext>) => {
  const flat = compileTemplate(source).render(context(over));
  const full = compileTemplate(source, { handlebarsOnly: true }).render(context(over));
  assert.equal(flat, full, `flat and Handlebars renders differ for ${source}`);
  return full;
};

describe('Mockoon helpers: comparisons and logic', () => {
  it('eq, gt, gte, lt, lte (numbers or numeric texts), in #if', () => {
    assert.equal(render('{{eq 1 1}} {{eq "a" "a"}} {{eq 1 "1"}} {{eq "a" "b"}}'), 'true true false false');
    assert.equal(
      render('{{gt 2 1}} {{gt "10" 9}} {{gte 2 2}} {{lt 1 2}} {{lte 3 2}} {{gt "x" 1}}'),
      'true true true true false false',
    );
    assert.equal(render("{{#if (gt (queryParam 'page') 1)}}more{{else}}first{{/if}}"), 'more');
  });
  it('and, or, not', () => {
    assert.equal(
      render('{{and true 1 "x"}} {{and true 0}} {{or false "" 1}} {{or false 0}} {{not ""}} {{not 1}}'),
      'true false true false true false',
    );
    assert.equal(
      render("{{#if (and (eq (queryParam 'type') 'b') (not (eq method 'POST')))}}ok{{/if}}"),
      'ok',
    );
  });
});

describe('Mockoon helpers: math', () => {
  it('add, subtract, multiply, divide, modulo over numbers and numeric texts', () => {
    assert.equal(
      render("{{add 1 2 '3'}} {{subtract 10 2 3}} {{multiply 2 '3'}} {{divide 10 4}} {{modulo 10 3}}"),
      '6 5 6 2.5 1',
    );
    assert.equal(
      render('{{#repeat 2 comma=false}}{{add @index 1}}{{/repeat}}|{{divide 1 0}}|{{add "x" 1}}'),
      '12||',
    );
  });
  it('ceil, floor, round, toFixed, parseInt', () => {
    assert.equal(
      render(
        "{{ceil 1.2}} {{floor 1.8}} {{round 1.5}} {{toFixed 3.14159 2}} {{toFixed '2' 1}} {{parseInt '42px'}}",
      ),
      '2 1 2 3.14 2.0 42',
    );
    assert.equal(render('[{{toFixed "x" 2}}][{{parseInt "x"}}]'), '[][]');
  });
});

describe('Mockoon helpers: strings', () => {
  it('includes, indexOf, substr, split, concat, padStart, padEnd, replace, newline', () => {
    assert.equal(
      render("{{includes 'hello' 'ell'}} {{includes 'hello' 'x'}} {{indexOf 'abcabc' 'c' 3}}"),
      'true false 5',
    );
    assert.equal(render("{{substr 'abcdef' 2 3}} {{substr 'abcdef' 3}}"), 'cde def');
    assert.equal(
      render("{{#each (split body.csv ',')}}[{{this}}]{{/each}} {{len (split 'a b c')}}"),
      '[a][b][c] 3',
    );
    assert.equal(render("{{concat 'id-' (urlParam 'id') '-' @index}}"), 'id-42-');
    assert.equal(
      render("{{padStart '7' 3 '0'}} {{padEnd 'ab' 4 '.'}} {{padStart 'long' 2}}"),
      '007 ab.. long',
    );
    assert.equal(render("{{replace 'a-b-c' '-' '+'}} {{replaceAll 'a-b-c' '-' '$&'}}"), 'a+b-c a$&b$&c');
    assert.equal(render('a{{newline}}b'), 'a\nb');
  });
  it('stringify (indented by 2) and jsonParse', () => {
    assert.equal(render('{{{stringify (jsonParse \'{"a":[1]}\')}}}'), '{\n  "a": [\n    1\n  ]\n}');
    assert.equal(render("{{lookup (jsonParse '{\"a\":\"x\"}') 'a'}}[{{jsonParse 'not json'}}]"), 'x[]');
  });
  it('padStart beyond the output limit fails the render before building the text', () => {
    const t = "{{#repeat 1000}}{{padStart 'a' 99999999}}{{padStart 'a' 99999999}}{{/repeat}}";
    assert.throws(() => once(t), OutputLimitError);
    assert.equal(once("{{padStart 'a' 99999999}}").length, 10_001);
  });
});

describe('Mockoon helpers: arrays and objects', () => {
  it('len of an array or a text; 0 otherwise', () => {
    assert.equal(render("{{len body.users}} {{len 'abcd'}} {{len 5}}"), '3 4 0');
  });
  it('someOf: between min and max distinct items; as a JSON array with asArray', () => {
    for (let i = 0; i < 20; i++) {
      const out = JSON.parse(once("{{{someOf (split 'a b c d') 1 3 true}}}")) as string[];
      assert.ok(out.length >= 1 && out.length <= 3, String(out));
      assert.equal(new Set(out).size, out.length);
      for (const x of out) assert.ok(['a', 'b', 'c', 'd'].includes(x));
    }
    assert.equal(once("{{someOf (split 'a b') 2 2}}").split(',').sort().join(','), 'a,b');
  });
  it('slice, reverse, sort, sortBy, filter, find, object, objectMerge, objectPath', () => {
    assert.equal(
      render("{{slice (split 'a b c d') 1 3}} {{reverse (split 'a b c')}} {{reverse 'abc'}}"),
      'b,c c,b,a cba',
    );
    assert.equal(render("{{sort (split 'b c a')}} {{sort (split 'b c a') 'desc'}}"), 'a,b,c c,b,a');
    assert.equal(render("{{#each (sortBy body.users 'age')}}{{name}} {{/each}}"), 'Bob Cy Ada ');
    assert.equal(render("{{#each (filter body.users (object role='user'))}}{{name}} {{/each}}"), 'Bob Cy ');
    assert.equal(render("{{lookup (find body.users (object name='Cy')) 'age'}}"), '30');
    assert.equal(
      render('{{{stringify (objectMerge (object a=1) (object b=2)) }}}'),
      '{\n  "a": 1,\n  "b": 2\n}',
    );
    assert.equal(render("{{objectPath body 'users.1.name'}}"), 'Bob');
  });
  it('reads no prototype: paths and conditions see own properties only', () => {
    assert.equal(
      render("[{{objectPath body 'users.constructor'}}][{{objectPath body '__proto__'}}]"),
      '[][]',
    );
    assert.equal(render("{{len (filter body.users (object toString='x'))}}"), '0');
    const merged = '{{lookup (objectMerge (jsonParse \'{"__proto__":{"polluted":1}}\')) \'polluted\'}}';
    assert.equal(render(merged), '');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});

describe('Mockoon helpers: variables, switch, data', () => {
  it('setVar/getVar: request-scoped, also @name in the block; forgotten after the render', () => {
    const t = compileTemplate(
      "{{setVar 'n' (add 1 2)}}{{getVar 'n'}} {{@n}} {{#each body.users}}{{getVar 'n'}}{{/each}}",
    );
    assert.equal(t.render(context()), '3 3 333');
    assert.equal(compileTemplate("[{{getVar 'n'}}]").render(context()), '[]');
  });
  it('setVar keeps a secret marked: getVar writes it masked in the log copy', () => {
    const env = markSecrets({ TOKEN: 's3cret' }, ['s3cret']);
    const t = compileTemplate("{{setVar 't' env.TOKEN}}token={{getVar 't'}}", { trackSecrets: true });
    const out = t.render(context({ env }));
    assert.equal(stripMarks(out), 'token=s3cret');
    assert.equal(maskMarks(out, '***'), 'token=***');
  });
  it('switch/case/default: the first matching case, else default', () => {
    const t =
      "{{#switch (queryParam 'type')}}{{#case 'a'}}A{{/case}}{{#case 'b'}}B{{/case}}{{#case 'b'}}B2{{/case}}{{#default}}D{{/default}}{{/switch}}";
    assert.equal(render(t), 'B');
    assert.equal(render(t, { query: { type: 'z' } }), 'D');
  });
  it('guid, objectId, boolean', () => {
    assert.match(once('{{guid}}'), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.match(once('{{objectId}}'), /^[0-9a-f]{24}$/);
    assert.equal(render("{{objectId '507f1f77bcf86cd799439011'}}"), '507f1f77bcf86cd799439011');
    assert.match(once('{{boolean}}'), /^(true|false)$/);
    // Seeded: the same random part for the same key (the counter part differs).
    const seeded = "{{#seed 'k'}}{{objectId 0}}{{/seed}}";
    assert.equal(once(seeded).slice(0, 18), once(seeded).slice(0, 18));
  });
  it('queryParamRaw, cookie, hostname, ip', () => {
    assert.equal(
      render("{{queryParamRaw 'page'}} {{queryParamRaw 'x' 'd'}} {{cookie 'theme'}} {{cookie 'no' 'none'}}"),
      '2 d dark none',
    );
    assert.equal(render('{{hostname}} {{ip}}'), 'api.local 127.0.0.1');
    // A field of the current item wins over a helper called alone.
    const servers = { servers: [{ ip: '10.0.0.1', hostname: 'a' }, { ip: '10.0.0.2' }] };
    assert.equal(
      render('{{#each body.servers}}{{ip}}/{{hostname}} {{/each}}', { body: servers }),
      '10.0.0.1/a 10.0.0.2/api.local ',
    );
  });
  it('dateTimeShift, dateFormat, isValidDate', () => {
    assert.equal(
      render("{{dateTimeShift date='2024-01-31T10:00:00Z' days=1 hours=2 format=\"yyyy-MM-dd'T'HH:mm\"}}"),
      '2024-02-01T12:00',
    );
    assert.equal(
      render("{{dateTimeShift date='2024-01-15T00:00:00.000Z' months=1}}"),
      '2024-02-15T00:00:00.000Z',
    );
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    assert.equal(render("{{dateTimeShift days=1 format='yyyy-MM-dd'}}"), tomorrow);
    for (let i = 0; i < 10; i++)
      assert.match(once("{{time '09:00' '10:30'}}"), /^(09:\d\d|10:[0-2]\d|10:30)$/);
    assert.equal(render("{{time '08:15' '08:15' 'HH:mm:ss'}}"), '08:15:00');
    assert.equal(
      render(
        "{{dateFormat '2024-03-05T06:07:08Z' 'dd/MM/yyyy'}} {{isValidDate '2024-01-01'}} {{isValidDate 'nope'}}",
      ),
      '05/03/2024 true false',
    );
  });
  it('dataBucket is refused at save naming what to use; data and dataRaw are known (resources)', () => {
    const p = checkTemplate(`{"a": {{dataBucket 'users'}}}`)!;
    assert.match(
      p.message,
      /Helper "dataBucket" at line 1, column 7 needs a data bucket.*resource.*issue 26/,
    );
    for (const name of ['data', 'dataRaw']) assert.equal(checkTemplate(`{"a": {{${name} 'users'}}}`), null);
    // A field named `data` (no arguments) is still a field.
    assert.equal(checkTemplate('{{#each body.items}}{{data}}{{/each}}'), null);
  });
});

describe('Mockoon helpers: the engine', () => {
  it('repeat comma=true writes a valid JSON array (Mockoon), @total given', () => {
    const out = render('[{{#repeat 3 comma=true}}{"i": {{@index}}, "of": {{@total}}}{{/repeat}}]');
    assert.deepEqual(JSON.parse(out), [
      { i: 0, of: 3 },
      { i: 1, of: 3 },
      { i: 2, of: 3 },
    ]);
    // comma is on unless turned off (Mockoon's default) or a separator is given
    assert.equal(render('{{#repeat 2}}x{{/repeat}}'), 'x,\nx\n');
    assert.equal(render('{{#repeat 2 comma=false}}x{{/repeat}}'), 'xx');
    assert.equal(render("{{#repeat 2 separator=';'}}x{{/repeat}}"), 'x;x');
  });
  it('unless, each, with work whatever else a template names', () => {
    assert.equal(render("{{#unless (eq (queryParam 'page') '1')}}not first{{/unless}}"), 'not first');
    assert.equal(render('{{#unless query.none}}none{{/unless}}'), 'none');
    assert.equal(render('{{#body.users}}{{name}},{{/body.users}}'), 'Ada,Bob,Cy,');
    assert.equal(render('{{#with body}}{{csv}}{{/with}}'), 'a,b,c');
    // docs/templates.md's example
    const items = { items: [{ id: 1 }, { id: 2 }] };
    const example = '[{{#each body.items}}{"id": "{{id}}"}{{#unless @last}},{{/unless}}{{/each}}]';
    assert.deepEqual(JSON.parse(render(example, { body: items })), [{ id: '1' }, { id: '2' }]);
  });
  it('an unknown helper is refused with its position and the closest names, without Handlebars wording', () => {
    const p = checkTemplate('{\n  "a": {{nope 1}}\n}')!;
    assert.equal(p.line, 2);
    assert.equal(p.column, 8);
    assert.match(p.message, /^Unknown helper "nope" at line 2, column 8; closest known: /);
    assert.match(checkTemplate("{{len (padStrat 'a' 3)}}")!.message, /closest known: padStart/);
    assert.throws(
      () => assertTemplate('{{#if (eqq 1 1)}}x{{/if}}', 'body'),
      (e: unknown) =>
        e instanceof MockdevError &&
        /^Invalid template in body: Unknown helper "eqq" at line 1, column 7; closest known: eq/.test(
          e.message,
        ) &&
        !/knownHelpersOnly/.test(e.message),
    );
    assert.throws(() => compileTemplate('{{nope 1}}'), /Unknown helper "nope"/);
  });
});

describe('Mockoon helpers: encodings, JWT, fake-data names', () => {
  const jwt = [
    { alg: 'HS256', typ: 'JWT' },
    { sub: 'u1', user: { name: 'Ada' } },
  ]
    .map((p) => Buffer.from(JSON.stringify(p)).toString('base64url'))
    .concat('sig')
    .join('.');
  it('base64Decode, base64url, base64urlDecode (a value or a block)', () => {
    assert.equal(
      render("{{base64Decode 'aGVsbG8='}} {{base64url 'a?b>'}} {{base64urlDecode 'YT9iPg'}}"),
      'hello YT9iPg a?b>',
    );
    assert.equal(render('{{#base64url}}{{urlParam "id"}}{{/base64url}}'), 'NDI');
  });
  it('jwtPayload and jwtHeader, at a path; a bearer prefix is dropped; not a JWT: empty', () => {
    const headers = { authorization: `Bearer ${jwt}` };
    assert.equal(
      render(
        "{{jwtPayload (header 'Authorization') 'user.name'}} {{jwtHeader (header 'Authorization') 'alg'}}",
        { headers },
      ),
      'Ada HS256',
    );
    assert.equal(render("[{{jwtPayload 'nope'}}][{{jwtPayload 'a.b.c' 'sub'}}]"), '[][]');
  });
  it("Mockoon's fake-data names and getVar at a path", async () => {
    await loadFaker();
    assert.match(once('{{ipv4}}'), /^\d+\.\d+\.\d+\.\d+$/);
    assert.match(once('{{hexColor}}'), /^#[0-9a-f]{6}$/);
    assert.match(once('{{lat}},{{long}}'), /^-?[\d.]+,-?[\d.]+$/);
    for (const name of ['title', 'color', 'countryCode', 'zipcode', 'postcode', 'domain', 'tld', 'ipv6'])
      assert.ok(once(`{{${name}}}`).length > 0, name);
    assert.equal(once("{{setVar 'u' (jsonParse '{\"a\":{\"b\":7}}')}}{{getVar 'u' 'a.b'}}"), '7');
  });
});

describe('Mockoon helpers: jmesPath and the nested query', () => {
  it('jmesPath selects, defaults, and reaches no prototype', () => {
    assert.equal(once("{{jmesPath (bodyRaw 'users') '[?age > `30`].name | [0]'}}"), 'Ada');
    assert.equal(once("{{jmesPath (bodyRaw) 'nope' 'none'}}"), 'none');
    assert.equal(once("{{jmesPath (bodyRaw) '[[[' 'bad'}}"), 'bad');
    for (const path of ['constructor', 'users[0].constructor', '__proto__', 'csv.constructor'])
      assert.equal(once(`{{jmesPath (bodyRaw) '${path}' 'none'}}`), 'none', path);
  });
  it("queryParam and queryParamRaw read qs's nested view, never a prototype", () => {
    const query = { 'obj[prop1]': 'value', 'list[0]': 'a', 'list[1]': 'b', 'x[__proto__][y]': '1' };
    assert.equal(once("{{queryParam 'obj.prop1'}}", { query }), 'value');
    assert.equal(once("{{#each (queryParamRaw 'list')}}{{this}};{{/each}}", { query }), 'a;b;');
    assert.equal(
      once('{{{stringify (queryParamRaw)}}}', { query }),
      JSON.stringify({ obj: { prop1: 'value' }, list: ['a', 'b'] }, null, 2),
    );
    assert.equal(once("{{queryParam 'x.__proto__.y' 'none'}}", { query }), 'none');
    assert.equal(({} as Record<string, unknown>).y, undefined);
  });
});
