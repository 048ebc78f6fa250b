import { MockdevError } from '../core/errors.js';
import type { Endpoint } from '../core/model/endpoint.js';
import type { Flow } from '../core/model/flow.js';
import type { ProjectStore, Subscription } from '../core/ports.js';
import { compileProject, type CompiledEndpoint, type CompiledProject } from './compile.js';
import { flowsMentionFaker, flowTemplateTexts } from './flows/compile.js';
import type { ProxyOptions } from './proxy.js';
import { withResources, type ResourceRuntime } from './resources.js';
import type { Resource } from '../core/model/resource.js';
import type { TunnelUrl } from './templated.js';
import {
  fakerLoaded,
  loadFaker,
  mentionsFaker,
  readsEnvironment as readsEnv,
} from '../core/templates/engine.js';

export interface EndpointSourceOptions {
  projects: ProjectStore;
  /** The served project's key in the store. */
  key: string;
  bodyLimitBytes: number;
  /** What proxy endpoints need: where recordings go, whether the server is stopping. */
  proxy?: Omit<ProxyOptions, 'bodyLimitBytes'>;
  /** Endpoints already read (the start-up read): compiled without reading again. */
  initial: Endpoint[];
  /** The flows read with them (none when omitted). */
  initialFlows?: Flow[];
  /** The project's resources at run time (runtime/resources.ts), loaded at open and each reload. */
  resources?: { runtime: ResourceRuntime; initial: Resource[] };
  /** Compiles the flows with the endpoints at each load (the server's flow engine); unset: flows are not served. */
  flows?: FlowCompiler;
  /**
   * The variables templates see as `{{env.KEY}}` and the values of the secrets among them (the
   * log masks those), read at start (see EndpointSource.open) and at each reload. Default: none.
   */
  environment?: () => Promise<TemplateEnvironment>;
  /** The environment read at start (by EndpointSource.open). */
  initialEnvironment?: TemplateEnvironment;
  /**
   * How often the environment is read again to see whether it changed (an environment activated
   * or edited by any process), when the endpoints use it. Default 1000 ms.
   */
  environmentPollMs?: number;
  /**
   * The project's tunnel URL (`{{tunnel.url}}`): `current` is what templates read when they
   * render; `read` gets it again (the tunnel registry's record of the project), at start, at
   * each reload and every `environmentPollMs`, so a tunnel started or stopped meanwhile is seen.
   */
  tunnel?: { current: TunnelUrl; read: () => Promise<string> };
  /** A template failed for a request (it was answered 500). */
  onTemplateError?: (message: string) => void;
  onReload?: (endpoints: Endpoint[]) => void;
  onWarning?: (message: string) => void;
  /** The project was deleted (still gone after a grace period, so an editor's save is not mistaken for it). */
  onGone?: () => void;
}

/** What compiles a project's flows into its endpoints (runtime/flows/engine.ts). */
export interface FlowCompiler {
  compile(
    flows: readonly Flow[],
    endpoints: CompiledEndpoint[],
    compileAs: (e: Endpoint) => CompiledEndpoint,
    env: TemplateEnvironment,
  ): CompiledEndpoint[];
}

/** What templates see of the environment: its variables, and which values are secrets. */
export interface TemplateEnvironment {
  variables: Record<string, string>;
  secrets: string[];
}
const NO_ENVIRONMENT: TemplateEnvironment = { variables: {}, secrets: [] };

/** How long a project must stay gone before the source says so. */
export const GONE_GRACE_MS = 500;

/**
 * Every text of an endpoint that may be a template: status texts, bodies, header values (of the
 * responses whose templating is on), the proxy target.
 */
function templateTexts(e: Endpoint): string[] {
  const texts = (r: Pick<Endpoint, 'statusText' | 'headers' | 'templating'> & { body?: string }) =>
    r.templating === false
      ? []
      : [...(r.statusText ? [r.statusText] : []), r.body ?? '', ...Object.values(r.headers)];
  return [...texts(e), ...e.variations.flatMap(texts), ...(e.proxy ? [e.proxy.target] : [])];
}

