/**
 * A body that is not valid JSON under a JSON content type is saved (a mock may send broken JSON
 * on purpose) with a warning: on stderr from `endpoint add/update` and `variation add/update`, in
 * the result of MCP create_endpoint / update_endpoint. One rule, the core's (json-body.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Endpoint } from '../../src/core/model/endpoint.js';
import { json, type CliResult } from '../helpers/cli.js';
import { cliSandbox } from '../helpers/cli-inprocess.js';
import { ok, startInMemoryMcp, textOf } from '../helpers/mcp.js';

const ok0 = (r: CliResult): CliResult => {
  assert.equal(r.code, 0, r.stderr);
  return r;
};

const WARNING =
  /^warning: the body is not valid JSON \(line 1, column 7: expected a value, found "}"\) although its content type is application\/json; saved as written\n$/;

describe('a body that is not JSON under a JSON content type', () => {
  it('endpoint add/update and variation add/update save it and warn on stderr', async (t) => {
    const { cli } = cliSandbox(t, 'mockdev-json-warning-');
    ok0(await cli(['project', 'create', 'Api']));
    const added = ok0(await cli(['endpoint', 'add', 'Api', '-p', '/broken', '-b', '{"a": }', '--json']));
    assert.match(added.stderr, WARNING);
    assert.equal(json<Endpoint>(added).body, '{"a": }', 'saved as given');

    // Not JSON on purpose elsewhere: no warning for text, for templates, for an empty body.
    for (const args of [
      ['-p', '/text', '-b', '{"a": }', '--content-type', 'text/plain'],
      ['-p', '/template', '-b', '{"n": {{int 1 9}}}'],
      ['-p', '/empty'],
      ['-p', '/fine', '-b', '{"a": 1}', '--content-type', 'application/problem+json'],
    ])
      assert.equal(ok0(await cli(['endpoint', 'add', 'Api', ...args])).stderr, '', args.join(' '));

    assert.match(
      ok0(await cli(['endpoint', 'update', 'Api', 'GET /fine', '-b', '{"a": }'])).stderr,
      /^warning: the body is not valid JSON .*application\/problem\+json/,
    );
    assert.match(
      ok0(await cli(['endpoint', 'update', 'Api', 'GET /text', '--content-type', 'application/json'])).stderr,
      WARNING,
    );
    assert.equal(
      ok0(await cli(['endpoint', 'update', 'Api', 'GET /broken', '-s', '201'])).stderr,
      '',
      'body untouched',
    );

    const variation = ok0(
      await cli(['endpoint', 'variation', 'add', 'Api', 'GET /empty', '-n', 'bad', '-b', "{'single': 1}"]),
    );
    assert.match(
      variation.stderr,
      /^warning: the body of variation "bad" is not valid JSON \(line 1, column 2: expected a property name in double quotes, found "'"\)/,
    );
    const updated = ok0(
      await cli(['endpoint', 'variation', 'update', 'Api', 'GET /empty', 'bad', '-b', '[1,]']),
    );
    assert.match(
      updated.stderr,
      /^warning: the body of variation "bad" is not valid JSON \(line 1, column 4/,
    );
    assert.equal(
      ok0(await cli(['endpoint', 'variation', 'update', 'Api', 'GET /empty', 'bad', '-b', '[1]'])).stderr,
      '',
    );
  });

  it('MCP create_endpoint and update_endpoint return the warning in their result', async (t) => {
    const mcp = await startInMemoryMcp();
    t.after(() => mcp.close());
    const project = await ok<{ id: string }>(mcp.client, 'create_project', { name: 'Api' });
    const created = (await mcp.client.callTool({
      name: 'create_endpoint',
      arguments: { projectId: project.id, path: '/broken', body: '{"a": }' },
    })) as CallToolResult;
    assert.equal(created.isError, undefined);
    assert.match(
      textOf(created),
      /warning: The body is not valid JSON \(line 1, column 7: .*saved as written/,
    );
    const id = (created.structuredContent as Endpoint).id;
    const fixed = (await mcp.client.callTool({
      name: 'update_endpoint',
      arguments: { projectId: project.id, endpointId: id, body: '{"a": 1}' },
    })) as CallToolResult;
    assert.doesNotMatch(textOf(fixed), /warning/);
  });
});
