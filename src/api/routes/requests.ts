import * as z from 'zod';
import {
  clearRequests,
  countRequests,
  deleteRequests,
  getRequest,
  listRequests,
  requestStats,
  starRequest,
  waitForRequests,
} from '../../app/requests.js';
import { DEFAULT_REQUEST_LIST_LIMIT, RequestRecordSchema } from '../../core/model/request.js';
import {
  DEFAULT_STATS_MINUTES,
  RequestStatsSchema,
  STATS_BUCKETS,
  STATS_MINUTES_MAX,
  STATS_MINUTES_MIN,
} from '../../core/model/request-stats.js';
import {
  DEFAULT_WAIT_COUNT,
  DEFAULT_WAIT_TIMEOUT_MS,
  MAX_WAIT_COUNT,
  RequestWaitResultSchema,
} from '../../core/model/request-wait.js';
import { defineRoute, type Route } from '../route.js';
import { PROJECT_PARAM } from './projects.js';
import { queryInt } from './query-fields.js';

/** The largest page of logged requests one call answers. */
export const MAX_API_REQUEST_LIMIT = 1000;

/** The longest `…/requests/wait` one call may ask for (a client waiting longer asks again). */
export const MAX_API_WAIT_MS = 60_000;

const ID_PARAM = { id: 'Request id (as listed)' };

const RequestListQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_API_REQUEST_LIMIT)
    .optional()
    .describe(`At most this many, newest first (default ${DEFAULT_REQUEST_LIST_LIMIT})`),
  method: z.string().optional().describe('Only this HTTP method'),
  status: z.string().optional().describe('Only these statuses: 404, a class such as 4xx, or a list: 200,201'),
  starred: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional()
    .describe('true: only starred requests; false: only unstarred ones'),
  path: z
    .string()
    .optional()
    .describe('Only requests whose path (as logged, without the query) contains this text; case-sensitive'),
  violations: z
    .enum(['true', 'false'])
    .transform((v) => (v === 'true' ? true : undefined))
    .optional()
    .describe(
      'true: only requests a live contract check found violations in (`serve --contract`, docs/contract.md); false or absent: any',
    ),
});

const RequestStatsQuery = RequestListQuery.omit({ limit: true }).extend({
  minutes: z.coerce
    .number()
    .int()
    .min(STATS_MINUTES_MIN)
    .max(STATS_MINUTES_MAX)
    .optional()
    .describe(
      `How many minutes back, ${STATS_MINUTES_MIN}-${STATS_MINUTES_MAX} (default ${DEFAULT_STATS_MINUTES}), in ${STATS_BUCKETS} buckets`,
    ),
});

const RequestCountQuery = RequestListQuery.omit({ limit: true }).extend({
  since: z
    .string()
    .optional()
    .describe('Only requests logged after the request of this id (ids only grow; 0: every request)'),
});

const RequestWaitQuery = RequestCountQuery.extend({
  count: queryInt(
    `How many matching requests to wait for, 1-${MAX_WAIT_COUNT} (default ${DEFAULT_WAIT_COUNT})`,
    1,
    MAX_WAIT_COUNT,
  ),
  timeout: queryInt(
    `Answer after this many milliseconds if fewer matched, 0-${MAX_API_WAIT_MS} (default ${DEFAULT_WAIT_TIMEOUT_MS})`,
    0,
    MAX_API_WAIT_MS,
  ),
});

