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

/** Field, its words, the MCP tool, the OpenAPI operation and the CLI command that show it. */
const EP = '/projects/{project}/endpoints';
const CASES: [string, FieldDoc, string | undefined, string, string][] = [
  ['status', ENDPOINT_DOCS.status, 'create_endpoint', `post ${EP}`, 'endpoint add'],
  ['path', ENDPOINT_DOCS.path, 'update_endpoint', `patch ${EP}/{endpoint}`, 'endpoint update'],
  ['mode', ENDPOINT_DOCS.mode, 'update_endpoint', `patch ${EP}/{endpoint}`, 'endpoint update'],
  ['timeoutMs', PROXY_DOCS.timeoutMs, 'create_endpoint', `post ${EP}`, 'endpoint add'],
  [
    'delay',
    VARIATION_DOCS.delay,
    'update_endpoint',
    `post ${EP}/{endpoint}/variations`,
    'endpoint variation add',
  ],
  ['port', PROJECT_DOCS.port, 'create_project', 'post /projects', 'project create'],
  ['name', ENVIRONMENT_DOCS.name, undefined, 'post /environments', 'environment create'],
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
    for (const [field, fieldDoc, toolName, operation, command] of CASES) {
      const what = `${field} (${fieldDoc.text.slice(0, 40)}…)`;
      if (toolName) {
        const tool = tools.find((x) => x.name === toolName)!;
        assert.ok(says(descriptionsOf(tool.inputSchema, field), fieldDoc), `MCP ${toolName}: ${what}`);
      }
      const [method, path] = operation.split(' ') as [string, string];
      const body = doc.paths[`${API_PREFIX}${path}`]?.[method]?.requestBody;
      assert.ok(body, `${operation} is in the document`);
      assert.ok(says(descriptionsOf(body, field), fieldDoc), `OpenAPI ${operation}: ${what}`);
      const help = await cli([...command.split(' '), '--help']);
      assert.equal(help.code, 0);
      assert.ok(says([help.stdout], fieldDoc), `mockdev ${command} --help: ${what}\n${help.stdout}`);
    }
  });
});
