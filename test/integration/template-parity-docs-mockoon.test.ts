/**
 * Parity with Mockoon: the examples of Mockoon's templating documentation, each rendered over
 * HTTP by one `serve` and compared with the output Mockoon documents (random and date helpers:
 * by shape and range). Where an example reads a data bucket (not built yet), the same value
 * comes from the request body instead. Helpers refused on purpose are in parity-data.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { json, runDocExamples, within, type DocExample } from '../helpers/parity-docs.js';

const DAY = 86_400_000;
const body = (value: unknown): Pick<DocExample, 'method' | 'body'> => ({
  method: 'POST',
  body: JSON.stringify(value),
});
const bool = /^(true|false)$/;

// https://mockoon.com/docs/latest/templating/mockoon-helpers/ (blocks, arrays and objects)
const blocks: DocExample[] = [
  { template: '{{#repeat 5 10 comma=true}}test{{/repeat}}', want: /^test(,\ntest){4,9}\n$/ },
  // comma is on by default (Mockoon's `comma=true` default)
  { template: '[{{#repeat 2}}{"a":1}{{/repeat}}]', want: json([{ a: 1 }, { a: 1 }]) },
  { template: '{{#repeat 2 comma=false}}x{{/repeat}}', want: 'xx' },
  {
    template: `{{#switch (urlParam 'id')}}{{#case '1'}}"John"{{/case}}{{#case '2'}}"Jack"{{/case}}{{#default}}"Peter"{{/default}}{{/switch}}`,
    path: '/switch/:id',
    url: '/switch/2',
    want: '"Jack"',
  },
  { template: "{{array 'item1' 'item2' 'item3'}}", want: 'item1,item2,item3' },
  { template: "{{oneOf (array 'item1' 'item2' 'item3')}}", want: /^item[123]$/ },
  { template: "{{oneOf (array 'item1' 'item2' 'item3') true}}", want: /^"item[123]"$/ },
  { template: '{{oneOf (array 1 2 3) true}}', want: /^[123]$/ },
  { template: "{{oneOf 'item1' 'item2' 'item3'}}", want: /^item[123]$/ },
  { template: '{{oneOf 1 2 3}}', want: /^[123]$/ },
  { template: "{{someOf (array 'item1' 'item2' 'item3') 1 2}}", want: /^item[123](,item[123])?$/ },
  {
    template: "{{{someOf (array 'item1' 'item2' 'item3') 1 2 true}}}",
    want: /^\["item[123]"(,"item[123]")?\]$/,
  },
  { template: "{{join (array 'item1' 'item2' 'item3') '#'}}", want: 'item1#item2#item3' },
  { template: "{{slice (array 'item1' 'item2' 'item3') 0 2}}", want: 'item1,item2' },
  { template: "{{len (array 'item1' 'item2' 'item3')}}", want: '3' },
  { template: "{{len 'hello'}}", want: '5' },
  { template: '{{filter (array 1 2 3) 1 3}}', want: '1,3' },
  {
    template: "{{filter (array 'item1' 'item2' 'item3' 'item4' 'item3') 'item1' 'item2' 'item3'}}",
    want: 'item1,item2,item3,item3',
  },
  {
    template:
      "{{{stringify (filter (array 'item1' 'item2' (object type='type1') (object type='type2')) 'item1' (object type='type2'))}}}",
    want: json(['item1', { type: 'type2' }]),
  },
  // the documented structure: arguments OR, a list among them AND, a list inside that OR
  {
    template:
      '{{{stringify (filter (array (object a=1 b=2) (object a=1 b=3) (object a=2 b=2)) (array (object a=1) (object b=2)))}}}',
    want: json([{ a: 1, b: 2 }]),
  },
  {
    template:
      '{{{stringify (filter (array (object a=1 b=2) (object a=1 b=3) (object a=2 b=2)) (array (object a=1) (array (object b=2) (object b=3))))}}}',
    want: json([
      { a: 1, b: 2 },
      { a: 1, b: 3 },
    ]),
  },
  { template: '{{find (array 1 2 3) 1 3}}', want: '1' },
  {
    template: "{{find (array 'item1' 'item2' 'item3' 'item4' 'item3') 'item1' 'item2' 'item3'}}",
    want: 'item1',
  },
  {
    template: "{{{stringify (find (bodyRaw 'users') (object type='item1' category='c2'))}}}",
    ...body({
      users: [
        { type: 'item1', category: 'c1' },
        { type: 'item1', category: 'c2' },
      ],
    }),
    want: json({ type: 'item1', category: 'c2' }),
  },
  { template: "{{objectPath (object key1='value1' key2='value2') 'key1'}}", want: 'value1' },
  { template: "{{objectPath (bodyRaw) 'key2'}}", ...body({ key2: 'v2' }), want: 'v2' },
  {
    template: "{{objectPath (bodyRaw 'users') '0.name' 'defaultName'}}",
    ...body({ users: [] }),
    want: 'defaultName',
  },
  { template: "{{jsonPath (object key1='value1' key2='value2') '$.key1'}}", want: 'value1' },
  { template: "{{jsonPath (bodyRaw) '$.key2'}}", ...body({ key2: 'v2' }), want: 'v2' },
  {
    template: "{{jsonPath (bodyRaw 'users') '$[0].name' 'defaultName'}}",
    ...body({ users: [] }),
    want: 'defaultName',
  },
  { template: "{{jmesPath (object key1='value1' key2='value2') 'key1'}}", want: 'value1' },
  { template: "{{jmesPath (bodyRaw) 'key2'}}", ...body({ key2: 'v2' }), want: 'v2' },
  {
    template: "{{jmesPath (bodyRaw 'users') '[0].name' 'defaultName'}}",
    ...body({ users: [{ name: 'Ann' }] }),
    want: 'Ann',
  },
  {
    template: "{{jmesPath (bodyRaw 'users') '[0].name' 'defaultName'}}",
    ...body({ users: [] }),
    want: 'defaultName',
  },
  {
    template: "{{{stringify (object type='item1' category='cat1')}}}",
    want: json({ type: 'item1', category: 'cat1' }),
  },
  { template: '{{{stringify (object type=(filter (array 1 2 3) 1 3))}}}', want: json({ type: [1, 3] }) },
  {
    template: "{{{stringify (objectMerge (object key1='value1') (object key2='value2'))}}}",
    want: json({ key1: 'value1', key2: 'value2' }),
  },
  { template: "{{sort (array 'item2' 'item1' 'item3') 'desc'}}", want: 'item3,item2,item1' },
  { template: "{{sort (array 'item2' 'item1' 'item3')}}", want: 'item1,item2,item3' },
  {
    template:
      "{{{stringify (sortBy (array (object key1=10 key2=20) (object key1=30 key2=30) (object key1=15 key2=25)) 'key1')}}}",
    want: json([
      { key1: 10, key2: 20 },
      { key1: 15, key2: 25 },
      { key1: 30, key2: 30 },
    ]),
  },
  { template: "{{reverse (array 'item1' 'item2' 'item3')}}", want: 'item3,item2,item1' },
];

// https://mockoon.com/docs/latest/templating/mockoon-helpers/ (math, logic, strings, encodings)
const mathAndText: DocExample[] = [
  ...['{{add 1 1}}', "{{add '1' '1'}}", "{{add '1' 'foo' 1}}"].map((template) => ({ template, want: '2' })),
  ...['{{subtract 2 1}}', "{{subtract '2' '1'}}", "{{subtract '2' 'foo' 1}}"].map((template) => ({
    template,
    want: '1',
  })),
  ...['{{multiply 2 3}}', "{{multiply '2' '3'}}", "{{multiply '2' 'foo' 3}}"].map((template) => ({
    template,
    want: '6',
  })),
  ...['{{divide 4 2}}', "{{divide '4' '2'}}", "{{divide '4' 'foo' 2}}"].map((template) => ({
    template,
    want: '2',
  })),
  ...['{{modulo 5 4}}', "{{modulo '5' '4'}}"].map((template) => ({ template, want: '1' })),
  ...['{{ceil 1.5}}', "{{ceil '1.5'}}", '{{floor 2.5}}', "{{floor '2.5'}}"].map((template) => ({
    template,
    want: '2',
  })),
  { template: '{{#if (eq 55 55)}}true{{/if}}', want: 'true' },
  { template: "{{#if (eq 55 '55')}}true{{else}}false{{/if}}", want: 'false' },
  { template: "{{#if (eq 'x1' 'x1')}}true{{/if}}", want: 'true' },
  { template: '{{#if (gt 56 55)}}true{{/if}}', want: 'true' },
  { template: '{{#if (gte 55 55)}}true{{/if}}', want: 'true' },
  { template: '{{#if (lt 55 56)}}true{{/if}}', want: 'true' },
  { template: '{{#if (lte 55 55)}}true{{/if}}', want: 'true' },
  { template: '{{toFixed 1.11111 2}}', want: '1.11' },
  { template: '{{round 0.499}}', want: '0' },
  { template: 'a{{newline}}b', want: 'a\nb' },
  { template: "{{base64 'test'}}", want: 'dGVzdA==' },
  { template: "{{base64Decode 'YWJjZA=='}}", want: 'abcd' },
  { template: "{{base64url 'test'}}", want: 'dGVzdA' },
  { template: "{{base64urlDecode 'YWJjZA'}}", want: 'abcd' },
  { template: '{{objectId 1414093117}}', want: /^5449593d[0-9a-f]{16}$/ },
  { template: "{{objectId '54495ad94c934721ede76d90'}}", want: '54495ad94c934721ede76d90' },
  { template: "{{includes 'Some data' 'data'}}", want: 'true' },
  { template: "{{substr 'Some data' 5 4}}", want: 'data' },
  { template: "{{replace 'hello world world' 'world' 'Mockoon'}}", want: 'hello Mockoon world' },
  { template: "{{replaceAll 'hello world world' 'world' 'Mockoon'}}", want: 'hello Mockoon Mockoon' },
  { template: "{{lowercase 'ABCD'}}", want: 'abcd' },
  { template: "{{uppercase 'abcd'}}", want: 'ABCD' },
  { template: "{{#each (split '1 2 3 4')}}item{{this}},{{/each}}", want: 'item1,item2,item3,item4,' },
  { template: "{{#each (split 'This is my string.')}}{{this}},{{/each}}", want: 'This,is,my,string.,' },
  {
    template: "{{{stringify (bodyRaw 'prop2')}}}",
    ...body({ prop1: '123', prop2: { data: 'test' } }),
    want: '{\n  "data": "test"\n}',
  },
  { template: "{{#if (jsonParse 'true')}}value{{/if}}", want: 'value' },
  { template: "{{#if (eq (jsonParse '25') 25)}}value{{/if}}", want: 'value' },
  { template: "{{oneOf (jsonParse '[5, 56, 98]')}}", want: /^(5|56|98)$/ },
  { template: `{{lookup (jsonParse '{"data":"test"}') 'data'}}`, want: 'test' },
  {
    template: "{{lookup (jsonParse (queryParam 'json')) 'data'}}",
    url: `/json-query?json=${encodeURIComponent('{"data":"test"}')}`,
    path: '/json-query',
    want: 'test',
  },
  { template: "{{concat 'value1' 2 'value3'}}", want: 'value12value3' },
  { template: '{{#each (concat (array 1 2) (array 3 4))}}{{this}}{{/each}}', want: '1234' },
  { template: "{{indexOf 'Some data' 'data' 0}}", want: '5' },
  { template: "{{padStart '5' 5 '0'}}", want: '00005' },
  { template: "{{padEnd '5' 5 '0'}}", want: '50000' },
];

// https://mockoon.com/docs/latest/templating/mockoon-helpers/ (dates, random data, faker aliases)
const datesAndData: DocExample[] = [
  { template: '{{now}}', want: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/ },
  { template: "{{now 'yyyy'}}", want: String(new Date().getUTCFullYear()) },
  {
    template:
      "{{dateTimeShift date='2021-01-01' format='yyyy-MM-dd HH:mm:ss' years=1 months=1 days=1 hours=1 minutes=1 seconds=1}}",
    want: '2022-02-02 01:01:01',
  },
  {
    template: `{{date '2020-11-20' '2020-11-25' "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"}}`,
    want: (got) => {
      assert.match(got, /^2020-11-2\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const t = Date.parse(got);
      assert.ok(t >= Date.parse('2020-11-20') - DAY && t <= Date.parse('2020-11-25') + DAY, got);
    },
  },
  { template: "{{time '09:00' '10:00' 'HH:mm'}}", want: /^(09:\d\d|10:00)$/ },
  { template: "{{dateFormat '2021-01-01' 'yyyy'}}", want: '2021' },
  { template: "{{isValidDate '2022-01-01'}}", want: 'true' },
  { template: "{{isValidDate '2022-01-01T00:00:00.000Z'}}", want: 'true' },
  { template: "{{isValidDate '2022-01-50'}}", want: 'false' },
  { template: '{{isValidDate 1727272454000}}', want: 'true' },
  { template: '{{int 0 100}}', want: within(0, 100, /^\d+$/) },
  { template: '{{float 0 100}}', want: within(0, 100) },
  { template: '{{boolean}}', want: bool },
  { template: '{{uuid}}', want: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/ },
  { template: '{{guid}}', want: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/ },
  { template: '{{email}}', want: /^\S+@\S+\.\S+$/ },
  { template: '{{ipv4}}', want: /^\d{1,3}(\.\d{1,3}){3}$/ },
  { template: '{{ipv6}}', want: /^[0-9a-f:]+$/ },
  { template: '{{hexColor}}', want: /^#?[0-9a-fA-F]{6}$/ },
  { template: '{{countryCode}}', want: /^[A-Z]{2}$/ },
  { template: '{{lat}}', want: within(-90, 90) },
  { template: '{{long}}', want: within(-180, 180) },
  ...['title', 'firstName', 'lastName', 'company', 'domain', 'tld', 'street', 'city', 'country'].map(
    (name): DocExample => ({ template: `{{${name}}}`, want: /\S/ }),
  ),
  ...['zipcode', 'postcode', 'phone', 'color', 'lorem'].map((name): DocExample => ({
    template: `{{${name}}}`,
    want: /\S/,
  })),
];

// https://mockoon.com/docs/latest/templating/mockoon-request-helpers/
const request: DocExample[] = [
  { template: "{{body 'path.to.property'}}", ...body({ path: { to: { property: 'v' } } }), want: 'v' },
  { template: "{{body 'path' 'default value'}}", ...body({}), want: 'default value' },
  { template: '{{body}}', ...body({ a: 1 }), want: json({ a: 1 }) },
  { template: '{{bodyRaw}}', ...body({ a: 1 }), want: json({ a: 1 }) },
  { template: "{{bodyRaw 'path' 'default value'}}", ...body({}), want: 'default value' },
  {
    template: "{{#each (bodyRaw 'path.to.array.property' 'default value')}}value{{/each}}",
    ...body({ path: { to: { array: { property: [1, 2] } } } }),
    want: 'valuevalue',
  },
  {
    template: "{{#if (bodyRaw 'path.to.boolean.property' 'default value')}}value{{/if}}",
    ...body({ path: { to: { boolean: { property: false } } } }),
    want: '',
  },
  { template: "{{queryParam 'param1'}}", path: '/qp1', url: '/qp1?param1=test', want: 'test' },
  { template: "{{queryParam 'path' 'default value'}}", want: 'default value' },
  // https://mockoon.com/docs/latest/requests/query-parameters/ (qs's nested objects and lists)
  { template: "{{queryParam 'obj.prop1'}}", path: '/qp-obj', url: '/qp-obj?obj[prop1]=value', want: 'value' },
  {
    template: "{{#each (queryParamRaw 'array')}}{{this}};{{/each}}",
    path: '/qpr-list',
    url: '/qpr-list?array[0]=value1&array[1]=value2',
    want: 'value1;value2;',
  },
  {
    template: '{{{stringify (queryParamRaw)}}}',
    path: '/qpr-all',
    url: '/qpr-all?param1=test&obj[prop1]=value',
    want: json({ param1: 'test', obj: { prop1: 'value' } }),
  },
  { template: "{{queryParamRaw 'path' 'default value'}}", want: 'default value' },
  {
    template: "{{#if (queryParamRaw 'flag')}}value{{/if}}",
    path: '/qpr-if',
    url: '/qpr-if?flag=1',
    want: 'value',
  },
  { template: "{{urlParam 'paramName1'}}", path: '/up/:paramName1', url: '/up/abc', want: 'abc' },
  {
    template: '{{#each (queryParams)}}{{@key}}:{{this}};{{/each}}',
    path: '/qps',
    url: '/qps?a=1&b=2',
    want: 'a:1;b:2;',
  },
  {
    template:
      "{{#if (lookup (queryParams) 'page')}}Page parameter provided: {{lookup (queryParams) 'page'}}{{/if}}",
    path: '/qps-page',
    url: '/qps-page?page=3',
    want: 'Page parameter provided: 3',
  },
  {
    template: '{{{stringify (urlParams)}}}',
    path: '/ups/:userId',
    url: '/ups/u1',
    want: json({ userId: 'u1' }),
  },
  {
    template: '{{#each (urlParams)}}{{@key}}:{{this}}{{/each}}',
    path: '/ups2/:id',
    url: '/ups2/9',
    want: 'id:9',
  },
  { template: "{{cookie 'cookie_name' 'default value'}}", want: 'default value' },
  {
    template: "{{cookie 'cookie_name' 'default value'}}",
    path: '/cookie-set',
    headers: { Cookie: 'a=1; cookie_name=chocolate' },
    want: 'chocolate',
  },
  { template: "{{header 'Header-Name' 'default value'}}", want: 'default value' },
  {
    template: "{{header 'Header-Name' 'default value'}}",
    path: '/header-set',
    headers: { 'Header-Name': 'given' },
    want: 'given',
  },
  { template: '{{hostname}}', want: /^(127\.0\.0\.1|localhost)$/ },
  { template: '{{ip}}', want: /^(::ffff:)?127\.0\.0\.1$|^::1$/ },
  { template: '{{method}}', method: 'PUT', want: 'PUT' },
];

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const JWT = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: '1234567890', name: 'John' })}.c2ln`;

// https://mockoon.com/docs/latest/templating/mockoon-variables-helpers/,
// https://mockoon.com/docs/latest/templating/jwt-helpers/, the request helpers' path forms and
// https://mockoon.com/docs/latest/templating/overview/ (faker)
const more: DocExample[] = [
  { template: "{{setVar 'varname' 'value'}}{{@varname}}", want: 'value' },
  { template: "{{setVar 'varname' (body 'id')}}{{@varname}}", ...body({ id: '7' }), want: '7' },
  { template: "{{setVar 'varname' 2}}{{#repeat @varname}}x{{/repeat}}", want: 'x,\nx\n' },
  {
    template: "{{#repeat 5}}{{setVar 'random' (oneOf (array '1' '2' '3'))}}{{@random}}{{/repeat}}",
    want: /^([123],\n){4}[123]\n$/,
  },
  {
    template:
      "{{setVar 'myArray' (array '1' '2' '3')}}{{#each @myArray}}{{setVar 'eachIndex' @index}}{{@eachIndex}}{{/each}}",
    want: '012',
  },
  { template: "{{setVar 'varname' 'value'}}{{getVar 'varname'}}", want: 'value' },
  { template: "{{setVar 'varname' 'value'}}{{getVar (concat 'var' 'name')}}", want: 'value' },
  {
    template: "{{setVar 'varname' 'value'}}{{getVar (body 'property')}}",
    ...body({ property: 'varname' }),
    want: 'value',
  },
  { template: `{{lookup (jwtPayload '${JWT}') 'sub'}}`, want: '1234567890' },
  { template: `{{jwtPayload '${JWT}' 'sub'}}`, want: '1234567890' },
  {
    template: "{{jwtPayload (header 'Authorization') 'sub'}}",
    headers: { Authorization: `Bearer ${JWT}` },
    want: '1234567890',
  },
  { template: `{{lookup (jwtHeader '${JWT}') 'alg'}}`, want: 'HS256' },
  { template: `{{jwtHeader '${JWT}' 'alg'}}`, want: 'HS256' },
  {
    template: "{{jwtHeader (header 'Authorization') 'alg'}}",
    headers: { Authorization: `Bearer ${JWT}` },
    want: 'HS256',
  },
  {
    template: "{{body 'deep.property\\.with\\.dot'}}",
    ...body({ deep: { 'property.with.dot': 'v' } }),
    want: 'v',
  },
  {
    template: "{{body '$.array.[*].property'}}",
    ...body({ array: [{ property: 'a' }, { property: 'b' }] }),
    want: json(['a', 'b']),
  },
  { template: "{{body 'path' 'default value' true}}", ...body({ path: 'x' }), want: '"x"' },
  {
    template: "{{queryParam 'path' 'default value' true}}",
    path: '/qp-str',
    url: '/qp-str?path=x',
    want: '"x"',
  },
  { template: "{{faker 'person.firstName'}}", want: /^\S+$/ },
  { template: "{{faker 'date.month' abbr=false}}", want: /^[A-Z][a-z]+$/ },
];

describe('Mockoon documentation examples (parity)', () => {
  const all = [...blocks, ...mathAndText, ...datesAndData, ...request, ...more];

  it('each answers over HTTP as Mockoon documents', async (t) => {
    assert.ok(all.length >= 140, `${all.length} examples`);
    assert.deepEqual(await runDocExamples(t, 'parity-mockoon', all), []);
  });
});
