/**
 * `contract validate` over real traffic: a mock server of a project answers requests sent over
 * HTTP, one passing and one failing request per rule of test/fixtures/contract/petstore-rules.yaml
 * (the operation, parameters of each place and style, request bodies, responses); then
 * `validate --json` finds exactly the failing ones with the right location and rule, `--junit`
 * writes a report an XML parser reads back, and `status` counts the coverage. Bodies the log cut
 * short are skipped, never violations.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { addEndpoint } from '../../src/app/endpoints.js';
import {
  ContractCoverageSchema,
  ContractReportSchema,
  type ContractViolation,
} from '../../src/core/model/contract.js';
import type { CliResult } from '../helpers/cli.js';
import { json } from '../helpers/cli.js';
import {
  caseIds,
  contractFixtureText,
  petstoreRulesMock,
  sendCases,
  type CaseRequest,
} from '../helpers/contract-traffic.js';
import { proSandbox, startProServer } from '../helpers/pro.js';
import { elementsNamed, parseXml } from '../helpers/xml.js';

const UUID = '0b6d1f8e-3c1a-4d8e-9a8e-1f2b3c4d5e6f';
const HEAD = { 'x-request-id': UUID };

/** A case: its request, and the violation it must bring (location, rules it may be named by), or none. */
interface Case {
  name: string;
  request: CaseRequest;
  expect?: { location: RegExp; rules: string[]; in?: 'request' | 'response' };
}

const get = (path: string, headers: Record<string, string> = HEAD): CaseRequest => ({ path, headers });
const send = (method: string, path: string, body: string, type = 'application/json'): CaseRequest => ({
  method,
  path,
  headers: { ...HEAD, 'content-type': type },
  body,
});
const bad = (location: RegExp, ...rules: string[]) => ({ location, rules });
const badResponse = (location: RegExp, ...rules: string[]) => ({ location, rules, in: 'response' as const });

