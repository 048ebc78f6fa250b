import type { TreeState } from '../core/model/ui-state.js';
import type { AppContext } from './context.js';
import { resolveProject } from './projects.js';

/** The endpoint tree's expanded folders of a project (none when never saved). */
export async function getTreeState(ctx: AppContext, project: string): Promise<TreeState> {
  const target = await resolveProject(ctx, project);
  return ctx.uiState.readTree(target.project.id);
}

/** Replaces the project's expanded folders; answers them as kept (duplicates dropped). */
export async function setTreeState(ctx: AppContext, project: string, state: TreeState): Promise<TreeState> {
  const target = await resolveProject(ctx, project);
  await ctx.uiState.writeTree(target.project.id, state);
  return ctx.uiState.readTree(target.project.id);
}
