import * as z from 'zod';
import {
  addFlowStep,
  createFlow,
  deleteFlow,
  getFlow,
  listFlows,
  removeFlowStep,
  setFlowEnabled,
  startFlowRun,
  updateFlow,
} from '../../app/flows.js';
import {
  FlowInputSchema,
  FlowPatchSchema,
  FlowRunSchema,
  FlowSchema,
  FlowStepInputSchema,
  FlowStepSchema,
} from '../../core/model/flow.js';
import { defineRoute, type Route } from '../route.js';
import { PROJECT_PARAM } from './projects.js';

/**
 * Flows, as `mockdev flow …` (docs/flows.md): the flows of a project, their steps, enabling and
 * disabling, and starting a run by hand. The runs themselves: flow-runs.ts.
 */

const TAG = 'Flows';
export const FLOW_PARAM = { flow: 'Flow id, or its name URL-encoded' };
const FLOW_PARAMS = { ...PROJECT_PARAM, ...FLOW_PARAM };
const STEP_PARAMS = { ...FLOW_PARAMS, step: 'Step id, or its label' };
const BASE = '/projects/{project}/flows';
const ONE = `${BASE}/{flow}`;

const StepChangeSchema = z.object({ flow: FlowSchema, step: FlowStepSchema });

const STEP_REFS =
  'Endpoints are named by id, name or `"METHOD /path"`, an `after` trigger’s step by id or label; they are saved as ids.';

export const flowRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: BASE,
    tag: TAG,
    summary: 'A project’s flows, in order (as `flow list --json`)',
    params: PROJECT_PARAM,
    response: { schema: z.array(FlowSchema), description: 'The flows, in order' },
    handle: async ({ ctx, params }) => (await listFlows(ctx, params.project!)).flows,
  }),
  defineRoute<z.output<typeof FlowInputSchema>>({
    method: 'POST',
    path: BASE,
    tag: TAG,
    summary: 'Create a flow (as `flow create --json`)',
    description: `Given with \`steps\`, the flow is whole and needs at least one step; without, it has none yet (add them with POST …/steps). ${STEP_REFS} A validation error names the field at fault in \`details.field\`, a dotted path from the flow (\`steps.1.action.url\`).`,
    params: PROJECT_PARAM,
    body: FlowInputSchema,
    response: { status: 201, schema: FlowSchema, description: 'The flow as saved' },
    handle: ({ ctx, params, body }) =>
      createFlow(ctx, params.project!, body, { whole: body.steps !== undefined }),
  }),
  defineRoute({
    method: 'GET',
    path: ONE,
    tag: TAG,
    summary: 'One flow (as `flow show --json`)',
    params: FLOW_PARAMS,
    response: { schema: FlowSchema, description: 'The flow' },
    handle: ({ ctx, params }) => getFlow(ctx, params.project!, params.flow!),
  }),
  defineRoute<z.output<typeof FlowPatchSchema>>({
    method: 'PATCH',
    path: ONE,
    tag: TAG,
    summary: 'Change a flow’s name, description, enabled or steps (as `flow update --json`)',
    description: `Fields left out stay; \`steps\` replaces every step (a step given with its \`id\` keeps it). ${STEP_REFS}`,
    params: FLOW_PARAMS,
    body: FlowPatchSchema,
    response: { schema: FlowSchema, description: 'The flow as saved' },
    handle: ({ ctx, params, body }) => updateFlow(ctx, params.project!, params.flow!, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: ONE,
    tag: TAG,
    summary: 'Delete a flow (as `flow delete -f`)',
    params: FLOW_PARAMS,
    response: { schema: FlowSchema, description: 'The flow deleted' },
    handle: ({ ctx, params }) => deleteFlow(ctx, params.project!, params.flow!),
  }),
  defineRoute({
    method: 'PUT',
    path: `${ONE}/enabled`,
    tag: TAG,
    summary: 'Enable a flow (as `flow enable`)',
    description: 'A flow without a `request` trigger starts a run at once on the project’s running server.',
    params: FLOW_PARAMS,
    response: { schema: FlowSchema, description: 'The flow, enabled' },
    handle: ({ ctx, params }) => setFlowEnabled(ctx, params.project!, params.flow!, true),
  }),
  defineRoute({
    method: 'DELETE',
    path: `${ONE}/enabled`,
    tag: TAG,
    summary: 'Disable a flow: it starts no run, and its pending steps are cancelled (as `flow disable`)',
    params: FLOW_PARAMS,
    response: { schema: FlowSchema, description: 'The flow, disabled' },
    handle: ({ ctx, params }) => setFlowEnabled(ctx, params.project!, params.flow!, false),
  }),
  defineRoute<z.output<typeof FlowStepInputSchema>>({
    method: 'POST',
    path: `${ONE}/steps`,
    tag: TAG,
    summary: 'Add a step at the end of a flow (as `flow step add --json`)',
    description: STEP_REFS,
    params: FLOW_PARAMS,
    body: FlowStepInputSchema,
    response: { status: 201, schema: StepChangeSchema, description: 'The flow and the step, as saved' },
    handle: ({ ctx, params, body }) => addFlowStep(ctx, params.project!, params.flow!, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: `${ONE}/steps/{step}`,
    tag: TAG,
    summary: 'Remove a step (as `flow step remove -f`); a step an `after` trigger names is refused',
    params: STEP_PARAMS,
    response: { schema: StepChangeSchema, description: 'The flow and the step removed' },
    handle: ({ ctx, params }) => removeFlowStep(ctx, params.project!, params.flow!, params.step!),
  }),
  defineRoute({
    method: 'POST',
    path: `${ONE}/runs`,
    tag: TAG,
    summary: 'Start a run by hand on the project’s running server (as `flow run`)',
    description:
      'Answers at once with the run as first recorded (`running`, its steps `pending`); follow it with GET …/flow-runs/{run}?wait=, or the `flow-run` events. No server of the project running, or the flow disabled: 409 `CONFLICT`, saying what to do.',
    params: FLOW_PARAMS,
    response: { status: 202, schema: FlowRunSchema, description: 'The run, started' },
    handle: ({ ctx, params }) => startFlowRun(ctx, params.project!, params.flow!),
  }),
];
