import { MockdevError } from '../../core/errors.js';
import type { Recognition } from '../converted.js';
import type { MockoonRule } from './rules.js';

/**
 * Reading a Mockoon environment as any version wrote it (its models: packages/commons of
 * mockoon/mockoon): the environment file itself (`routes`, since 1.x; `rootChildren` and
 * `folders` since its migration 24), or the older export `{ source: "mockoon:…", data: [{ type:
 * "environment", item }] }`. Older shapes are read as Mockoon's own migrations would: a route
 * holding its response (before `responses`), `statusCode` as text, `isRegex`, `randomResponse` /
 * `sequentialResponse`, `enabled: false`, no `default` (the first response is).
 */

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
export const text = (v: unknown): string => (typeof v === 'string' ? v : '');

export interface MockoonHeader {
  key: string;
  value: string;
}

export interface MockoonResponse {
  label: string;
  status: unknown;
  headers: MockoonHeader[];
  body: string;
  latency: number;
  bodyType: string;
  filePath: string;
  databucketID: string;
  disableTemplating: boolean;
  isDefault: boolean;
  rules: MockoonRule[];
  rulesOperator: 'AND' | 'OR';
  crudKey: string;
  callbacks: number;
}

export interface MockoonRoute {
  type: string;
  method: string;
  endpoint: string;
  documentation: string;
  responseMode: string | null;
  enabled: boolean;
  responses: MockoonResponse[];
}

/** Mockoon's older export: `{ source: "mockoon:1.x", data: [{ type, item }] }`. */
const isExport = (doc: Obj): boolean => typeof doc.source === 'string' && doc.source.startsWith('mockoon');

/** Whether a parsed document is Mockoon's, and when it is but cannot be read, why. */
export function recognize(doc: unknown): Recognition {
  if (!isObj(doc)) return { looksLike: false };
  if (isExport(doc)) {
    if (!Array.isArray(doc.data)) return { looksLike: true, problem: 'data is not a list' };
    const env = doc.data.find((d) => isObj(d) && d.type === 'environment');
    if (!env) return { looksLike: true, problem: 'data holds no environment (type "environment")' };
    return recognize((env as Obj).item);
  }
  const mockoonish =
    typeof doc.lastMigration === 'number' ||
    'endpointPrefix' in doc ||
    'rootChildren' in doc ||
    ('routes' in doc && 'proxyMode' in doc);
  if (!mockoonish) return { looksLike: false };
  if (!Array.isArray(doc.routes)) return { looksLike: true, problem: 'routes is not a list' };
  return { looksLike: true };
}

/** The environment of a document (the file, or the first one of an older export). */
export function environmentOf(doc: unknown): { env: Obj; others: number } {
  const r = recognize(doc);
  if (!r.looksLike || r.problem)
    throw new MockdevError(
      'INVALID_INPUT',
      `Not a Mockoon environment: ${r.problem ?? 'no routes, endpointPrefix or lastMigration'}`,
      {
        hint: 'Export the environment from Mockoon (its JSON file, or File > Export)',
        details: { field: 'routes' },
      },
    );
  const d = doc as Obj;
  if (isExport(d)) {
    const envs = (d.data as unknown[]).filter((x) => isObj(x) && x.type === 'environment') as Obj[];
    return { env: envs[0]!.item as Obj, others: envs.length - 1 };
  }
  return { env: d, others: 0 };
}

export function headersOf(v: unknown): MockoonHeader[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isObj).map((h) => ({ key: text(h.key).trim(), value: text(h.value) }));
}

function responseOf(r: Obj, index: number): MockoonResponse {
  return {
    label: text(r.label),
    status: r.statusCode ?? 200,
    headers: headersOf(r.headers),
    body: text(r.body),
    latency: typeof r.latency === 'number' ? r.latency : Number(r.latency) || 0,
    bodyType: text(r.bodyType) || (text(r.filePath) && r.sendFileAsBody !== false ? 'FILE' : 'INLINE'),
    filePath: text(r.filePath),
    databucketID: text(r.databucketID),
    disableTemplating: r.disableTemplating === true,
    isDefault: r.default === undefined ? index === 0 : r.default === true,
    rules: Array.isArray(r.rules) ? (r.rules.filter(isObj) as MockoonRule[]) : [],
    rulesOperator: r.rulesOperator === 'AND' ? 'AND' : 'OR',
    crudKey: text(r.crudKey) || 'id',
    callbacks: Array.isArray(r.callbacks) ? r.callbacks.length : 0,
  };
}

function routeOf(r: Obj): MockoonRoute {
  const responses = Array.isArray(r.responses)
    ? r.responses.filter(isObj).map(responseOf)
    : // Before `responses`, a route held its one response.
      [responseOf(r, 0)];
  const legacyMode =
    r.sequentialResponse === true ? 'SEQUENTIAL' : r.randomResponse === true ? 'RANDOM' : null;
  return {
    type: text(r.type) || 'http',
    method: text(r.method).toLowerCase(),
    endpoint: text(r.endpoint),
    documentation: text(r.documentation),
    responseMode: typeof r.responseMode === 'string' ? r.responseMode : legacyMode,
    enabled: r.enabled !== false,
    responses,
  };
}

/**
 * The routes in the order Mockoon matches them: the tree of `rootChildren` and `folders` walked
 * depth first when there is one, then any route it does not reach, in `routes` order.
 */
export function orderedRoutes(env: Obj): MockoonRoute[] {
  const routes = (env.routes as unknown[]).filter(isObj);
  const byUuid = new Map(routes.map((r) => [text(r.uuid), r]));
  const folders = new Map(
    (Array.isArray(env.folders) ? env.folders.filter(isObj) : []).map((f) => [text(f.uuid), f]),
  );
  const seen = new Set<Obj>();
  const visiting = new Set<string>();
  const walk = (children: unknown): void => {
    if (!Array.isArray(children)) return;
    for (const c of children.filter(isObj)) {
      const uuid = text(c.uuid);
      if (c.type === 'route' && byUuid.has(uuid)) seen.add(byUuid.get(uuid)!);
      else if (c.type === 'folder' && folders.has(uuid) && !visiting.has(uuid)) {
        visiting.add(uuid);
        walk(folders.get(uuid)!.children);
      }
    }
  };
  walk(env.rootChildren);
  for (const r of routes) seen.add(r);
  return [...seen].map(routeOf);
}
