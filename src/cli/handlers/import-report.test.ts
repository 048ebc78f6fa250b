import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ImportReport } from '../../app/openapi.js';
import type { Endpoint } from '../../core/model/endpoint.js';
import { reportLines } from './import-report.js';

const project = {
  id: 'p1',
  name: 'Shop',
  description: '',
  port: 3001,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  endpointCount: 1,
};

const endpoint = {
  id: 'e1',
  method: 'GET',
  path: '/users',
  name: 'List',
  status: 200,
  variations: [{}],
} as unknown as Endpoint;

const report = (over: Partial<ImportReport> = {}): ImportReport => ({
  project,
  created: [endpoint],
  updated: [],
  replaced: [],
  kept: [],
  dropped: [],
  templates: 'literal',
  literal: [],
  skipped: [{ method: '', path: '', name: 'Upload', reason: 'a file body cannot be read' }],
  warnings: [],
  warningCount: 0,
  format: 'postman',
  dryRun: false,
  approximate: [{ method: 'POST', path: '/users', name: 'Create', message: 'no example: answers 200 {}' }],
  resources: [{ id: 'r1', name: 'orders', path: '/orders', itemCount: 3 }],
  variables: [],
  environment: { id: 'env1', name: 'Shop', variableCount: 2 },
  ...over,
});

describe('import: the human report', () => {
  it('lists made, resources, approximate and skipped items, and the environment', () => {
    assert.deepEqual(reportLines(report(), true, 0.25), [
      'Created project "Shop" (id p1, port 3001) (postman): 1 created, 0 replaced, 1 resource, 1 approximate, 1 skipped in 0.3 s',
      '  created   GET     /users  "List" -> 200 (+1 variations)',
      '  resource  /orders  "orders" (3 items)',
      '  approx    POST    /users  "Create": no example: answers 200 {}',
      '  skipped   "Upload": a file body cannot be read',
      '  environment "Shop" (2 variables) id env1',
    ]);
  });

  it('says a dry run wrote nothing, for a new project or an existing one', () => {
    const dry = report({
      dryRun: true,
      project: { ...project, id: 'dry-run' },
      approximate: [],
      resources: [],
      environment: undefined,
    });
    assert.equal(
      reportLines(dry, true, 0)[0],
      'Dry run (postman), nothing written: would create project "Shop" (port 3001): 1 created, 0 replaced, 1 skipped in 0.0 s',
    );
    assert.match(
      reportLines({ ...dry, project }, false, 0)[0]!,
      /^Dry run \(postman\), nothing written: would import into project "Shop" \(id p1\)/,
    );
  });
});
