import * as z from 'zod';
import { getFlowRun, listFlowRuns, waitFlowRun } from '../../app/flows.js';
import { FlowRunSchema } from '../../core/model/flow.js';
import { defineRoute, type Route } from '../route.js';
import { PROJECT_PARAM } from './projects.js';
import { queryInt } from './query-fields.js';
import { MAX_API_REQUEST_LIMIT } from './requests.js';

/**
 * The runs of a project's flows (as `flow runs` and `flow wait`): recent runs, and one run,
 * answered at once or when it ends (`?wait=`). The wait is the use case's (waitFlowRun polls the
 * run store asynchronously): the API answers other requests meanwhile.
 */

/** The longest `?wait=` one request may ask for (a client waiting longer asks again). */
export const MAX_FLOW_RUN_WAIT_MS = 60_000;

const TAG = 'Flows';
const RUN_PARAMS = { ...PROJECT_PARAM, run: 'Run id (as listed, or as POST …/runs answered)' };

const RunListQuery = z.object({
  flow: z
    .string()
    .trim()
    .min(1, 'must name a flow')
    .optional()
    .describe('Only the runs of this flow (id or name)'),
  limit: queryInt('At most this many, newest first', 1, MAX_API_REQUEST_LIMIT),
});

const RunQuery = z.object({
  wait: queryInt(
    `Answer when the run ends or after this many milliseconds, whichever comes first (at most ${MAX_FLOW_RUN_WAIT_MS}); left out: at once`,
    0,
    MAX_FLOW_RUN_WAIT_MS,
  ),
});

export const flowRunRoutes: Route[] = [
  defineRoute<unknown, z.output<typeof RunListQuery>>({
    method: 'GET',
    path: '/projects/{project}/flow-runs',
    tag: TAG,
    summary: 'A project’s recent flow runs, newest first, each with its steps (as `flow runs --json`)',
    params: PROJECT_PARAM,
    query: RunListQuery,
    response: { schema: z.array(FlowRunSchema), description: 'The runs, newest first' },
    handle: ({ ctx, params, query }) =>
      listFlowRuns(ctx, params.project!, { flow: query.flow, limit: query.limit }),
  }),
  defineRoute<unknown, z.output<typeof RunQuery>>({
    method: 'GET',
    path: '/projects/{project}/flow-runs/{run}',
    tag: TAG,
    summary: 'One run with its steps; with `?wait=` when it ends (as `flow wait --json`)',
    description:
      'With `wait`, the answer comes when the run has ended (`completed`, `failed` or `cancelled`) or when the wait is over, the run then still `running`: its `status` says which.',
    params: RUN_PARAMS,
    query: RunQuery,
    response: { schema: FlowRunSchema, description: 'The run' },
    handle: async ({ ctx, params, query }) =>
      query.wait
        ? (await waitFlowRun(ctx, params.project!, params.run!, { timeoutMs: query.wait })).run
        : getFlowRun(ctx, params.project!, params.run!),
  }),
];