/** Whether any template of these endpoints (or flows) uses fake data (the library must be loaded first). */
export function needsFaker(endpoints: Endpoint[], flows: readonly Flow[] = []): boolean {
  if (fakerLoaded()) return false;
  return endpoints.some((e) => templateTexts(e).some(mentionsFaker)) || flowsMentionFaker(flows);
}

/** Whether any template of these endpoints (or flows) reads the environment (`env.…`, or the whole context). */
export function readsEnvironment(endpoints: Endpoint[], flows: readonly Flow[] = []): boolean {
  return endpoints.some((e) => templateTexts(e).some(readsEnv)) || flowTemplateTexts(flows).some(readsEnv);
}

const isGone = (e: unknown) => e instanceof MockdevError && e.code === 'PROJECT_NOT_FOUND';

/**
 * Live reload: the endpoints of the served project as they are now (and its flows, compiled with
 * them by the server's flow engine, `flows`), whoever changed them (CLI,
 * MCP, an editor). The store's change feed marks them dirty as soon as it hears of a change; the
 * next request waits for the project to be read again and compiled (so a change made before a
 * request was sent is seen by that request), and without traffic a short timer reloads anyway
 * (so a broken edit is reported even when nobody calls the server). A project that cannot be
 * read keeps the last good endpoints, with one warning per problem; one that was deleted (and
 * stays so for GONE_GRACE_MS) is reported through `onGone`.
 */
export class EndpointSource {
  private compiled: CompiledProject;
  private dirty = false;
  private reloading: Promise<void> | undefined;
  private warned: string | undefined;
  private readonly subscription: Subscription;
  private settle: NodeJS.Timeout | undefined;
  private goneCheck: NodeJS.Timeout | undefined;
  private closed = false;

  /**
   * Opens a source after what compiling needs: the variables read, the fake-data library loaded
   * when a template uses it (rendering is synchronous).
   */
  static async open(options: EndpointSourceOptions): Promise<EndpointSource> {
    const initialEnvironment = options.environment ? await options.environment() : NO_ENVIRONMENT;
    if (options.tunnel) options.tunnel.current.url = await options.tunnel.read();
    if (needsFaker(options.initial, options.flows ? options.initialFlows : [])) await loadFaker();
    await options.resources?.runtime.load(options.resources.initial);
    return new EndpointSource({ ...options, initialEnvironment });
  }

  private environment: TemplateEnvironment;

  constructor(private readonly options: EndpointSourceOptions) {
    this.environment = options.initialEnvironment ?? NO_ENVIRONMENT;
    this.compiled = this.compile(options.initial, options.initialFlows ?? []);
    this.subscription = options.projects.watch(() => this.markDirty(), { key: options.key });
    this.current = this.current.bind(this);
    if (options.environment) {
      this.envPoll = setInterval(() => void this.checkEnvironment(), options.environmentPollMs ?? 1000);
      this.envPoll.unref();
    }
    if (options.tunnel) {
      this.tunnelPoll = setInterval(() => void this.readTunnel(), options.environmentPollMs ?? 1000);
      this.tunnelPoll.unref();
    }
  }

  private tunnelPoll: NodeJS.Timeout | undefined;
  /** Reads the tunnel URL again; templates see it from their next render (nothing recompiles). */
  private async readTunnel(): Promise<void> {
    const tunnel = this.options.tunnel;
    if (!tunnel || this.closed) return;
    try {
      tunnel.current.url = await tunnel.read();
    } catch {
      // kept as it was: the next read may work
    }
  }

  private envPoll: NodeJS.Timeout | undefined;
  private envChecking = false;
  /** Whether the endpoints in force read `env` (worked out when they are compiled). */
  private usesEnvironment = false;

  /** Reloads when the environment changed; only endpoints with templates read it, so only they pay. */
  private async checkEnvironment(): Promise<void> {
    if (this.envChecking || this.dirty || this.reloading || !this.usesEnvironment) return;
    this.envChecking = true;
    try {
      const next = await this.options.environment!();
      if (JSON.stringify(next) !== JSON.stringify(this.environment)) this.markDirty();
    } catch {
      // A broken environment file is reported by the reload it would cause; nothing to do here.
    } finally {
      this.envChecking = false;
    }
  }

