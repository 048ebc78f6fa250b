/**
 * Shapes of real OpenAPI documents: operations that document only interim (1xx) answers, and
 * GitHub's examples that hold `{"$ref": "#/components/examples/…"}` as data, which an export must
 * not write as a reference it does not resolve.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { ImportReport } from '../../src/app/openapi.js';
import type { Endpoint } from '../../src/core/model/endpoint.js';
import { json } from '../helpers/cli.js';
import { cliSandbox } from '../helpers/cli-inprocess.js';
import { byRoute, fx } from '../helpers/openapi-import.js';

const STATUS_DOC = {
  openapi: '3.0.3',
  info: { title: 'Status', version: '1' },
  paths: {
    ...Object.fromEntries(
      ['100', '101', '102', '103'].map((code) => [
        `/status/${code}`,
        { get: { summary: `Status ${code}`, responses: { [code]: { description: 'Interim' } } } },
      ]),
    ),
    '/upgrade': {
      get: {
        responses: {
          '101': { description: 'Switching' },
          '426': {
            description: 'Upgrade required',
            content: { 'application/json': { example: { error: 'upgrade' } } },
          },
        },
      },
    },
  },
};

describe('real OpenAPI shapes', () => {
  it('an operation that documents only 1xx answers is imported answering 200, with a warning each', async (t) => {
    const { cli, dir } = cliSandbox(t, 'mockdev-shapes-');
    writeFileSync(join(dir, 'status.json'), JSON.stringify(STATUS_DOC));
    const r = await cli(['import', 'status.json', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const report = json<ImportReport>(r);
    assert.deepEqual(report.skipped, []);
    assert.equal(report.created.length, 5);
    for (const code of ['100', '101', '102', '103']) {
      assert.equal(byRoute(report.created, `GET /status/${code}`).status, 200);
      const w = report.warnings.find((x) => x.pointer === `#/paths/~1status~1${code}/get/responses/${code}`);
      assert.ok(w, `a warning for ${code}: ${JSON.stringify(report.warnings)}`);
      assert.match(w.message, new RegExp(`response ${code} is an interim answer \\(1xx\\).*it answers 200`));
    }
    // Beside a final answer the 1xx response is a variation answering 200 (named by its key).
    const upgrade = byRoute(report.created, 'GET /upgrade');
    assert.equal(upgrade.status, 426);
    assert.deepEqual(
      upgrade.variations.map((v) => [v.name, v.status]),
      [['101', 200]],
    );
    assert.equal(report.warningCount, 5);
    assert.match(r.stderr, /warning: #\/paths\/~1status~1100\/get\/responses\/100/);
  });

  it("GitHub's examples (components/examples, and $ref kept as data in values) export to a valid document", async (t) => {
    const { cli, dir } = cliSandbox(t, 'mockdev-shapes-');
    const imported = await cli(['import', fx('examples-ref.yaml'), '--json']);
    assert.equal(imported.code, 0, imported.stderr);
    const report = json<ImportReport>(imported);
    const issue = byRoute(report.created, 'GET /repos/{owner}/{repo}/issues/{issue_number}');
    // Example values are data: the $ref in them is kept as written.
    assert.deepEqual(JSON.parse(issue.body), { $ref: '#/components/examples/issue' });
    const got = byRoute(report.created, 'GET /orgs/{org}/code-security/configurations/{configuration_id}');
    assert.deepEqual(JSON.parse(got.body), { id: 1325, name: 'octo-org recommended settings' });

    const out = join(dir, 'export.json');
    for (const version of ['3.0', '3.1']) {
      const r = await cli(['export', report.project.id, '-f', 'json', '--openapi', version, '-o', out]);
      assert.equal(r.code, 0, r.stderr);
      await SwaggerParser.validate(out); // resolves every $ref: none may point at a missing part
      // And the bodies come back as they were.
      const again = await cli(['import', out, '--json']);
      assert.equal(again.code, 0, again.stderr);
      const back = json<ImportReport>(again).created;
      for (const e of report.created) assert.equal(byRoute(back, `${e.method} ${e.path}`).body, e.body);
    }
    const list = json<Endpoint[]>(await cli(['endpoint', 'list', report.project.id, '--json']));
    assert.equal(list.length, 3);
  });
});
