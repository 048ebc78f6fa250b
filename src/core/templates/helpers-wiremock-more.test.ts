import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkTemplate, compileTemplate, type TemplateContext } from './engine.js';
import { maskMarks, markSecrets, stripMarks } from './marks.js';
import { RequestPath } from './request-path.js';

const request = (body: string, query: Record<string, string> = {}): TemplateContext['request'] => ({
  url: '/x',
  path: new RequestPath('/x', ['x']),
  pathSegments: ['x'],
  query,
  headers: {},
  body,
  method: 'POST',
});
const context = (body = '', query: Record<string, string> = {}): TemplateContext => ({
  params: {},
  query,
  headers: {},
  body,
  bodyRaw: body,
  method: 'POST',
  path: '/x',
  env: {},
  tunnel: { url: '' },
  request: request(body, query),
});
function render(source: string, body = '', query: Record<string, string> = {}): string {
  const flat = compileTemplate(source).render(context(body, query));
  const full = compileTemplate(source, { handlebarsOnly: true }).render(context(body, query));
  if (!/random|pickRandom/i.test(source)) assert.equal(flat, full, `flat and Handlebars differ on ${source}`);
  return full;
}

describe('WireMock helpers: text and regular expressions', () => {
  it('regexExtract: the first match, groups into a variable, a default', () => {
    assert.equal(render("{{regexExtract request.body '[A-Z]+'}}", 'abc-DEF-123'), 'DEF');
    assert.equal(
      render(
        "{{regexExtract request.body '([a-z]+)-([A-Z]+)-([0-9]+)' 'parts'}}{{parts.[0]}},{{parts.[1]}},{{parts.[2]}}",
        'abc-DEF-123',
      ),
      'abc,DEF,123',
    );
    assert.equal(render("{{regexExtract request.body '[0-9]+' default='none'}}", 'abc'), 'none');
    assert.throws(() => render("{{regexExtract request.body '(a)\\1'}}", 'aa'), /backreference/);
    assert.throws(
      () => render("{{regexExtract request.body '(x)' 'request'}}", 'x'),
      /cannot assign to "request"/,
    );
    assert.throws(() => render("{{regexExtract request.body '(x)' '__proto__'}}", 'x'), /cannot assign/);
  });
  it('regexExtract and matches run in linear time on a pattern that backtracks', () => {
    const started = Date.now();
    const evil = `${'a'.repeat(50_000)}!`;
    assert.equal(render("{{matches request.body '(a+)+'}}", evil), 'false');
    assert.equal(render("{{regexExtract request.body '(a|aa)+$' default='no'}}", evil), 'no');
    assert.ok(Date.now() - started < 10_000);
  });
  it('matches (whole text), contains (text or list), size, their block forms', () => {
    assert.equal(render("{{matches '123' '[0-9]+'}} {{matches 'x123' '[0-9]+'}}"), 'true false');
    assert.equal(render("{{#matches request.body '^a.*'}}yes{{else}}no{{/matches}}", 'abc'), 'yes');
    assert.equal(render("{{contains 'abcde' 'abc'}} {{contains (array 'a' 'b') 'c'}}"), 'true false');
    assert.equal(render("{{#contains request.body 'b'}}has b{{/contains}}", 'abc'), 'has b');
    assert.equal(render("{{size 'abcde'}} {{size (array 1 2)}} {{size (parseJson '{\"a\":1}')}}"), '5 2 1');
  });
  it('base64, urlEncode, trim and abbreviate, inline and as blocks', () => {
    assert.equal(
      render("{{base64 'hello'}} {{base64 'aGVsbG8=' decode=true}} {{base64 'a' padding=false}}"),
      'aGVsbG8= hello YQ',
    );
    assert.equal(render('{{#base64}}hi{{/base64}}'), 'aGk=');
    assert.equal(render("{{urlEncode 'a b/c'}} {{urlEncode 'a%20b+c' decode=true}}"), 'a%20b%2Fc a b c');
    assert.equal(render("[{{trim '  x y  '}}] [{{#trim}}  z  {{/trim}}]"), '[x y] [z]');
    assert.equal(
      render("{{abbreviate 'Mocking APIs helps you develop faster' 21}}|{{abbreviate 'short' 21}}"),
      'Mocking APIs helps...|short',
    );
  });
  it('formData reads a form body, decoded on request', () => {
    assert.equal(
      render("{{formData request.body 'form' urlDecode=true}}{{form.b}}|{{form.c}}", 'a=1&b=x%20y&c=2'),
      'x y|2',
    );
    assert.equal(render("{{lookup (formData request.body) 'a'}}", 'a=1&a=2'), '1');
  });
});