  /** The compile warnings said last: a reload repeats only new ones. */
  private compileWarnings = new Set<string>();

  private compile(endpoints: Endpoint[], flows: readonly Flow[]): CompiledProject {
    const flowCompiler = this.options.flows;
    if (!flowCompiler) flows = [];
    this.usesEnvironment = readsEnvironment(endpoints, flows);
    const environment = this.environment;
    const resources = this.options.resources?.runtime;
    const compiled = compileProject(
      endpoints,
      this.options.bodyLimitBytes,
      this.options.proxy,
      {
        env: environment.variables,
        secrets: environment.secrets,
        onError: this.options.onTemplateError,
        tunnel: this.options.tunnel?.current,
        resources: resources?.access,
      },
      withResources(
        resources,
        flowCompiler && ((c, compileAs) => flowCompiler.compile(flows, c, compileAs, environment)),
      ),
    );
    for (const w of compiled.warnings) if (!this.compileWarnings.has(w)) this.options.onWarning?.(w);
    this.compileWarnings = new Set(compiled.warnings);
    return compiled;
  }

  private markDirty(): void {
    this.dirty = true;
    if (this.settle) return;
    this.settle = setTimeout(() => {
      this.settle = undefined;
      if (this.dirty) void this.settled();
    }, 50);
    this.settle.unref();
  }

  /** The endpoints in force; a promise while a change is being read. */
  current(): CompiledProject | Promise<CompiledProject> {
    return this.dirty || this.reloading ? this.settled() : this.compiled;
  }

  get endpoints(): Endpoint[] {
    return this.compiled.endpoints;
  }

  /** Waits until every change heard of so far has been read. */
  private async settled(): Promise<CompiledProject> {
    while (this.dirty || this.reloading) {
      if (!this.reloading) this.reloading = this.reload();
      await this.reloading;
    }
    return this.compiled;
  }

  private async reload(): Promise<void> {
    this.dirty = false;
    try {
      const { endpoints, flows, resources } = await this.options.projects.read(this.options.key);
      // The last good endpoints serve until the variables are read and faker is loaded.
      if (this.options.environment) this.environment = await this.options.environment();
      await this.readTunnel();
      if (needsFaker(endpoints, this.options.flows ? flows : [])) await loadFaker();
      await this.options.resources?.runtime.load(resources);
      this.compiled = this.compile(endpoints, flows);
      this.warned = undefined;
      this.options.onReload?.(endpoints);
    } catch (e) {
      if (isGone(e)) return this.confirmGone();
      const message = e instanceof Error ? e.message : String(e);
      if (this.warned !== message) {
        this.warned = message;
        this.options.onWarning?.(
          `${message}. Still serving the last good endpoints (${this.compiled.endpoints.length}); fix the file and it reloads`,
        );
      }
    } finally {
      this.reloading = undefined;
    }
  }

  /** Reads the project once more after the grace period; still gone: `onGone`. */
  private confirmGone(): void {
    if (this.goneCheck || !this.options.onGone) return;
    this.goneCheck = setTimeout(() => {
      void this.options.projects.read(this.options.key).then(
        () => {
          this.goneCheck = undefined;
          this.markDirty();
        },
        (e: unknown) => {
          this.goneCheck = undefined;
          if (this.closed) return;
          if (isGone(e)) this.options.onGone?.();
          else this.markDirty();
        },
      );
    }, GONE_GRACE_MS);
    this.goneCheck.unref();
  }

  close(): void {
    this.closed = true;
    this.subscription.close();
    if (this.settle) clearTimeout(this.settle);
    if (this.goneCheck) clearTimeout(this.goneCheck);
    if (this.envPoll) clearInterval(this.envPoll);
    if (this.tunnelPoll) clearInterval(this.tunnelPoll);
  }
}
