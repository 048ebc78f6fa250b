/**
 * One description per field, in the core (core/model/descriptions.ts), reaching every surface
 * that describes the field: the MCP tools' input schemas (tools/list), the admin API's OpenAPI
 * document (GET /api/v1/openapi.json) and the CLI's option help (--help). None restates it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { API_PREFIX } from '../../src/api/handler.js';
import {
  ENDPOINT_DOCS,
  ENVIRONMENT_DOCS,
  PROJECT_DOCS,
  PROXY_DOCS,
  VARIATION_DOCS,
  type FieldDoc,
} from '../../src/core/model/descriptions.js';
import { apiSandbox } from '../helpers/api.js';
import { cliSandbox } from '../helpers/cli-inprocess.js';
import { startInMemoryMcp } from '../helpers/mcp.js';

type Json = Record<string, unknown>;

/** Every description given to a property named `field` anywhere under `schema`. */
function descriptionsOf(schema: unknown, field: string): string[] {
  const out: string[] = [];
  const walk = (v: unknown, under: boolean): void => {
    if (Array.isArray(v)) return v.forEach((x) => walk(x, under));
    if (!v || typeof v !== 'object') return;
    const o = v as Json;
    if (under && typeof o.description === 'string') out.push(o.description);
    for (const [k, x] of Object.entries(o)) {
      if (k === 'properties' && x && typeof x === 'object') {
        for (const [name, p] of Object.entries(x as Json)) walk(p, name === field);
      } else if (k === 'anyOf' || k === 'oneOf' || k === 'items') walk(x, under);
      else if (k !== 'description') walk(x, false);
    }
  };
  walk(schema, false);
  return out;
}

/** The text as the CLI prints it: whitespace collapsed (help wraps lines), first letter in any case. */
const flat = (s: string) => s.replace(/\s+/g, ' ');
const says = (texts: string[], doc: FieldDoc) =>
  texts.some((t) => flat(t).toLowerCase().includes(flat(doc.text).toLowerCase()));

/** Field, MCP tool, OpenAPI operation (method and path) and CLI command showing it. */
const CASES: { field: string; doc: FieldDoc; tool?: string; op: [string, string]; cli: string[] }[] = [
  {
    field: 'status',
    doc: ENDPOINT_DOCS.status,
    tool: 'create_endpoint',
    op: ['post', '/projects/{project}/endpoints'],
    cli: ['endpoint', 'add'],
  },
  {
    field: 'path',
    doc: ENDPOINT_DOCS.path,
    tool: 'update_endpoint',
    op: ['patch', '/projects/{project}/endpoints/{endpoint}'],
    cli: ['endpoint', 'update'],
  },
  {
    field: 'mode',
    doc: ENDPOINT_DOCS.mode,
    tool: 'update_endpoint',
    op: ['patch', '/projects/{project}/endpoints/{endpoint}'],
    cli: ['endpoint', 'update'],
  },
  {
    field: 'timeoutMs',
    doc: PROXY_DOCS.timeoutMs,
    tool: 'create_endpoint',
    op: ['post', '/projects/{project}/endpoints'],
    cli: ['endpoint', 'add'],
  },
  {
    field: 'delay',
    doc: VARIATION_DOCS.delay,
    tool: 'update_endpoint',
    op: ['post', '/projects/{project}/endpoints/{endpoint}/variations'],
    cli: ['endpoint', 'variation', 'add'],
  },
  {
    field: 'port',
    doc: PROJECT_DOCS.port,
    tool: 'create_project',
    op: ['post', '/projects'],
    cli: ['project', 'create'],
  },
  {
    field: 'name',
    doc: ENVIRONMENT_DOCS.name,
    op: ['post', '/environments'],
    cli: ['environment', 'create'],
  },
];

describe('field descriptions: one text in the core, on every surface', () => {
  it('reach the MCP input schemas, the OpenAPI document and the CLI help alike', async (t) => {
    const mcp = await startInMemoryMcp();
    t.after(() => mcp.close());
    const { tools } = await mcp.client.listTools();
    const api = apiSandbox(t);
    const doc = (await api.call('GET', `${API_PREFIX}/openapi.json`)).json as {
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    };
    const { cli } = cliSandbox(t);
    for (const c of CASES) {
      const what = `${c.field} (${c.doc.text.slice(0, 40)}…)`;
      if (c.tool) {
        const tool = tools.find((x) => x.name === c.tool)!;
        assert.ok(says(descriptionsOf(tool.inputSchema, c.field), c.doc), `MCP ${c.tool}: ${what}`);
      }
      const body = doc.paths[`${API_PREFIX}${c.op[1]}`]?.[c.op[0]]?.requestBody;
      assert.ok(body, `${c.op.join(' ')} is in the document`);
      assert.ok(says(descriptionsOf(body, c.field), c.doc), `OpenAPI ${c.op.join(' ')}: ${what}`);
      const help = await cli([...c.cli, '--help']);
      assert.equal(help.code, 0);
      assert.ok(says([help.stdout], c.doc), `mockdev ${c.cli.join(' ')} --help: ${what}\n${help.stdout}`);
    }
  });
});
