import { getTreeState, setTreeState } from '../../app/ui-state.js';
import { TreeStateSchema, TreeStateViewSchema, type TreeState } from '../../core/model/ui-state.js';
import { defineRoute, type Route } from '../route.js';
import { PROJECT_PARAM } from './projects.js';

/** What the web UI keeps per project in the data directory: the endpoint tree's expanded folders. */
export const uiStateRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/projects/{project}/tree-state',
    tag: 'UI state',
    summary: "The endpoint tree's expanded folders (path prefixes) for this project",
    params: PROJECT_PARAM,
    response: {
      schema: TreeStateViewSchema,
      description: 'The expanded folders; none, and saved false, when never saved (a first visit)',
    },
    handle: ({ ctx, params }) => getTreeState(ctx, params.project!),
  }),
  defineRoute<TreeState>({
    method: 'PUT',
    path: '/projects/{project}/tree-state',
    tag: 'UI state',
    summary: "Replace the endpoint tree's expanded folders for this project",
    params: PROJECT_PARAM,
    body: TreeStateSchema,
    response: { schema: TreeStateViewSchema, description: 'The expanded folders as kept' },
    handle: ({ ctx, params, body }) => setTreeState(ctx, params.project!, body),
  }),
];
