/**
 * What an empty list says: "these filters" only when filters were given; without any, the plain
 * "nothing yet" message. The CLI (`requests list`, `endpoint list`) and the MCP tools
 * (`list_requests`, `list_endpoints`) alike.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { runCliInProcess } from '../helpers/cli-inprocess.js';
import { seedRequests, startInMemoryMcp, textOf } from '../helpers/mcp.js';

async function setUp(t: { after(fn: () => Promise<void>): void }) {
  const mcp = await startInMemoryMcp();
  t.after(() => mcp.close());
  const dataDir = join(mcp.dir, 'data');
  const cli = async (...args: string[]) => {
    const r = await runCliInProcess(args, { dataDir, cwd: mcp.dir });
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    return r.stdout.trim();
  };
  const tool = async (name: string, args: Record<string, unknown>) => {
    const r = (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;
    assert.ok(!r.isError, textOf(r));
    return textOf(r);
  };
  return { ...mcp, cli, tool };
}

describe('empty lists', () => {
  it('requests list: no filters gives "No requests logged yet", filters are named when given', async (t) => {
    const { cli, tool } = await setUp(t);
    await cli('project', 'create', 'Api');
    const plain = await cli('requests', 'list', 'Api');
    assert.match(plain, /^No requests logged yet\./);
    assert.doesNotMatch(plain, /filter/i);
    assert.equal(
      await cli('requests', 'list', 'Api', '-m', 'POST', '-s', '5xx', '--starred'),
      'No logged requests match these filters (-m POST, -s 5xx, --starred). Drop them to see every request.',
    );
    assert.equal(
      await cli('requests', 'list', 'Api', '--path', '/users'),
      'No logged requests match these filters (--path /users). Drop them to see every request.',
    );
    assert.match(
      await cli('requests', 'list', 'Api', '-l', '5'),
      /^No requests logged yet\./,
      '-l filters nothing',
    );
    const mcpPlain = await tool('list_requests', { projectId: 'Api' });
    assert.match(mcpPlain, /^No requests logged yet\./);
    assert.doesNotMatch(mcpPlain, /filter|match/i);
    assert.match(
      await tool('list_requests', { projectId: 'Api', method: 'POST' }),
      /^No logged requests match these filters \(method POST\)\./,
    );
  });

  it('requests list: a log that has requests, none of them matching, names the filters', async (t) => {
    const { cli, tool, ctx } = await setUp(t);
    await cli('project', 'create', 'Api');
    const id = JSON.parse(await cli('project', 'show', 'Api', '--json')).id as string;
    await seedRequests(ctx, id, null, [{ method: 'GET', url: '/a', status: 200 }]);
    assert.match(await cli('requests', 'list', 'Api'), /GET +\/a +200/);
    assert.equal(
      await cli('requests', 'list', 'Api', '-s', '404'),
      'No logged requests match these filters (-s 404). Drop them to see every request.',
    );
    assert.match(
      await tool('list_requests', { projectId: 'Api', status: '4xx', starred: true }),
      /^No logged requests match these filters \(status 4xx, starred true\)\./,
    );
  });

  it('endpoint list: "No endpoints" without filters, "No enabled endpoints" with --enabled-only', async (t) => {
    const { cli, tool } = await setUp(t);
    await cli('project', 'create', 'Api');
    assert.match(await cli('endpoint', 'list', 'Api'), /^No endpoints\. Add one/);
    await cli('endpoint', 'add', 'Api', '-p', '/off', '--disabled');
    assert.equal(
      await cli('endpoint', 'list', 'Api', '--enabled-only'),
      'No enabled endpoints. Drop --enabled-only to see the disabled ones.',
    );
    assert.equal(
      await cli('list', 'endpoints', 'Api', '--enabled-only'),
      'No enabled endpoints. Drop --enabled-only to see the disabled ones.',
    );
    assert.match(
      await tool('list_endpoints', { projectId: 'Api', enabledOnly: true }),
      /^No enabled endpoints\./,
    );
    assert.match(await tool('list_endpoints', { projectId: 'Api' }), /^1 endpoint:/);
  });
});