export const requestRoutes: Route[] = [
  defineRoute<unknown, z.output<typeof RequestCountQuery>>({
    method: 'GET',
    path: '/projects/{project}/requests/count',
    tag: 'Requests',
    summary:
      "How many of a project's logged requests pass the list's filters, after the request `since` when given (as `mockdev requests count --json`)",
    params: PROJECT_PARAM,
    query: RequestCountQuery,
    response: {
      schema: z.object({ count: z.number().int() }),
      description: 'How many requests match',
    },
    handle: ({ ctx, params, query }) => countRequests(ctx, params.project!, query),
  }),
  defineRoute<unknown, z.output<typeof RequestWaitQuery>>({
    method: 'GET',
    path: '/projects/{project}/requests/wait',
    tag: 'Requests',
    summary:
      'Answers as soon as `count` logged requests pass the filters (after `since`, or counting those already logged), or at the `timeout` (as `mockdev requests wait --json`)',
    description:
      'It follows the log as servers write it: the answer comes within milliseconds of the request that completes the count. `done` says whether the count was reached (false: the timeout ran out); the API answers other requests meanwhile.',
    params: PROJECT_PARAM,
    query: RequestWaitQuery,
    response: { schema: RequestWaitResultSchema, description: 'What the wait saw' },
    handle: ({ ctx, params, query, signal }) => {
      const { timeout, ...input } = query;
      return waitForRequests(ctx, params.project!, { ...input, timeoutMs: timeout }, { signal });
    },
  }),
  defineRoute<unknown, z.output<typeof RequestStatsQuery>>({
    method: 'GET',
    path: '/projects/{project}/requests/stats',
    tag: 'Requests',
    summary:
      "The request log's charts: the requests of the last minutes that pass the list's filters, per second by status class, and their latency histogram with p50/p95/p99",
    params: PROJECT_PARAM,
    query: RequestStatsQuery,
    response: {
      schema: RequestStatsSchema,
      description: 'Requests per second by status class, and latencies',
    },
    handle: ({ ctx, params, query }) => requestStats(ctx, params.project!, query),
  }),
  defineRoute<unknown, z.output<typeof RequestListQuery>>({
    method: 'GET',
    path: '/projects/{project}/requests',
    tag: 'Requests',
    summary: "A project's logged requests, newest first (as `mockdev requests list --json`)",
    params: PROJECT_PARAM,
    query: RequestListQuery,
    response: { schema: z.array(RequestRecordSchema), description: 'The requests, newest first' },
    handle: ({ ctx, params, query }) => listRequests(ctx, params.project!, query),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/projects/{project}/requests',
    tag: 'Requests',
    summary: 'Delete every logged request of a project, starred ones too (as `mockdev requests clear`)',
    params: PROJECT_PARAM,
    response: {
      schema: z.object({ deleted: z.number().int() }),
      description: 'How many requests were deleted',
    },
    handle: ({ ctx, params }) => clearRequests(ctx, params.project!),
  }),
  defineRoute({
    method: 'GET',
    path: '/requests/{id}',
    tag: 'Requests',
    summary: 'One logged request and its response (as `mockdev requests show --json`)',
    params: ID_PARAM,
    response: { schema: RequestRecordSchema, description: 'The request' },
    handle: ({ ctx, params }) => getRequest(ctx, params.id!),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/requests/{id}',
    tag: 'Requests',
    summary: 'Delete one logged request (as `mockdev requests delete`)',
    params: ID_PARAM,
    response: {
      schema: z.object({ deleted: z.array(z.string()) }),
      description: 'The id deleted',
    },
    handle: ({ ctx, params }) => deleteRequests(ctx, [params.id!]),
  }),
  defineRoute({
    method: 'PUT',
    path: '/requests/{id}/star',
    tag: 'Requests',
    summary: 'Star a logged request: retention keeps it longest (as `mockdev requests star`)',
    params: ID_PARAM,
    response: { schema: RequestRecordSchema, description: 'The request, starred' },
    handle: ({ ctx, params }) => starRequest(ctx, params.id!, true),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/requests/{id}/star',
    tag: 'Requests',
    summary: 'Unstar a logged request (as `mockdev requests star --unstar`)',
    params: ID_PARAM,
    response: { schema: RequestRecordSchema, description: 'The request, unstarred' },
    handle: ({ ctx, params }) => starRequest(ctx, params.id!, false),
  }),
];