const CASES: Case[] = [
  // The operation, after the server prefix (/api/{version}, and https://api.example.com/v1's /v1).
  { name: 'list', request: get('/api/v1/pets') },
  { name: 'list-v2', request: get('/api/v2/pets?limit=3') },
  {
    name: 'unknown-operation',
    request: get('/api/v1/nowhere'),
    expect: bad(/^(path|operation)?$/, 'unknown-operation'),
  },
  // Query parameters: type, minimum/maximum, enum, pattern, length, array styles, deepObject, format.
  {
    name: 'query-all-good',
    request: get(
      '/api/v1/pets?limit=10&status=available&name=rex&tags=a,b&ids=1&ids=2&sort=name|age&filter[color]=red&filter[minAge]=2&since=2024-01-02',
    ),
  },
  { name: 'query-type', request: get('/api/v1/pets?limit=many'), expect: bad(/^query\.limit$/, 'type') },
  { name: 'query-maximum', request: get('/api/v1/pets?limit=500'), expect: bad(/^query\.limit$/, 'maximum') },
  { name: 'query-enum', request: get('/api/v1/pets?status=lost'), expect: bad(/^query\.status$/, 'enum') },
  { name: 'query-pattern', request: get('/api/v1/pets?name=R2d2'), expect: bad(/^query\.name$/, 'pattern') },
  { name: 'query-minLength', request: get('/api/v1/pets?name=r'), expect: bad(/^query\.name$/, 'minLength') },
  {
    name: 'query-form-maxItems',
    request: get('/api/v1/pets?tags=a,b,c,d'),
    expect: bad(/^query\.tags/, 'maxItems'),
  },
  {
    name: 'query-uniqueItems',
    request: get('/api/v1/pets?ids=1&ids=1'),
    expect: bad(/^query\.ids/, 'uniqueItems'),
  },
  {
    name: 'query-pipe-enum',
    request: get('/api/v1/pets?sort=name|weight'),
    expect: bad(/^query\.sort/, 'enum'),
  },
  {
    name: 'query-deepObject',
    request: get('/api/v1/pets?filter[minAge]=-1'),
    expect: bad(/^query\.filter/, 'minimum'),
  },
  {
    name: 'query-format',
    request: get('/api/v1/pets?since=yesterday'),
    expect: bad(/^query\.since$/, 'format'),
  },
  // Headers and cookies.
  {
    name: 'header-required',
    request: get('/api/v1/pets', {}),
    expect: bad(/^header\.x-request-id$/, 'required'),
  },
  {
    name: 'header-format',
    request: get('/api/v1/pets', { 'x-request-id': 'not-a-uuid' }),
    expect: bad(/^header\.x-request-id$/, 'format'),
  },
  { name: 'cookie-good', request: get('/api/v1/pets', { ...HEAD, cookie: 'session=abcdefgh' }) },
  {
    name: 'cookie-minLength',
    request: get('/api/v1/pets', { ...HEAD, cookie: 'session=abc' }),
    expect: bad(/^cookie\.session$/, 'minLength'),
  },
  // Path parameters.
  { name: 'path-good', request: get('/api/v1/pets/7') },
  { name: 'path-type', request: get('/api/v1/pets/seven'), expect: bad(/^path\.petId$/, 'type') },
  { name: 'path-minimum', request: get('/api/v1/pets/0'), expect: bad(/^path\.petId$/, 'minimum') },
  { name: 'path-label-good', request: get('/api/v1/reports/.1,2') },
  {
    name: 'path-label-minItems',
    request: get('/api/v1/reports/.1'),
    expect: bad(/^path\.range/, 'minItems'),
  },
  // Request bodies: JSON and form, required, media type, schema keywords, OpenAPI 3.0 rules.
  { name: 'body-good', request: send('POST', '/api/v1/pets', '{"name":"Rex","tag":null,"age":3}') },
  {
    name: 'body-form-good',
    request: send('POST', '/api/v1/pets', 'name=Rex&age=2', 'application/x-www-form-urlencoded'),
  },
  {
    name: 'body-required',
    request: { method: 'POST', path: '/api/v1/pets', headers: HEAD },
    expect: bad(/^body$/, 'required'),
  },
  {
    name: 'body-media-type',
    request: send('POST', '/api/v1/pets', '<pet/>', 'application/xml'),
    expect: bad(/^header\.content-type$|^body$/, 'media-type'),
  },
  {
    name: 'body-minLength',
    request: send('POST', '/api/v1/pets', '{"name":""}'),
    expect: bad(/^body\.name$/, 'minLength'),
  },
  {
    name: 'body-readOnly',
    request: send('POST', '/api/v1/pets', '{"id":5,"name":"Rex"}'),
    expect: bad(/^body\.id$/, 'readOnly'),
  },
  {
    name: 'body-exclusiveMaximum',
    request: send('POST', '/api/v1/pets', '{"name":"Rex","age":30}'),
    expect: bad(/^body\.age$/, 'maximum', 'exclusiveMaximum'),
  },
  {
    name: 'body-form-minimum',
    request: send('POST', '/api/v1/pets', 'name=Rex&age=-1', 'application/x-www-form-urlencoded'),
    expect: bad(/^body\.age$/, 'minimum'),
  },
  {
    name: 'body-discriminator-good',
    request: send('PUT', `/api/v1/animals/${UUID}`, '{"kind":"dog","barks":true}'),
  },
  {
    name: 'body-discriminator',
    request: send('PUT', `/api/v1/animals/${UUID}`, '{"kind":"dog","lives":3}'),
    expect: bad(/^body/, 'discriminator', 'required', 'oneOf'),
  },
  {
    name: 'path-format',
    request: send('PUT', '/api/v1/animals/rex', '{"kind":"dog","barks":true}'),
    expect: bad(/^path\.animalId$/, 'format'),
  },
  {
    name: 'body-wildcard-good',
    request: send(
      'PATCH',
      '/api/v1/settings',
      '{"theme":"dark","fontSize":12}',
      'application/merge-patch+json',
    ),
  },
  {
    name: 'body-additionalProperties',
    request: send('PATCH', '/api/v1/settings', '{"theme":"dark","font":"x"}'),
    expect: bad(/^body/, 'additionalProperties'),
  },
  // Responses: status, required headers, media type, JSON body (recursive too), writeOnly.
  {
    name: 'response-status',
    request: get('/api/v1/pets/7', { ...HEAD, 'x-answer': 'status' }),
    expect: badResponse(/^status$/, 'status'),
  },
  {
    name: 'response-header',
    request: get('/v1/pets'),
    expect: badResponse(/^header\.x-total-count$/, 'required'),
  },
  {
    name: 'response-media-type',
    request: get('/api/v1/pets', { ...HEAD, 'x-answer': 'text' }),
    expect: badResponse(/^header\.content-type$|^body$/, 'media-type'),
  },
  {
    name: 'response-body',
    request: get('/api/v1/pets', { ...HEAD, 'x-answer': 'body' }),
    expect: badResponse(/^body.*id$/, 'type'),
  },
  {
    name: 'response-writeOnly',
    request: send('POST', '/api/v1/pets', '{"name":"Max"}'),
    expect: badResponse(/^body\.secret$/, 'writeOnly'),
  },
  {
    name: 'response-exclusiveMaximum',
    request: get('/api/v1/reports/.1,2', { 'x-answer': 'full' }),
    expect: badResponse(/^body\.total$/, 'maximum', 'exclusiveMaximum'),
  },
  { name: 'response-recursive-good', request: get('/api/v1/nodes/root') },
  {
    name: 'response-recursive',
    request: get('/api/v1/nodes/root', { 'x-answer': 'nameless' }),
    expect: badResponse(/^body\.children\[0\]/, 'required'),
  },
];

