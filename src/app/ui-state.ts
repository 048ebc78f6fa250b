import { EMPTY_TREE_STATE, type TreeState, type TreeStateView } from '../core/model/ui-state.js';
import type { AppContext } from './context.js';
import { resolveProject } from './projects.js';

async function view(ctx: AppContext, projectId: string): Promise<TreeStateView> {
  const state = await ctx.uiState.readTree(projectId);
  return { ...(state ?? EMPTY_TREE_STATE), saved: state !== undefined };
}

/** The endpoint tree's expanded folders of a project (none, and `saved: false`, when never saved). */
export async function getTreeState(ctx: AppContext, project: string): Promise<TreeStateView> {
  const target = await resolveProject(ctx, project);
  return view(ctx, target.project.id);
}

/** Replaces the project's expanded folders; answers them as kept (duplicates dropped). */
export async function setTreeState(
  ctx: AppContext,
  project: string,
  state: TreeState,
): Promise<TreeStateView> {
  const target = await resolveProject(ctx, project);
  await ctx.uiState.writeTree(target.project.id, state);
  return view(ctx, target.project.id);
}
