import { DEFAULT_HOST } from '../core/model/fields.js';
import { buildSnippets, type Snippets } from '../core/snippets.js';
import type { AppContext } from './context.js';
import { findEndpointByRef } from './endpoints.js';
import { resolveProject, type ResolveOptions } from './projects.js';

/** An address a server listens on everywhere is called on this machine's loopback. */
const callable = (url: string): string =>
  url.replace(/^http:\/\/(0\.0\.0\.0|\[::\])(?=:)/, 'http://127.0.0.1');

/**
 * The base URL a client calls a project's mock server on: the running server's URL when one
 * runs (of any process), else http://127.0.0.1:<the project's port>.
 */
export async function projectServerUrl(
  ctx: AppContext,
  project: { id: string; port?: number },
): Promise<string> {
  const running = (await ctx.servers.list()).find((r) => r.projectId === project.id);
  if (running) return callable(running.url);
  const port = project.port ?? (await ctx.settings.read()).defaultPort;
  return `http://${DEFAULT_HOST}:${port}`;
}

/** "Copy as code" of an endpoint (curl, fetch, axios, python), calling its project's server. */
export async function endpointSnippets(
  ctx: AppContext,
  projectRef: string,
  endpointRef: string,
  options?: ResolveOptions,
): Promise<{ url: string; snippets: Snippets }> {
  const stored = await resolveProject(ctx, projectRef, options);
  const endpoint = findEndpointByRef(stored, endpointRef);
  const url = await projectServerUrl(ctx, stored.project);
  return { url, snippets: buildSnippets(endpoint, url) };
}
