import { performance } from 'node:perf_hooks';
import { MockdevError } from '../core/errors.js';
import { compileRoutes } from '../core/match/router.js';
import { EndpointSchema } from '../core/model/endpoint.js';
import type { Resource, ResourceItem } from '../core/model/resource.js';
import type { ResourceStateStore } from '../core/ports-serving.js';
import {
  countIds,
  createItem,
  deleteItem,
  getItem,
  itemBody,
  listItems,
  NO_BODY,
  patchItem,
  replaceItem,
  withIds,
  type IdCounter,
  type Scope,
} from '../core/resources/crud.js';
import { currentItems } from '../core/resources/state.js';
import type { TemplateResources } from '../core/templates/helpers-resources.js';
import { buildAnswer, problemAnswer, type Answer } from './answer.js';
import type { CompiledEndpoint, WithFlows } from './compile.js';
import { bodyJson, NOT_JSON, type Exchange } from './exchange.js';
import { parseQuery } from './wiremock-request.js';

/**
 * The resources of the served project at run time (docs/resources.md "At run time"): their
 * items in memory, shared by every request; each change written behind to the data directory
 * (ResourceStateStore), off the response path, in batches (one write per changed resource per
 * batch, FLUSH_MS after the first change, one batch at a time), and flushed when the server stops. Each load (start,
 * and every change of the project) takes the definitions: an unchanged revision keeps the items;
 * a new one takes what was staged for it, else the seed (core/resources/state.ts).
 */

/** How long after a change its batch is written. */
export const FLUSH_MS = 50;

interface Live {
  def: Resource;
  revision: number;
  items: ResourceItem[];
  /** What new ids count from, kept while ids are only added (unset: counted at the next POST). */
  counter?: IdCounter;
}

export interface ResourceRuntimeOptions {
  projectId: string;
  store: ResourceStateStore;
  bodyLimitBytes: number;
  onWarning?: (message: string) => void;
}

/** The name of the item-id parameter in the routes a resource's requests are read with. */
const ITEM = 'mockdev-item-id';

export class ResourceRuntime {
  private live = new Map<string, Live>();
  private byName = new Map<string, Live>();
  private compiled: CompiledEndpoint[] = [];
  private dirty = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private closed = false;
  /** How long the last batch took to write (ms). */
  private lastBatchMs = 0;
  private warned: string | undefined;

  constructor(private readonly options: ResourceRuntimeOptions) {}

  /** Takes the project's resource definitions (at start and at each reload). */
  async load(defs: readonly Resource[]): Promise<void> {
    const { store, projectId } = this.options;
    const next: [Resource, ResourceItem[] | undefined][] = await Promise.all(
      defs.map(async (def): Promise<[Resource, ResourceItem[] | undefined]> => {
        const had = this.live.get(def.id);
        if (had && had.revision === def.revision) return [def, undefined];
        try {
          const state = had ? undefined : await store.read(projectId, def.id);
          return [def, currentItems(def, state, await store.readStaged(projectId, def.id, def.revision))];
        } catch (e) {
          this.warn(
            `The state of resource "${def.name}" could not be read (${e instanceof Error ? e.message : String(e)}): serving its seed`,
          );
          return [def, def.seed];
        }
      }),
    );
    // From here on nothing is awaited: requests in between kept changing the items they saw.
    const live = new Map<string, Live>();
    for (const [def, items] of next) {
      const kept = this.live.get(def.id);
      if (items === undefined && kept) {
        kept.def = def;
        live.set(def.id, kept);
      } else {
        live.set(def.id, { def, revision: def.revision, items: withIds(items ?? def.seed, def.idField) });
        if (kept) this.changed(def.id);
      }
    }
    for (const id of this.dirty) if (!live.has(id)) this.dirty.delete(id);
    this.live = live;
    this.byName = new Map([...live.values()].map((l) => [l.def.name.toLowerCase(), l]));
    this.compiled = [...live.values()].flatMap((l) => this.compile(l));
  }

  /** The resources' operations, for the routes (after the endpoints: an endpoint wins). */
  get endpoints(): CompiledEndpoint[] {
    return this.compiled;
  }

  /** What templates see of the resources. */
  readonly access: TemplateResources = {
    globals: new Map<string, unknown>(),
    get: (name) => {
      const l = this.byName.get(name.toLowerCase());
      return l && { items: l.items, idField: l.def.idField };
    },
    set: (name, items) => {
      const l = this.byName.get(name.toLowerCase());
      if (!l) return;
      l.items = withIds(items, l.def.idField);
      l.counter = undefined;
      this.changed(l.def.id);
    },
  };

  /** A resource's items changed: written in the next batch. */
  private changed(id: string): void {
    this.dirty.add(id);
    this.schedule();
  }

