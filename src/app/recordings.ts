import { MockdevError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { endpointKey } from '../core/match/route-key.js';
import { VariationSchema, type Endpoint } from '../core/model/endpoint.js';
import type { Recording } from '../core/model/recording.js';
import type { StoredProject } from '../core/ports.js';
import { isHopByHop, connectionNames } from '../core/proxy/headers.js';
import type { AppContext } from './context.js';
import { addEndpoint, findEndpointByRef, updateEndpoint } from './endpoints.js';
import { resolveProject } from './projects.js';

/**
 * Recordings of proxy endpoints (docs/decisions.md "Proxy endpoints and recordings"). An
 * ENDPOINT reference is an endpoint id (looked up in every project the store knows) or
 * `PROJECT/ENDPOINT` (ENDPOINT an id or a name; names never contain "/").
 */

export interface EndpointInProject {
  project: StoredProject;
  endpoint: Endpoint;
}

/** An ENDPOINT reference, or a project and one of its endpoints (id or name) given apart. */
export type EndpointRef = string | { project: string; endpoint: string };

export async function resolveEndpoint(ctx: AppContext, ref: EndpointRef): Promise<EndpointInProject> {
  if (typeof ref !== 'string') {
    const project = await resolveProject(ctx, ref.project);
    return { project, endpoint: findEndpointByRef(project, ref.endpoint) };
  }
  const slash = ref.indexOf('/');
  if (slash !== -1) {
    const project = await resolveProject(ctx, ref.slice(0, slash));
    return { project, endpoint: findEndpointByRef(project, ref.slice(slash + 1)) };
  }
  const { projects } = await ctx.projects.list();
  for (const project of projects) {
    const endpoint = project.endpoints.find((e) => e.id === ref);
    if (endpoint) return { project, endpoint };
  }
  throw new MockdevError('NOT_FOUND', `No endpoint has the id "${ref}"`, {
    hint: 'Give an endpoint id, or PROJECT/ENDPOINT with the endpoint\'s id or name, e.g. my-api/"Get user"',
    details: { endpoint: ref },
  });
}

export async function listRecordings(
  ctx: AppContext,
  ref: EndpointRef,
  options: { limit?: number } = {},
): Promise<EndpointInProject & { recordings: Recording[] }> {
  const found = await resolveEndpoint(ctx, ref);
  return { ...found, recordings: await ctx.recordings.list(found.endpoint.id, options) };
}

export async function getRecording(ctx: AppContext, id: string): Promise<Recording> {
  const r = await ctx.recordings.get(id.trim());
  if (!r) throw notFound(id);
  return r;
}

const notFound = (id: string) =>
  new MockdevError('NOT_FOUND', `Recording "${id}" not found`, {
    hint: (say) => `${say.action('listRecordings')} to see the recordings of an endpoint`,
    details: { recording: id },
  });

export async function deleteRecording(ctx: AppContext, id: string): Promise<void> {
  if (!(await ctx.recordings.delete(id.trim()))) throw notFound(id);
}

export async function clearRecordings(
  ctx: AppContext,
  ref: EndpointRef,
): Promise<EndpointInProject & { deleted: number }> {
  const found = await resolveEndpoint(ctx, ref);
  return { ...found, deleted: await ctx.recordings.clearEndpoints([found.endpoint.id]) };
}

export interface RecordingCount {
  project: { id: string; name: string };
  endpoints: { id: string; name: string; method: string; path: string; count: number }[];
  total: number;
}

/** How many recordings each endpoint of a project has (every proxy endpoint, and any other with some). */
export async function countRecordings(ctx: AppContext, projectRef: string): Promise<RecordingCount> {
  const project = await resolveProject(ctx, projectRef);
  const counts = await ctx.recordings.countByEndpoint(project.project.id);
  const endpoints = project.endpoints
    .filter((e) => e.kind === 'proxy' || counts[e.id])
    .map((e) => ({ id: e.id, name: e.name, method: e.method, path: e.path, count: counts[e.id] ?? 0 }));
  return {
    project: { id: project.project.id, name: project.project.name },
    endpoints,
    total: endpoints.reduce((n, e) => n + e.count, 0),
  };
}

/**
 * Response headers a replay sends: the recorded ones without hop-by-hop headers, without
 * Content-Length (the server sets it) and Content-Type (it becomes contentType), and without
 * Content-Encoding when the body was stored decoded.
 */
export function replayHeaders(r: Recording): { headers: Record<string, string>; contentType?: string } {
  const raw = Object.entries(r.response.headers).flat();
  const listed = connectionNames(raw);
  const headers: Record<string, string> = {};
  let contentType: string | undefined;
  for (const [name, value] of Object.entries(r.response.headers)) {
    const lower = name.toLowerCase();
    if (isHopByHop(lower, listed) || lower === 'content-length') continue;
    if (lower === 'content-encoding' && r.response.decodedFrom !== null) continue;
    if (lower === 'content-type') contentType = value;
    else headers[name] = value;
  }
  return { headers, ...(contentType ? { contentType } : {}) };
}

export interface ToMockOptions {
  /** Add it as a variation of the mock endpoint with the same method and path instead. */
  asVariation?: boolean;
  /** Name of the new endpoint or variation. */
  name?: string;
}

/**
 * Turns a recording into a mock endpoint (method, the recorded path, status, headers, body) in
 * the project of its proxy endpoint, or with `asVariation` into a variation of the mock endpoint
 * with that method and path. Returns the endpoint created or changed.
 */
export async function recordingToMock(
  ctx: AppContext,
  id: string,
  options: ToMockOptions = {},
): Promise<Endpoint> {
  const r = await getRecording(ctx, id);
  const res = r.response;
  if (res.bodyEncoding === 'base64') {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Recording "${r.id}" has a binary response body, which a mock endpoint cannot hold (its body is text)`,
      { details: { recording: r.id } },
    );
  }
  if (res.truncated) {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Recording "${r.id}" holds only the start of its response body (it was longer than the body cap)`,
      {
        hint: 'Raise requestBodyLimitBytes in settings.json and record the exchange again',
        details: { recording: r.id },
      },
    );
  }
  const [project] = await ctx.projects.find(r.projectId);
  if (!project) {
    throw new MockdevError(
      'PROJECT_NOT_FOUND',
      `The project of recording "${r.id}" (${r.projectId}) no longer exists`,
    );
  }
  const { headers, contentType } = replayHeaders(r);
  const response = {
    status: res.status,
    headers,
    body: res.body ?? '',
    ...(contentType ? { contentType } : {}),
  };
  if (!options.asVariation) {
    return addEndpoint(ctx, project.project.id, {
      ...(options.name ? { name: options.name } : {}),
      method: r.request.method,
      path: r.request.path,
      ...response,
    });
  }
  const key = endpointKey(r.request.method, r.request.path);
  const host = project.endpoints.find((e) => e.kind === 'mock' && endpointKey(e.method, e.path) === key);
  if (!host) {
    throw new MockdevError(
      'NOT_FOUND',
      `No mock endpoint ${r.request.method} ${r.request.path} in project "${project.project.name}" to add the variation to`,
      { hint: (say) => `leave out ${say.option('asVariation')} to create the endpoint` },
    );
  }
  const variation = VariationSchema.parse({
    id: newId(),
    name: options.name ?? `recorded ${r.id}`,
    ...response,
  });
  return updateEndpoint(ctx, project.project.id, host.id, { variations: [...host.variations, variation] });
}
