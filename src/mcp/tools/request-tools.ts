import * as z from 'zod';
import { clearRequests, deleteRequests, getRequest, listRequests, starRequest } from '../../app/requests.js';
import { HTTP_METHODS } from '../../core/model/fields.js';
import {
  DEFAULT_REQUEST_LIST_LIMIT,
  MAX_REQUEST_LIST_LIMIT,
  RequestRecordSchema,
  type RequestRecord,
} from '../../core/model/request.js';
import { DESTRUCTIVE, PROJECT_ALIASES, READ_ONLY, UPDATE, defineTool, projectIdField } from './define.js';

/** Said after `Invalid limit N: `, as the core says it (CLI `-l`). */
const LIMIT_RULE = `must be a whole number from 1 to ${MAX_REQUEST_LIST_LIMIT}`;

const DATA_DIR_ONLY = { dataDirOnly: true } as const;

const requestLine = (r: RequestRecord) =>
  `${r.timestamp} ${r.method} ${r.path} -> ${r.status} (${r.durationMs} ms, id ${r.id})${r.starred ? ' [starred]' : ''}${r.contract && !r.contract.ok ? ` [${r.contract.violations.length} contract violation${r.contract.violations.length === 1 ? '' : 's'}]` : ''}`;

const requestIdField = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .describe('Id of a logged request (see list_requests).');

const REQUEST_ALIASES = { id: 'requestId', request_id: 'requestId', request: 'requestId' };

export const listRequestsTool = defineTool({
  name: 'list_requests',
  title: 'List logged requests',
  category: 'request',
  description:
    'List the requests the mock server of a project received, newest first, with method, path, status, headers, body and the response sent. ' +
    'Filters: limit, method, status (404, a class such as 4xx, or a list such as 200,201), starred, path (a text the path contains) and violations (failing a live contract check).',
  input: z.object({
    projectId: projectIdField,
    limit: z
      .number({ error: LIMIT_RULE })
      .int(LIMIT_RULE)
      .min(1, LIMIT_RULE)
      .max(MAX_REQUEST_LIST_LIMIT, LIMIT_RULE)
      .optional()
      .describe(`Most requests to return (default ${DEFAULT_REQUEST_LIST_LIMIT}).`),
    method: z
      .string()
      .optional()
      .describe(`Only requests with this HTTP method (${HTTP_METHODS.join(', ')}).`),
    status: z
      .union([z.string(), z.number().int()])
      .transform(String)
      .optional()
      .describe(
        'Only requests answered with this status: an exact status (404), a class (4xx) or a comma-separated list (200,201 or 2xx,404).',
      ),
    starred: z
      .boolean()
      .optional()
      .describe('true: only starred requests; false: only unstarred ones; omit for all.'),
    path: z
      .string()
      .optional()
      .describe(
        'Only requests whose path (as logged, without the query) contains this text, case-sensitive, such as /users.',
      ),
    violations: z
      .boolean()
      .optional()
      .describe(
        'true: only requests a live contract check (serve --contract) found violations in; false: the others; omit for all.',
      ),
  }),
  output: z.object({ requests: z.array(RequestRecordSchema).describe('Logged requests, newest first.') }),
  hints: READ_ONLY,
  aliases: PROJECT_ALIASES,
  async run(ctx, { projectId, ...filters }) {
    const requests = await listRequests(ctx, projectId, filters, DATA_DIR_ONLY);
    const given = Object.entries({
      method: filters.method,
      status: filters.status,
      starred: filters.starred,
      path: filters.path,
      violations: filters.violations,
    })
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k} ${String(v)}`);
    const summary = requests.length
      ? `${requests.length} request${requests.length === 1 ? '' : 's'} (newest first):\n${requests.map((r) => `- ${requestLine(r)}`).join('\n')}`
      : given.length
        ? `No logged requests match these filters (${given.join(', ')}). Call without them to see every request.`
        : 'No requests logged yet. Requests appear once the mock server of the project (mockdev serve) receives them.';
    return { summary, data: { requests } };
  },
});

export const getRequestTool = defineTool({
  name: 'get_request',
  title: 'Get logged request',
  category: 'request',
  description:
    'Show one logged request in full: method, path, query, headers, body, status, duration and the response that was sent.',
  input: z.object({ requestId: requestIdField }),
  output: RequestRecordSchema,
  hints: READ_ONLY,
  aliases: REQUEST_ALIASES,
  async run(ctx, args) {
    const record = await getRequest(ctx, args.requestId, DATA_DIR_ONLY);
    return { summary: requestLine(record), data: record };
  },
});

export const starRequestTool = defineTool({
  name: 'star_request',
  title: 'Star or unstar request',
  category: 'request',
  description:
    'Star a logged request to keep it (starred requests are kept when old ones are pruned), or unstar it with starred: false.',
  input: z.object({
    requestId: requestIdField,
    starred: z.boolean().default(true).describe('true to star (default), false to unstar.'),
  }),
  output: RequestRecordSchema,
  hints: UPDATE,
  aliases: REQUEST_ALIASES,
  async run(ctx, args) {
    const record = await starRequest(ctx, args.requestId, args.starred, DATA_DIR_ONLY);
    return {
      summary: `${args.starred ? 'Starred' : 'Unstarred'} request ${requestLine(record)}.`,
      data: record,
    };
  },
});

export const deleteRequestTool = defineTool({
  name: 'delete_request',
  title: 'Delete logged requests',
  category: 'request',
  description:
    'Delete one logged request, or several at once by giving an array of ids. All are deleted or none: an unknown id is an error naming it.',
  input: z.object({
    requestId: z
      .union([requestIdField, z.array(requestIdField).min(1, 'must hold at least one id')])
      .describe('Id of the request to delete, or an array of ids (see list_requests).'),
  }),
  output: z.object({ deleted: z.array(z.string()).describe('Ids of the deleted requests.') }),
  hints: DESTRUCTIVE,
  aliases: { ...REQUEST_ALIASES, ids: 'requestId', requestIds: 'requestId' },
  async run(ctx, args) {
    const ids = Array.isArray(args.requestId) ? args.requestId : [args.requestId];
    const result = await deleteRequests(ctx, ids, DATA_DIR_ONLY);
    return {
      summary: `Deleted ${result.deleted.length} request${result.deleted.length === 1 ? '' : 's'}.`,
      data: result,
    };
  },
});

export const clearRequestsTool = defineTool({
  name: 'clear_requests',
  title: 'Clear request log',
  category: 'request',
  description:
    'Delete every logged request of a project, starred ones included. This cannot be undone; confirm with the user first.',
  input: z.object({ projectId: projectIdField }),
  output: z.object({ deleted: z.number().int().describe('How many requests were deleted.') }),
  hints: DESTRUCTIVE,
  aliases: { ...PROJECT_ALIASES, id: 'projectId' },
  async run(ctx, args) {
    const result = await clearRequests(ctx, args.projectId, DATA_DIR_ONLY);
    return {
      summary: `Deleted ${result.deleted} logged request${result.deleted === 1 ? '' : 's'}.`,
      data: result,
    };
  },
});

export const REQUEST_TOOLS = [
  listRequestsTool,
  getRequestTool,
  starRequestTool,
  deleteRequestTool,
  clearRequestsTool,
];
