import * as z from 'zod';
import type { AppContext } from '../../app/context.js';

/** The four categories of SPEC 4.3. */
export type ToolCategory = 'project' | 'endpoint' | 'request' | 'openapi';

/** MCP tool annotations (hints for the client; mockdev never reaches outside the machine). */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: false;
}

export const READ_ONLY: ToolHints = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
export const ADDITIVE: ToolHints = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
export const UPDATE: ToolHints = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
export const DESTRUCTIVE: ToolHints = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};

/** What a tool hands back: a readable text and the structured result (a JSON object). */
export interface ToolOutput<O extends Record<string, unknown> = Record<string, unknown>> {
  /** One or two lines a person (or an assistant) can read; the JSON follows it in the result. */
  summary: string;
  data: O;
  /** Text sent instead of "summary + JSON" (export_openapi sends the document itself). */
  text?: string;
}

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  category: ToolCategory;
  description: string;
  input: I;
  output: O;
  hints: ToolHints;
  /** Other argument names assistants commonly use, mapped to the documented one. */
  aliases?: Record<string, string>;
  run(ctx: AppContext, args: z.output<I>): Promise<ToolOutput<z.output<O>>>;
}

/** Identity helper that ties a tool's run() arguments to its input schema. */
export const defineTool = <I extends z.ZodObject, O extends z.ZodObject>(
  tool: ToolDefinition<I, O>,
): ToolDefinition => tool as unknown as ToolDefinition;

/** The project argument every project-scoped tool takes. */
export const projectIdField = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .describe(
    'Project id or exact project name (see list_projects). Only projects in the mockdev data directory are reachable.',
  );

export const endpointIdField = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .describe(
    'Endpoint id, endpoint name, or "METHOD /path" such as "GET /api/users/{id}" (see list_endpoints).',
  );

/** Common spellings of the project argument. */
export const PROJECT_ALIASES = {
  project: 'projectId',
  project_id: 'projectId',
  projectName: 'projectId',
} as const;
export const ENDPOINT_ALIASES = { endpoint: 'endpointId', endpoint_id: 'endpointId' } as const;
