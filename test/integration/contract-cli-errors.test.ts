/**
 * `contract import | validate | status | show | live`: what is refused, and how. The Pro gate;
 * imports from a local HTTP server that answers 404, an invalid document, one too large, one too
 * slow, endless redirects (the bounds made small through the environment); the arguments and
 * projects the commands refuse. Every refusal is one line with its exit code, nothing written.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { assertCliError, json, type CliResult } from '../helpers/cli.js';
import { documentServer, type DocumentServer } from '../helpers/document-server.js';
import { proSandbox } from '../helpers/pro.js';

const ok = (r: CliResult): CliResult => {
  assert.equal(r.code, 0, `exit code (stderr: ${r.stderr})`);
  return r;
};

const INVALID = readFileSync(new URL('../fixtures/openapi/bad/invalid.yaml', import.meta.url), 'utf8');
const WITH_REF = `openapi: 3.0.3
info: { title: Split, version: '1' }
paths:
  /pets:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { $ref: 'schemas.yaml#/Pet' }
`;

let http: DocumentServer;
before(async () => {
  http = await documentServer({
    '/missing.yaml': (_req, res) => res.writeHead(404).end('not here'),
    '/invalid.yaml': (_req, res) => res.writeHead(200, { 'content-type': 'application/yaml' }).end(INVALID),
    '/not-openapi.json': (_req, res) => res.writeHead(200).end('{"hello": "world"}'),
    '/split.yaml': (_req, res) => res.writeHead(200).end(WITH_REF),
    '/large.yaml': (_req, res) => res.writeHead(200).end(`openapi: 3.0.3\n# ${'x'.repeat(4000)}\n`),
    '/slow.yaml': () => undefined, // never answers
    '/loop.yaml': (_req, res) => res.writeHead(302, { location: '/loop.yaml' }).end(),
  });
});
after(() => http.close());

/** project.json of a managed project, and whether a contract file sits beside it. */
function stored(dataDir: string, id: string): { contract: unknown; files: boolean } {
  const dir = join(dataDir, 'projects', id);
  const project = JSON.parse(readFileSync(join(dir, 'project.json'), 'utf8')) as { contract?: unknown };
  return {
    contract: project.contract,
    files: existsSync(join(dir, 'contract.yaml')) || existsSync(join(dir, 'contract.json')),
  };
}

describe('contract commands without a Pro license', () => {
  it('refuse every command (exit 1, the gate message), writing nothing', async (t) => {
    const { cli, dataDir, dir } = await proSandbox(t, { activate: false });
    const { id } = json<{ id: string }>(ok(await cli(['project', 'create', 'shop', '--json'])));
    for (const args of [
      ['import', 'shop', http.url('/invalid.yaml')],
      ['import', 'shop', http.url('/invalid.yaml'), '-o', 'out.yaml'],
      ['validate', 'shop'],
      ['validate', 'shop', '-s', 'openapi.yaml', '--junit', 'report.xml'],
      ['status', 'shop'],
      ['show', 'shop'],
      ['live', 'shop', 'on'],
    ])
      assertCliError(
        await cli(['contract', ...args]),
        1,
        /^mockdev: "contract" needs a Pro license, and no license is activated\. .*mockdev license activate <KEY>/,
      );
    assert.deepEqual(stored(dataDir, id), { contract: undefined, files: false });
    assert.equal(existsSync(join(dir, 'out.yaml')), false);
    assert.equal(existsSync(join(dir, 'report.xml')), false);
  });
});

