import { MockdevError } from '../../core/errors.js';
import { EndpointInputSchema, type EndpointInput } from '../../core/model/endpoint.js';
import { PORT_MAX, PORT_MIN } from '../../core/model/limits.js';
import { suggestEndpointName, uniqueName } from '../../core/naming.js';
import { withIds } from '../../core/resources/crud.js';
import { checkItems } from '../../core/resources/definition.js';
import type { ConvertedImport, ImportNote } from '../converted.js';
import { cleanName } from '../openapi/import.js';
import { bucketsOf, findBucket, ResourceMaker, type Bucket } from './buckets.js';
import { responsesOf, type EnvironmentDefaults } from './responses.js';
import { environmentOf, headersOf, orderedRoutes, text, type MockoonRoute, type Obj } from './shapes.js';

/** Mockoon's environment as mockdev's endpoints and resources (docs/import-mockoon.md). */

/** What a route's `all` method, and the environment's proxy, become: one endpoint per method. */
export const ANY_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** `/prefix` + `/users/:id` -> `/prefix/users/{id}` (Mockoon's path, our parameters). */
export function pathOf(prefix: string, endpoint: string): string {
  const joined = `/${prefix}/${endpoint}`.replace(/\/{2,}/g, '/');
  const trimmed = joined.length > 1 ? joined.replace(/\/$/, '') : joined;
  return trimmed.replace(/(^|\/):([A-Za-z0-9_]+)(?=\/|$)/g, '$1{$2}');
}

/** A route key for duplicates: parameters of any name are the same route. */
const routeKey = (method: string, path: string): string => `${method} ${path.replace(/\{[^}]*\}/g, '{}')}`;

class Notes {
  readonly approximate: ImportNote[] = [];
  readonly skipped: ImportNote[] = [];
  add(kind: 'approximate' | 'skipped', where: Omit<ImportNote, 'message'>, message: string): void {
    this[kind].push({ ...where, message });
  }
}

function seedFor(bucket: Bucket, idField: string, say: (m: string) => void): Obj[] | null {
  if (!Array.isArray(bucket.seed)) {
    say(`data bucket "${bucket.name}" makes no resource: ${bucket.seed.problem}`);
    return null;
  }
  const seed = withIds(bucket.seed, idField);
  if (seed !== bucket.seed) say(`data bucket "${bucket.name}": items without "${idField}" were given one`);
  try {
    checkItems(seed, idField, '/', 'seed');
  } catch (e) {
    if (!(e instanceof MockdevError)) throw e;
    say(`data bucket "${bucket.name}" makes no resource: ${e.message}`);
    return null;
  }
  return seed;
}

export function convertEnvironment(doc: unknown): ConvertedImport {
  const { env, others } = environmentOf(doc);
  const notes = new Notes();
  if (others > 0)
    notes.add(
      'skipped',
      {},
      `${others} more environment${others === 1 ? '' : 's'} in the export: import each on its own`,
    );
  const prefix = text(env.endpointPrefix);
  const buckets = bucketsOf(env);
  const defaults: EnvironmentDefaults = {
    headers: headersOf(env.headers),
    latency: typeof env.latency === 'number' && env.latency > 0 ? env.latency : 0,
    bucketText: (id) => findBucket(buckets, id)?.text,
  };
  const endpoints: EndpointInput[] = [];
  const taken = new Set<string>();
  const names: string[] = [];
  const routes = orderedRoutes(env);
  const resources = new ResourceMaker();
  const usedBuckets = new Set<Bucket>();

  for (const route of routes) {
    const path = pathOf(prefix, route.endpoint);
    const where = {
      method: route.method.toUpperCase() || undefined,
      path,
      name: route.documentation || undefined,
    };
    const say = (kind: 'approximate' | 'skipped', m: string) => notes.add(kind, where, m);
    if (route.type === 'ws') {
      say('skipped', 'WebSocket routes are not imported');
      continue;
    }
    if (route.type === 'crud') {
      crudRoute(route, path, buckets, resources, usedBuckets, say);
      continue;
    }
    const fields = responsesOf(route, defaults, say);
    if (!fields) continue;
    const methods = route.method === 'all' ? [...ANY_METHODS] : [route.method.toUpperCase()];
    if (route.method === 'all') say('approximate', `method "all" became ${ANY_METHODS.join(', ')}`);
    for (const method of methods) {
      const key = routeKey(method, path);
      if (taken.has(key)) {
        say('skipped', `${method} ${path}: an earlier route answers it (Mockoon takes the first)`);
        continue;
      }
      const name = uniqueName(cleanName(route.documentation) || suggestEndpointName(method, path), names);
      const input: EndpointInput = {
        name,
        method,
        path,
        ...fields,
        ...(route.enabled ? {} : { enabled: false }),
      };
      const parsed = EndpointInputSchema.safeParse(input);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        say('skipped', `${method} ${path}: ${issue.path.join('.') || 'route'} ${issue.message}`);
        continue;
      }
      taken.add(key);
      names.push(name);
      endpoints.push(input);
    }
  }

  // Buckets no CRUD route serves: a resource by the bucket's name, so templates read it.
  for (const bucket of buckets) {
    if (usedBuckets.has(bucket)) continue;
    const say = (m: string) => notes.add('approximate', { name: bucket.name }, m);
    if (!Array.isArray(bucket.seed)) {
      notes.add(
        'skipped',
        { name: bucket.name },
        `data bucket "${bucket.name}" makes no resource: ${bucket.seed.problem}`,
      );
      continue;
    }
    const seed = seedFor(bucket, 'id', say);
    if (!seed) continue;
    const path = resources.freePath(bucket.name);
    resources.add(path, bucket.name, seed, 'id');
    say(
      `data bucket "${bucket.name}" is a resource at ${path} (Mockoon serves a bucket only through a route)`,
    );
  }

  const proxy = proxyEndpoints(env, prefix, names);
  for (const p of proxy.endpoints) if (!taken.has(routeKey(p.method!, p.path))) endpoints.push(p);
  for (const m of proxy.notes) notes.add('approximate', {}, m);
  for (const m of environmentNotes(env)) notes.add('approximate', {}, m);

  const port =
    typeof env.port === 'number' && Number.isInteger(env.port) && env.port >= PORT_MIN && env.port <= PORT_MAX
      ? env.port
      : undefined;
  return {
    format: 'mockoon',
    ...(text(env.name).trim() ? { title: text(env.name).trim() } : {}),
    ...(port !== undefined ? { port } : {}),
    endpoints,
    resources: resources.resources,
    approximate: notes.approximate,
    skipped: notes.skipped,
    variables: [],
    templates: true,
  };
}