const ok = (r: CliResult): CliResult => {
  assert.equal(r.code, 0, `exit code (stderr: ${r.stderr})`);
  return r;
};

describe('contract validate over HTTP (petstore-rules.yaml, OpenAPI 3.0)', () => {
  it('finds one violation per failing request, at its place, and none in passing ones; JUnit and status agree', async (t) => {
    const sandbox = await proSandbox(t);
    const { cli, dir } = sandbox;
    ok(await cli(['project', 'create', 'shop']));
    writeFileSync(join(dir, 'petstore-rules.yaml'), contractFixtureText('petstore-rules.yaml'));
    const { ctx, server } = await startProServer(sandbox, 'shop');
    await petstoreRulesMock(ctx, 'shop');
    await sendCases(server.url, CASES);
    const ids = await caseIds(sandbox, 'shop', CASES.length);

    const r = await cli(['contract', 'validate', 'shop', '-s', 'petstore-rules.yaml', '--json']);
    assert.equal(r.code, 1, `violations exit 1 (stderr: ${r.stderr})`);
    const report = ContractReportSchema.parse(JSON.parse(r.stdout));
    const byRequest = new Map<string, ContractViolation[]>();
    for (const v of report.violations) byRequest.set(v.requestId, [...(byRequest.get(v.requestId) ?? []), v]);
    const failing = CASES.filter((c) => c.expect);
    for (const c of CASES) {
      const found = byRequest.get(ids.get(c.name)!) ?? [];
      const shown = JSON.stringify(found.map(({ location, rule, message }) => ({ location, rule, message })));
      if (!c.expect) {
        assert.deepEqual(found, [], `${c.name} passes, found ${shown}`);
        continue;
      }
      const hit = found.find(
        (v) =>
          c.expect!.rules.includes(v.rule) &&
          c.expect!.location.test(v.location) &&
          v.in === (c.expect!.in ?? 'request'),
      );
      assert.ok(
        hit,
        `${c.name}: expected ${c.expect.rules.join('|')} at ${c.expect.location}, found ${shown}`,
      );
      assert.ok(hit.message && !hit.message.includes('\n'), `${c.name}: one line`);
      assert.match(hit.schemaPath, /^#\//, `${c.name}: a pointer into the document`);
    }
    assert.deepEqual(
      { checked: report.checked, passed: report.passed, failed: report.failed, spec: report.spec },
      {
        checked: CASES.length,
        passed: CASES.length - failing.length,
        failed: failing.length,
        spec: 'petstore-rules.yaml',
      },
    );

    // The human summary and the JUnit report of the same run.
    const human = await cli([
      'contract',
      'validate',
      'shop',
      '-s',
      'petstore-rules.yaml',
      '--junit',
      'junit.xml',
    ]);
    assert.equal(human.code, 1);
    assert.match(
      human.stdout,
      new RegExp(
        `^checked ${CASES.length} requests: ${CASES.length - failing.length} passed, ${failing.length} failed, ${report.violations.length} violations\n`,
      ),
    );
    assert.match(human.stdout, /\nGET \/pets\/\{petId\}: 3 failed requests, \d+ violations\n/);
    assert.match(human.stderr, /Wrote junit\.xml \(JUnit XML\)/);
    const xml = parseXml(readFileSync(join(dir, 'junit.xml'), 'utf8'));
    assert.equal(xml.attributes.tests, String(CASES.length));
    assert.equal(xml.attributes.failures, String(failing.length));
    const suites = elementsNamed(xml, 'testsuite');
    assert.ok(suites.some((s) => s.attributes.name === 'GET /pets/{petId}'));
    assert.ok(suites.some((s) => s.attributes.name === 'unmatched requests'));
    const cases = elementsNamed(xml, 'testcase');
    assert.equal(cases.length, CASES.length);
    const failures = cases.filter((c) => elementsNamed(c, 'failure').length);
    assert.equal(failures.length, failing.length);
    const limitCase = cases.find((c) => c.attributes.name!.includes(`(${ids.get('query-maximum')})`))!;
    assert.match(
      elementsNamed(limitCase, 'failure')[0]!.text,
      /^request query\.limit must be <= 100, got 500 \[maximum\]; expected 100; actual 500; at #\/paths\/~1pets\/get\/parameters\/0\/schema\/maximum$/,
    );

    // Coverage: every operation exercised but two; the request no operation matched.
    const coverage = ContractCoverageSchema.parse(
      json(ok(await cli(['contract', 'status', 'shop', '-s', 'petstore-rules.yaml', '--json']))),
    );
    assert.deepEqual(
      { covered: coverage.covered, total: coverage.total, unexercised: coverage.unexercised.sort() },
      { covered: 7, total: 9, unexercised: ['GET /files/{name}.{ext}', 'GET /pets/mine'] },
    );
    assert.equal(coverage.percent, 77.8);
    assert.deepEqual(coverage.unmatched, [{ method: 'GET', path: '/api/v1/nowhere', requests: 1 }]);
    const byOperation = Object.fromEntries(
      coverage.operations.map((o) => [o.operation, [o.requests, o.passed, o.failed]]),
    );
    assert.deepEqual(byOperation['GET /pets/{petId}'], [4, 1, 3]);
    const text = ok(await cli(['contract', 'status', 'shop', '-s', 'petstore-rules.yaml']));
    assert.match(text.stdout, /Covered 7 of 9 operations \(77\.8%\)/);
    assert.match(
      text.stdout,
      /Never exercised \(2\):\n {2}GET \/pets\/mine\n {2}GET \/files\/\{name\}\.\{ext\}\n/,
    );
    assert.match(
      text.stdout,
      /Matching no operation \(1 requests\):\n {2}GET \/api\/v1\/nowhere {2}1 request\n/,
    );

    // -l: only the newest N.
    const last = ContractReportSchema.parse(
      json(await cli(['contract', 'validate', 'shop', '-s', 'petstore-rules.yaml', '-l', '2', '--json'])),
    );
    assert.equal(last.checked, 2);
  });

  it('skips what the log cut short instead of reporting it, and passes (exit 0) without violations', async (t) => {
    const sandbox = await proSandbox(t);
    const { cli, dir } = sandbox;
    ok(await cli(['project', 'create', 'shop']));
    ok(await cli(['settings', 'update', '--request-body-limit', '40']));
    writeFileSync(join(dir, 'petstore-rules.yaml'), contractFixtureText('petstore-rules.yaml'));
    const { ctx, server } = await startProServer(sandbox, 'shop');
    await addEndpoint(ctx, 'shop', {
      method: 'POST',
      path: '/api/v1/pets',
      status: 201,
      body: '{"id":3,"name":"Rex"}',
    });
    const long = JSON.stringify({ name: 'R'.repeat(45), tag: 'a long tag to go over the cap' });
    await sendCases(server.url, [{ name: 'long', request: send('POST', '/api/v1/pets', long) }]);
    await caseIds(sandbox, 'shop', 1);
    const r = ok(await cli(['contract', 'validate', 'shop', '-s', 'petstore-rules.yaml', '--json']));
    const report = ContractReportSchema.parse(JSON.parse(r.stdout));
    assert.deepEqual(
      {
        checked: report.checked,
        passed: report.passed,
        failed: report.failed,
        skipped: report.skipped,
        violations: report.violations,
      },
      { checked: 1, passed: 1, failed: 0, skipped: 1, violations: [] },
    );
    const human = ok(await cli(['contract', 'validate', 'shop', '-s', 'petstore-rules.yaml']));
    assert.match(
      human.stdout,
      /^checked 1 request: 1 passed, 0 failed, 0 violations \(1 not checked whole: bodies the log cut short\)\n/,
    );
  });
});
