/**
 * `mockdev export` writes each resource's operations (list and create on the collection; get,
 * replace, merge-patch and delete on its items), leaves out those an endpoint answers, and the
 * document validates (swagger-parser) in OpenAPI 3.0 and 3.1.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { json } from '../helpers/cli.js';
import { cliSandbox } from '../helpers/cli-inprocess.js';
import { ok } from '../helpers/flows.js';

type Doc = { paths: Record<string, Record<string, Record<string, unknown>>> };

describe('OpenAPI export of resources', () => {
  it("writes a resource's operations, not those an endpoint answers, and validates in 3.0 and 3.1", async (t) => {
    const { cli, dir } = cliSandbox(t, 'mockdev-export-resources-');
    ok(await cli(['project', 'create', 'shop']));
    writeFileSync(join(dir, 'seed.json'), JSON.stringify([{ login: 'ada', name: 'Ada' }]));
    ok(
      await cli([
        'resource',
        'add',
        'shop',
        '/api/orgs/{org}/members',
        '--id-field',
        'login',
        '--seed',
        'seed.json',
      ]),
    );
    ok(await cli(['resource', 'add', 'shop', '/orders']));
    // A hand-made endpoint answers DELETE /orders/{id} instead of the resource.
    ok(
      await cli([
        'endpoint',
        'add',
        'shop',
        '-m',
        'DELETE',
        '-p',
        '/orders/:id',
        '-s',
        '403',
        '-n',
        'no-delete',
      ]),
    );
    for (const version of ['3.0', '3.1']) {
      const doc = json<Doc>(ok(await cli(['export', 'shop', '-f', 'json', '--openapi', version])));
      await SwaggerParser.validate(structuredClone(doc) as never);
      const members = doc.paths['/api/orgs/{org}/members']!;
      const member = doc.paths['/api/orgs/{org}/members/{login}']!;
      assert.deepEqual(Object.keys(members), ['get', 'post']);
      assert.deepEqual(Object.keys(member), ['get', 'put', 'patch', 'delete']);
      assert.equal(members.get!['x-mockdev-resource'], 'members');
      const list = members.get!.responses as Record<
        string,
        { content: Record<string, { example: unknown }> }
      >;
      assert.deepEqual(list['200']!.content['application/json']!.example, [{ login: 'ada', name: 'Ada' }]);
      assert.deepEqual(
        (member.delete!.parameters as { name: string }[]).map((p) => p.name),
        ['org', 'login'],
      );
      assert.deepEqual(Object.keys(doc.paths['/orders']!), ['get', 'post']);
      // The endpoint's own operation, not the resource's.
      const item = doc.paths['/orders/{id}']!;
      assert.deepEqual(Object.keys(item).sort(), ['delete', 'get', 'patch', 'put']);
      assert.equal(item.delete!.summary, 'no-delete');
      assert.equal(item.delete!['x-mockdev-resource'], undefined);
      assert.equal(item.get!['x-mockdev-resource'], 'orders');
    }
  });
});