describe('WireMock helpers: numbers, values, lists and JSON', () => {
  it('math and val (or / default / assign)', () => {
    assert.equal(
      render("{{math 1 '+' 2}} {{math 10 '-' 4}} {{math 3 '*' 4}} {{math 10 '/' 4}} {{math 10 '%' 3}}"),
      '3 6 12 2.5 1',
    );
    assert.throws(() => render("{{math 1 '^' 2}}"), /not one of/);
    assert.equal(
      render("{{val request.query.q or='none'}} {{val request.query.q default='d'}} {{val 'x'}}"),
      'none d x',
    );
    assert.equal(render('{{val request.query.q}}', '', { q: 'v' }), 'v');
    assert.equal(render("{{val (array 1 2) assign='nums'}}{{#each nums}}{{this}};{{/each}}"), '1;2;');
  });
  it('array, range, pickRandom, arrayAdd, arrayRemove (rendered as JSON)', () => {
    assert.equal(
      render("{{array 1 'two' true}}|{{array}}|{{toJson (array 1 'two')}}"),
      '1,two,true||[1,"two"]',
    );
    assert.equal(render('{{range 3 6}} {{range -1 1}}'), '[3,4,5,6] [-1,0,1]');
    assert.throws(() => render('{{range 0 100000000}}'), /range: more than 10000/);
    assert.match(render("{{pickRandom 'a' 'b' 'c'}}"), /^[abc]$/);
    assert.match(render('{{pickRandom (array 1 2 3)}}'), /^[123]$/);
    const two = JSON.parse(render('{{pickRandom (array 1 2 3) count=2}}')) as number[];
    assert.equal(new Set(two).size, 2);
    assert.equal(render("{{arrayAdd (array 1 'three') 2 position=1}}"), '[1,2,"three"]');
    assert.equal(render("{{arrayAdd (array 1) 0 position='start'}} {{arrayAdd (array 1) 2}}"), '[0,1] [1,2]');
    assert.equal(
      render(
        "{{arrayRemove (array 1 2 3) position=1}} {{arrayRemove (array 1 2 3)}} {{arrayRemove (array 1 2 3) position='start'}}",
      ),
      '[1,3] [1,2] [2,3]',
    );
    assert.throws(() => render('{{arrayAdd (array 1) 2 position=9}}'), /outside the array/);
  });
  it('join: separator first (WireMock), array first (Mockoon), prefix/suffix and block', () => {
    assert.equal(render("{{join ',' (array 'One' 'Two' 'Three')}}"), 'One,Two,Three');
    assert.equal(render("{{join ' - ' 'a' 'b' 'c'}}"), 'a - b - c');
    assert.equal(render("{{join (array 'a' 'b')}} {{join (array 'a' 'b') '; '}}"), 'a,b a; b');
    assert.equal(render("{{join ',' (array 1 2) prefix='[' suffix=']'}}"), '[1,2]');
    assert.equal(
      render(
        "{{#join ',' (jsonPath request.body '$.items')}}{{name}}{{/join}}",
        '{"items":[{"name":"a"},{"name":"b"}]}',
      ),
      'a,b',
    );
  });
  it('parseJson and toJson', () => {
    assert.equal(render("{{parseJson request.body 'obj'}}{{obj.a.b}}", '{"a":{"b":"c"}}'), 'c');
    assert.equal(render('{{#parseJson \'o\'}}{"n": 5}{{/parseJson}}{{o.n}}'), '5');
    assert.equal(render('{{toJson (parseJson request.body)}}', '{ "a" : [1, 2] }'), '{"a":[1,2]}');
    assert.throws(() => render("{{parseJson 'nope'}}"), /parseJson: the text is not JSON/);
  });
  it('reaches no prototype', () => {
    assert.equal(
      render("{{jsonPath request.body '$.__proto__'}}|{{jsonPath request.body '$.toString'}}", '{}'),
      '|',
    );
    assert.equal(render("{{lookup (formData request.body) 'constructor'}}", 'a=1'), '');
  });
});

describe('WireMock helpers: secrets', () => {
  it('masks what a helper derives from a secret in the log copy', () => {
    const t = compileTemplate(
      "{{base64 env.TOKEN}} {{abbreviate env.TOKEN 5}} {{join ',' (array env.TOKEN 'x')}}",
      {
        trackSecrets: true,
      },
    );
    const ctx = { ...context(), env: markSecrets({ TOKEN: 'sekret-value' }, ['sekret-value']) };
    const out = t.render(ctx);
    assert.equal(stripMarks(out), `${Buffer.from('sekret-value').toString('base64')} se... sekret-value,x`);
    assert.equal(maskMarks(out), '******** ******** ********');
  });
});

describe('WireMock helpers: literal arguments refused at save', () => {
  it('names what is wrong, with the line and column', () => {
    const cases: [string, RegExp][] = [
      ["{{regexExtract request.body '(a)\\1'}}", /regexExtract: the pattern .*backreference/],
      ["{{#matches request.body '(?=a)'}}x{{/matches}}", /matches: the pattern .*lookahead/],
      ["{{jsonPath request.body '$.a[?(oops)]'}}", /jsonPath: cannot read/],
      ["{{now offset='soon'}}", /now: offset "soon" is not/],
      ['{{randomValue length=100000}}', /randomValue: a length of 100000 is outside/],
      ["{{randomValue type='EMOJI'}}", /randomValue: type "EMOJI" is not one of/],
      ['{{range 1 1000000}}', /range: more than 10000/],
    ];
    for (const [source, message] of cases) {
      const problem = checkTemplate(source);
      assert.ok(problem, source);
      assert.match(problem.message, message);
      assert.equal(problem.line, 1);
    }
    assert.equal(
      checkTemplate("{{regexExtract request.body '[a-z]+'}} {{now offset='-2 days'}} {{range 1 10}}"),
      null,
    );
  });
});