  /**
   * The next batch, FLUSH_MS after the first change since the last one; a state so large that
   * writing it takes long is written less often (at most about a tenth of the time writing).
   */
  private schedule(): void {
    if (this.timer || this.flushing || this.closed || this.dirty.size === 0) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.flushing = this.writeBatch().finally(() => {
          this.flushing = undefined;
          this.schedule();
        });
      },
      Math.max(FLUSH_MS, this.lastBatchMs * 9),
    );
    this.timer.unref();
  }

  /** Writes every changed resource once, as it is now. */
  private async writeBatch(): Promise<void> {
    const { store, projectId } = this.options;
    const start = performance.now();
    const batch = [...this.dirty].flatMap((id) => {
      const l = this.live.get(id);
      return l ? [{ l, state: { revision: l.revision, items: l.items.slice() } }] : [];
    });
    this.dirty.clear();
    await Promise.all(
      batch.map(({ l, state }) =>
        store.write(projectId, l.def.id, state).catch((e: unknown) => {
          this.warn(
            `The state of resource "${l.def.name}" could not be written: ${e instanceof Error ? e.message : String(e)}`,
          );
        }),
      ),
    );
    this.lastBatchMs = performance.now() - start;
  }

  /** Writes what changed and is not written yet (the server stops). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flushing;
    while (this.dirty.size > 0) await this.writeBatch();
  }

  private warn(message: string): void {
    if (this.warned === message) return;
    this.warned = message;
    this.options.onWarning?.(message);
  }

  /** The six operations of one resource, as endpoints the routes hold. */
  private compile(l: Live): CompiledEndpoint[] {
    const limit = this.options.bodyLimitBytes;
    const base = l.def.path.replace(/\/+$/, '');
    const itemPath = `${base}/{${ITEM}}`;
    const routes = compileRoutes([
      { method: 'GET', path: base },
      { method: 'GET', path: itemPath },
    ]);
    const request = (ex: Exchange): { scope: Record<string, string>; id: string | undefined } => {
      const params = { ...(routes.match('GET', ex.url)?.params ?? {}) };
      const id = params[ITEM];
      delete params[ITEM];
      return { scope: params, id };
    };
    const json = (status: number, value: unknown, headers: Record<string, string> = {}): Answer =>
      buildAnswer(
        {
          status,
          headers,
          body: value === undefined ? '' : JSON.stringify(value),
          contentType: 'application/json',
        },
        limit,
        false,
      );
    const body = (ex: Exchange, what: string) => {
      const parsed = bodyJson(ex);
      return itemBody(parsed === NOT_JSON ? NO_BODY : parsed, what);
    };
    const { idField } = l.def;
    /** PUT and PATCH: the item changed by the body, 200. */
    const change = (how: typeof replaceItem, ex: Exchange, scope: Scope, id: string) => {
      const item = how(l.items, idField, scope, id, body(ex, `${ex.method} ${l.def.path}/{${idField}}`));
      this.changed(l.def.id);
      return json(200, item);
    };
    const ops: [string, string, (ex: Exchange, scope: Scope, id: string) => Answer][] = [
      [
        'GET',
        base,
        (ex, scope) => {
          const { total, items } = listItems(l.items, scope, parseQuery(ex.url));
          return json(200, items, {
            'X-Total-Count': String(total),
            'Access-Control-Expose-Headers': 'X-Total-Count',
          });
        },
      ],
      [
        'POST',
        base,
        (ex, scope) => {
          const item = createItem(
            l.items,
            idField,
            scope,
            body(ex, `POST ${l.def.path}`),
            (l.counter ??= countIds(l.items, idField)),
          );
          this.changed(l.def.id);
          const location = `${pathOf(ex.url).replace(/\/+$/, '')}/${encodeURIComponent(String(item[idField]))}`;
          return json(201, item, { Location: location, 'Access-Control-Expose-Headers': 'Location' });
        },
      ],
      ['GET', itemPath, (_ex, scope, id) => json(200, getItem(l.items, idField, scope, id))],
      ['PUT', itemPath, (ex, scope, id) => change(replaceItem, ex, scope, id)],
      ['PATCH', itemPath, (ex, scope, id) => change(patchItem, ex, scope, id)],
      [
        'DELETE',
        itemPath,
        (_ex, scope, id) => {
          deleteItem(l.items, idField, scope, id);
          l.counter = undefined;
          this.changed(l.def.id);
          return json(204, undefined);
        },
      ],
    ];
    return ops.map(([method, path, op]) => {
      const shown = path === itemPath ? `${base}/{${idField}}` : base;
      const endpoint = EndpointSchema.parse({
        id: l.def.id,
        name: `${l.def.name} (resource)`,
        method,
        path: shown,
        status: 200,
      });
      const produce = (ex: Exchange): Answer => {
        try {
          const { scope, id } = request(ex);
          // Read and changed in one go: nothing is awaited between (no lost update).
          return op(ex, scope, id ?? '');
        } catch (e) {
          if (!(e instanceof MockdevError)) throw e;
          return problemAnswer(e, { resourceId: l.def.id }, limit, false);
        }
      };
      const plan = { delay: 0, produce };
      const readsJson = method !== 'GET' && method !== 'DELETE';
      return {
        id: l.def.id,
        method,
        path: shown,
        enabled: true,
        endpoint,
        choose: () => plan,
        ...(readsJson ? { readsJson } : {}),
      };
    });
  }
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/**
 * The endpoints to serve with the resources' operations after them (the router keeps the first
 * of one method and path: an endpoint beats a resource's operation).
 */
export function withResources(
  runtime: ResourceRuntime | undefined,
  flows: WithFlows | undefined,
): WithFlows | undefined {
  const extra = runtime?.endpoints ?? [];
  if (extra.length === 0) return flows;
  return (compiled, compileAs) => [...(flows ? flows(compiled, compileAs) : compiled), ...extra];
}
