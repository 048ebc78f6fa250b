/**
 * update_endpoint with variations, rules and mode over MCP (in process): the tool schema
 * describes them, good input is stored, bad input is an isError result with a clear message.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Endpoint } from '../../src/core/model/endpoint.js';
import type { ProjectDetail } from '../../src/core/model/project.js';
import { fails, ok, startInMemoryMcp } from '../helpers/mcp.js';

type Schema = { description?: string; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[] };

describe('MCP: variations through update_endpoint', () => {
  it('describes rules and mode, stores them, and refuses bad ones with isError', async (t) => {
    const mcp = await startInMemoryMcp();
    t.after(() => mcp.close());
    const { client } = mcp;
    const { tools } = await client.listTools();
    const update = tools.find((x) => x.name === 'update_endpoint')!;
    const props = update.inputSchema.properties as Record<string, Schema>;
    assert.match(props.mode!.description!, /sequential.*random/);
    const variationItem = props.variations!.items ?? props.variations!.anyOf?.find((s) => s.items)?.items;
    const rules = variationItem!.properties!.rules!;
    assert.match(rules.description!, /ALL of these rules/);
    const ruleItem = rules.items ?? rules.anyOf?.find((s) => s.items)?.items;
    for (const field of ['source', 'key', 'op', 'value'])
      assert.ok(ruleItem!.properties![field]!.description, `rule.${field} is described`);

    const projectId = (await ok<ProjectDetail>(client, 'create_project', { name: 'V' })).id;
    const e = await ok<Endpoint>(client, 'create_endpoint', { projectId, path: '/users/{id}' });
    const variation = (id: string, name: string, rules?: unknown) => ({
      id,
      name,
      status: 404,
      ...(rules ? { rules } : {}),
    });
    const updated = await ok<Endpoint>(client, 'update_endpoint', {
      projectId,
      endpointId: e.id,
      mode: 'sequential',
      variations: [variation('v1', 'zero', [{ source: 'param', key: 'id', op: 'equals', value: '0' }])],
    });
    assert.equal(updated.mode, 'sequential');
    assert.deepEqual(updated.variations[0]!.rules, [
      { source: 'param', key: 'id', op: 'equals', value: '0' },
    ]);
    const reset = await ok<Endpoint>(client, 'update_endpoint', { projectId, endpointId: e.id, mode: null });
    assert.equal(reset.mode, undefined);

    const bad = (args: Record<string, unknown>, re: RegExp) =>
      fails(client, 'update_endpoint', { projectId, endpointId: e.id, ...args }, re);
    await bad(
      { variations: [variation('v1', 'x', [{ source: 'query', key: 'a', op: 'regex', value: '(' }])] },
      /not a valid regular expression/,
    );
    await bad(
      { variations: [variation('v1', 'x', [{ source: 'query', key: 'a', op: 'regex', value: '(a)\\1' }])] },
      /backreference .*cannot run in linear time/,
    );
    await bad(
      { variations: [variation('v1', 'x', [{ source: 'query', key: 'a', op: 'equals' }])] },
      /equals needs a value/,
    );
    await bad(
      { variations: [variation('v1', 'x', [{ source: 'cookie', key: 'a', op: 'exists' }])] },
      /source/,
    );
    await bad(
      { variations: [variation('v1', 'x', [{ source: 'query', key: '', op: 'exists' }])] },
      /key.*must not be empty/,
    );
    await bad(
      { variations: [variation('v1', 'x'), variation('v2', 'X')] },
      /another variation has this name/,
    );
    await bad({ mode: 'sometimes' }, /mode/);
    await bad({ activeVariationId: 'ghost' }, /Variation "ghost" does not exist/);
  });
});