function crudRoute(
  route: MockoonRoute,
  path: string,
  buckets: Bucket[],
  resources: ResourceMaker,
  used: Set<Bucket>,
  say: (kind: 'approximate' | 'skipped', m: string) => void,
): void {
  const first = route.responses[0];
  const idField = first?.crudKey || 'id';
  const bucket = findBucket(buckets, first?.databucketID ?? '');
  if (resources.hasPath(path)) {
    say('skipped', `a resource is already at ${path}`);
    return;
  }
  let seed: Obj[] = [];
  if (!bucket) say('approximate', 'CRUD route without a data bucket: a resource with no items');
  else {
    used.add(bucket);
    seed = seedFor(bucket, idField, (m) => say('approximate', m)) ?? [];
  }
  if (route.responses.length > 1)
    say(
      'approximate',
      `CRUD route: its other ${route.responses.length - 1} response${route.responses.length === 2 ? '' : 's'} (rules over the CRUD answers) not imported`,
    );
  if (!route.enabled) say('approximate', 'a disabled CRUD route becomes a resource, which is always served');
  resources.add(path, bucket?.name ?? (cleanName(route.documentation) || path), seed, idField);
}

function proxyEndpoints(
  env: Obj,
  prefix: string,
  names: string[],
): { endpoints: EndpointInput[]; notes: string[] } {
  const target = text(env.proxyHost).trim();
  if (env.proxyMode !== true || !target) return { endpoints: [], notes: [] };
  // Unmatched requests go to proxyHost with their whole path; proxyRemovePrefix drops the prefix first.
  const paths = env.proxyRemovePrefix === true && prefix ? [pathOf(prefix, '*'), '/*'] : ['/*'];
  const endpoints: EndpointInput[] = [];
  for (const path of paths)
    for (const method of ANY_METHODS) {
      const name = uniqueName(suggestEndpointName(method, path).replace(/-all$/, '-proxy'), names);
      names.push(name);
      endpoints.push({ name, method, path, kind: 'proxy', proxy: { target, record: false } });
    }
  const bad = EndpointInputSchema.safeParse(endpoints[0]);
  if (!bad.success)
    return {
      endpoints: [],
      notes: [`proxy to ${JSON.stringify(target)} not imported: ${bad.error.issues[0]!.message}`],
    };
  const notes = [
    `proxy mode: requests no route answers go to ${target} (proxy endpoints ${paths.join(' and ')} for ${ANY_METHODS.join(', ')})`,
  ];
  const extra = headersOf(env.proxyReqHeaders).length + headersOf(env.proxyResHeaders).length;
  if (extra)
    notes.push(
      `proxy mode: the ${extra} header${extra === 1 ? '' : 's'} Mockoon adds to proxied requests and responses are not added`,
    );
  return { endpoints, notes };
}

function environmentNotes(env: Obj): string[] {
  const out: string[] = [];
  if (env.cors === true)
    out.push('cors: the CORS headers and OPTIONS answers Mockoon adds are not added (add them as headers)');
  if (Array.isArray(env.callbacks) && env.callbacks.length)
    out.push(`${env.callbacks.length} callback${env.callbacks.length === 1 ? '' : 's'} not imported`);
  const tls = env.tlsOptions as Obj | undefined;
  if ((tls && tls.enabled === true) || env.https === true)
    out.push("TLS: serve with mockdev's own HTTPS (docs/https.md); the certificate files are not imported");
  return out;
}
