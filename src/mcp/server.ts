/**
 * The MCP server: the 18 tools of SPEC 4.3 over any transport. Tools are thin adapters over
 * the app use cases; this file is the one error boundary that turns a MockdevError (or any
 * failure) into an `isError: true` tool result, so bad input never takes the server down.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { withReach, type AppContext, type ProjectReach } from '../app/context.js';
import { MockdevError, toMockdevError } from '../core/errors.js';
import { parseArguments } from './arguments.js';
import type { ToolDefinition } from './tools/define.js';
import { ALL_TOOLS } from './tools/index.js';
import { MCP_WORDING } from './wording.js';

export const SERVER_NAME = 'mockdev';

export const INSTRUCTIONS =
  'mockdev manages local mock HTTP APIs. A project holds mock endpoints (method, path, status, headers, body); ' +
  'the mock server of a project answers requests from its enabled endpoints and logs each request. ' +
  'Start with list_projects to get a projectId; endpoint and request tools take it. ' +
  'Changes take effect on the next request to a running mock server.';

/** One finished tool call, as the HTTP mode's /mcp/logs shows it. */
export interface CallRecord {
  time: string;
  tool: string;
  durationMs: number;
  ok: boolean;
  /** Error code and message of a failed call. */
  error?: { code: string; message: string };
}

export interface McpServerOptions {
  ctx: AppContext;
  version: string;
  tools?: ToolDefinition[];
  /** Called after every tool call (success or failure). */
  onCall?: (record: CallRecord) => void;
  /** Called with unexpected (INTERNAL) errors, for diagnostics on stderr. */
  onInternalError?: (error: MockdevError) => void;
}

const JSON_SCHEMA_OPTIONS = { target: 'draft-7', unrepresentable: 'any' } as const;

/** Output schemas describe the result but do not forbid extra keys a newer core may add. */
function relax(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(relax);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'additionalProperties' && value === false) continue;
    out[key] = relax(value);
  }
  return out;
}

const listings = new WeakMap<ToolDefinition, Tool>();

/** The tools/list entry of a tool: JSON Schemas generated from its zod schemas. */
export function toolListing(tool: ToolDefinition): Tool {
  let listing = listings.get(tool);
  if (!listing) {
    listing = {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: z.toJSONSchema(tool.input, { ...JSON_SCHEMA_OPTIONS, io: 'input' }) as Tool['inputSchema'],
      outputSchema: relax(
        z.toJSONSchema(tool.output, { ...JSON_SCHEMA_OPTIONS, io: 'output' }),
      ) as Tool['outputSchema'],
      annotations: { title: tool.title, ...tool.hints },
    };
    listings.set(tool, listing);
  }
  return listing;
}

export const errorResult = (error: MockdevError): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: `Error ${error.code}: ${error.describe(MCP_WORDING)}` }],
});

/** Runs one tool call: validate, run the use case, shape the result. Never throws. */
export async function runTool(
  ctx: AppContext,
  tool: ToolDefinition,
  rawArgs: unknown,
): Promise<{ result: CallToolResult; error?: MockdevError }> {
  try {
    const args = parseArguments(tool, rawArgs);
    const out = await tool.run(ctx, args);
    const text = out.text ?? `${out.summary}\n\n${JSON.stringify(out.data, null, 2)}`;
    return { result: { content: [{ type: 'text', text }], structuredContent: out.data } };
  } catch (e) {
    const error = toMockdevError(e);
    return { result: errorResult(error), error };
  }
}

/**
 * What MCP clients reach (SPEC 4.3, DECISIONS "Trust and data"): the projects inside the data
 * directory, by id or name only.
 */
export const MCP_REACH: ProjectReach = { dataDirOnly: true, lookup: 'idOrName' };

export function createMcpServer(options: McpServerOptions): Server {
  const ctx = withReach(options.ctx, MCP_REACH);
  const tools = options.tools ?? ALL_TOOLS;
  const byName = new Map(tools.map((t) => [t.name, t]));
  const server = new Server(
    { name: SERVER_NAME, title: 'mockdev', version: options.version },
    { capabilities: { tools: { listChanged: false }, logging: {} }, instructions: INSTRUCTIONS },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(toolListing) }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const started = performance.now();
    const name = request.params.name;
    const tool = byName.get(name);
    let outcome: { result: CallToolResult; error?: MockdevError };
    if (!tool) {
      const error = new MockdevError('NOT_FOUND', `Unknown tool "${name}"`, {
        hint: `Available tools: ${tools.map((t) => t.name).join(', ')}`,
      });
      outcome = { result: errorResult(error), error };
    } else {
      outcome = await runTool(ctx, tool, request.params.arguments);
    }
    if (outcome.error?.code === 'INTERNAL') options.onInternalError?.(outcome.error);
    options.onCall?.({
      time: new Date().toISOString(),
      tool: name,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      ok: !outcome.error,
      ...(outcome.error
        ? { error: { code: outcome.error.code, message: outcome.error.describe(MCP_WORDING) } }
        : {}),
    });
    return outcome.result;
  });

  return server;
}