describe('contract import refusals', () => {
  const refusals: [string, string[], Record<string, string>, RegExp][] = [
    [
      'an HTTP 404',
      ['/missing.yaml'],
      {},
      /^mockdev: Could not fetch http:\/\/127\.0\.0\.1:\d+\/missing\.yaml: the server answered HTTP 404\. /,
    ],
    [
      'an invalid document, naming where',
      ['/invalid.yaml'],
      {},
      /^mockdev: http:\/\/127\.0\.0\.1:\d+\/invalid\.yaml is not a valid OpenAPI document: at #\/paths\/~1users\/get\/responses \(line 9, column \d+\): .*Fix the document there/,
    ],
    [
      'a document that is not OpenAPI',
      ['/not-openapi.json'],
      {},
      /not-openapi\.json is not an OpenAPI document: it has no "openapi" or "swagger" field/,
    ],
    [
      'a $ref to another document',
      ['/split.yaml'],
      {},
      /split\.yaml has a \$ref that cannot be resolved: "schemas\.yaml#\/Pet" .*A contract is one document: bundle/,
    ],
    [
      'a document over the size cap',
      ['/large.yaml'],
      { MOCKDEV_CONTRACT_MAX_BYTES: '1024' },
      /large\.yaml: the document is over 1 KiB/,
    ],
    [
      'no answer in time',
      ['/slow.yaml'],
      { MOCKDEV_CONTRACT_FETCH_TIMEOUT_MS: '300' },
      /slow\.yaml: no answer within 0\.3 s/,
    ],
    ['endless redirects', ['/loop.yaml'], {}, /loop\.yaml: more than 5 redirects/],
  ];
  for (const [what, [path], env, message] of refusals)
    it(`refuses ${what} (exit 1, one line), storing nothing`, async (t) => {
      const { cli, dataDir } = await proSandbox(t);
      const { id } = json<{ id: string }>(ok(await cli(['project', 'create', 'shop', '--json'])));
      assertCliError(await cli(['contract', 'import', 'shop', http.url(path!)], { env }), 1, message);
      assert.deepEqual(stored(dataDir, id), { contract: undefined, files: false });
    });

  it('refuses a URL that is not http(s) (exit 2) and an unknown project (exit 3)', async (t) => {
    const { cli } = await proSandbox(t);
    ok(await cli(['project', 'create', 'shop']));
    assertCliError(
      await cli(['contract', 'import', 'shop', 'file:///etc/passwd']),
      2,
      /only http and https URLs are fetched/,
    );
    assertCliError(
      await cli(['contract', 'import', 'nope', http.url('/invalid.yaml')]),
      3,
      /Project "nope" not found/,
    );
  });
});

describe('contract validate, status, show and live refusals', () => {
  it('without -s and without an imported contract: exit 2 saying to pass -s or import one', async (t) => {
    const { cli } = await proSandbox(t);
    ok(await cli(['project', 'create', 'shop']));
    const message =
      /^mockdev: Project "shop" has no contract to check against\. Pass the OpenAPI document as -s, --spec \(a file or a URL\), or run "mockdev contract import shop <URL>" first$/m;
    assertCliError(await cli(['contract', 'validate', 'shop']), 2, message);
    assertCliError(await cli(['contract', 'status', 'shop', '--json']), 2, message);
    assertCliError(
      await cli(['contract', 'show', 'shop']),
      1,
      /has no contract\. Run "mockdev contract import shop <URL>"/,
    );
    assertCliError(await cli(['contract', 'live', 'shop', 'on']), 1, /has no contract/);
  });

  it('refuses bad arguments (exit 2) and unknown projects (exit 3)', async (t) => {
    const { cli } = await proSandbox(t);
    ok(await cli(['project', 'create', 'shop']));
    assertCliError(await cli(['contract', 'validate', 'shop', '-l', 'ten']), 2, /Invalid --limit "ten"/);
    assertCliError(await cli(['contract', 'validate', 'shop', '-l', '0']), 2, /Invalid limit 0/);
    assertCliError(
      await cli(['contract', 'validate', 'shop', '-s', 'missing.yaml']),
      2,
      /Cannot read missing\.yaml: no such file/,
    );
    assertCliError(
      await cli(['contract', 'live', 'shop', 'maybe']),
      2,
      /Invalid state "maybe": must be on or off/,
    );
    assertCliError(await cli(['contract', 'validate', 'nope']), 3, /Project "nope" not found/);
    assertCliError(await cli(['contract', 'status', 'nope']), 3, /Project "nope" not found/);
  });
});
