import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { environmentRoutes } from '../../src/api/routes/environments.js';
import { importRoutes } from '../../src/api/routes/imports.js';
import { licenseRoutes } from '../../src/api/routes/license.js';
import { recordingRoutes } from '../../src/api/routes/recordings.js';
import { settingsRoutes } from '../../src/api/routes/settings.js';
import { validateOpenApiDocument } from '../../src/formats/openapi/meta-schema.js';
import { apiSandbox } from '../helpers/api.js';

type Json = Record<string, unknown>;

const GROUPS = [
  ...importRoutes,
  ...recordingRoutes,
  ...environmentRoutes,
  ...settingsRoutes,
  ...licenseRoutes,
];

describe('admin API: the OpenAPI document and the import, recording, environment, settings and license routes', () => {
  it('lists each of these routes with its parameters described, and validates as OpenAPI 3.1', async (t) => {
    const api = apiSandbox(t);
    const r = await api.call('GET', '/api/v1/openapi.json');
    assert.equal(r.status, 200);
    const doc = r.json as { paths: Record<string, Record<string, Json>> };
    assert.deepEqual(await validateOpenApiDocument(doc, '3.1'), []);
    for (const route of GROUPS) {
      const operation = doc.paths[`/api/v1${route.path}`]?.[route.method.toLowerCase()];
      assert.ok(operation, `${route.method} ${route.path} is in the document`);
      for (const name of [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!)) {
        assert.ok(route.params?.[name], `${route.method} ${route.path}: {${name}} is described`);
      }
    }
    const importOp = doc.paths['/api/v1/import/openapi']!.post as { requestBody: { content: Json } };
    assert.deepEqual(Object.keys(importOp.requestBody.content).sort(), [
      'application/json',
      'application/x-yaml',
      'application/yaml',
      'text/yaml',
    ]);
    const exportOp = doc.paths['/api/v1/projects/{project}/openapi']!.get as { parameters: Json[] };
    assert.deepEqual(
      exportOp.parameters.map((p) => p.name),
      ['project', 'format', 'version'],
    );
    const patch = doc.paths['/api/v1/settings']!.patch as {
      requestBody: { content: { 'application/json': { schema: { properties: Json } } } };
    };
    assert.ok('uiPort' in patch.requestBody.content['application/json'].schema.properties);
  });
});
