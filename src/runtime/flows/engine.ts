import { newId } from '../../core/ids.js';
import type { Endpoint } from '../../core/model/endpoint.js';
import type { Flow, FlowRun } from '../../core/model/flow.js';
import {
  CALLBACK_RETRY_BASE_MS,
  FLOW_DEPTH_HEADER,
  FLOW_DEPTH_MAX,
  FLOW_STOP_GRACE_MS,
} from '../../core/model/limits.js';
import type { FlowRunRequest, FlowRunWriter, NewRequestRecord } from '../../core/ports.js';
import type { TemplateContext } from '../../core/templates/engine.js';
import type { CompiledEndpoint } from '../compile.js';
import type { TemplateEnvironment } from '../endpoint-source.js';
import type { Exchange } from '../exchange.js';
import { rawHeader } from '../pipeline.js';
import { contextFor, type TunnelUrl } from '../templated.js';
import { sendCallback, type SendCallback } from './callback.js';
import { compileFlow, wireFlows, type CompiledFlow } from './compile.js';
import { KeptBody, loggedAnswer } from './context.js';
import { Run, STOPPED, type RunHost, type TriggeringRequest } from './run.js';

/**
 * The flows of one running server (docs/flows.md, "At run time"): compiled with the endpoints at each
 * (re)load (EndpointSource calls `compile`), they start runs on requests (the pipeline's flow
 * stage, after the response was sent and logged), at the server's start and when a flow is
 * enabled (`begin`, `compile`), and by hand (`requestRun`); disabling or deleting a flow cancels
 * its runs' pending steps; a stop cancels what has not fired at once, waits at most
 * FLOW_STOP_GRACE_MS for callbacks in flight, then cancels the rest. Every run is saved through
 * the run writer, opened when the first run starts (a server without flows never opens it).
 */

export interface FlowEngineOptions {
  projectId: string;
  /** Opens the run writer (ctx.flowRuns.openWriter), when a run is first saved. */
  openWriter: () => FlowRunWriter;
  /** One line each: a request refused by the depth guard, a flow that cannot work as stored. */
  warn?: (message: string) => void;
  /** Makes one callback attempt (default: node's http/https client). */
  send?: SendCallback;
  /** The wait before a callback's first retry (default CALLBACK_RETRY_BASE_MS). */
  retryBaseMs?: number;
  /** How long a stop waits for callbacks in flight (default FLOW_STOP_GRACE_MS). */
  graceMs?: number;
  /** Whether the runs' timers keep the process alive (default false: the server holds it). */
  refTimers?: boolean;
  /** The project's tunnel URL (`{{tunnel.url}}`), as it is when a run starts. */
  tunnel?: TunnelUrl;
}

const DEPTH_HEADER = FLOW_DEPTH_HEADER.toLowerCase();

/** A depth header's value as a number (anything else is 0: the request is no callback of ours). */
function depthOf(raw: string | undefined): number {
  if (raw === undefined) return 0;
  const n = Number(raw.trim());
  return Number.isInteger(n) && n > 0 ? n : 0;
}

export class FlowEngine {
  private flows = new Map<string, CompiledFlow>();
  private env: TemplateEnvironment = { variables: {}, secrets: [] };
  private readonly runs = new Set<Run>();
  private begun = false;
  /** When the stop began (Date.now()); unset while the server runs. */
  private stopAt: number | undefined;
  private writer: FlowRunWriter | undefined;
  private writerFailed = false;
  private warned = new Set<string>();
  private readonly host: RunHost;
  /** How each endpoint's requests are read for templates (its path parameters, query, headers). */
  private readonly requestContexts = new WeakMap<CompiledEndpoint, (ex: Exchange) => TemplateContext>();

  constructor(private readonly options: FlowEngineOptions) {
    this.host = {
      save: (run) => this.save(run),
      send: options.send ?? sendCallback,
      retryBaseMs: options.retryBaseMs ?? CALLBACK_RETRY_BASE_MS,
      stopping: () => this.stopAt !== undefined,
      refTimers: options.refTimers ?? false,
      ended: (run) => void this.runs.delete(run),
    };
  }

  /** Runs under way now. */
  get active(): number {
    return this.runs.size;
  }

  /**
   * Compiles the flows with the endpoints (EndpointSource, at each load): returns the endpoints
   * to serve. Runs of flows now disabled or deleted are cancelled; a flow newly enabled that no
   * request starts gets a run (once the server has begun).
   */
  compile(
    flows: readonly Flow[],
    endpoints: CompiledEndpoint[],
    compileAs: (e: Endpoint) => CompiledEndpoint,
    env: TemplateEnvironment,
  ): CompiledEndpoint[] {
    const secrets = env.secrets.filter((s) => s !== '');
    const before = this.flows;
    this.flows = new Map(flows.map((f) => [f.id, compileFlow(f, secrets.length > 0)]));
    this.env = { variables: env.variables, secrets };
    const warnings: string[] = [];
    const wired = wireFlows(
      [...this.flows.values()],
      endpoints,
      compileAs,
      (list, endpoint, ex, record) => this.startFromRequest(list, endpoint, ex, record),
      (m) => warnings.push(m),
    );
    for (const w of warnings) if (!this.warned.has(w)) this.options.warn?.(w);
    this.warned = new Set(warnings);
    for (const run of [...this.runs]) {
      const now = this.flows.get(run.flowId);
      if (!now) run.cancelAll('the flow was deleted');
      else if (!now.enabled) run.cancelAll('the flow was disabled');
    }
    if (this.begun && this.stopAt === undefined)
      for (const f of this.flows.values())
        if (startsItself(f) && before.get(f.id)?.enabled !== true) this.run(f, 'enabled');
    return wired;
  }

  /** The server listens: each enabled flow that no request starts gets a run. */
  begin(): void {
    if (this.begun) return;
    this.begun = true;
    for (const f of this.flows.values()) if (startsItself(f)) this.run(f, 'start');
  }

  /**
   * A run asked for by hand (`flow run`), under the id given. A flow this server does not know
   * (deleted meanwhile) or a disabled one is recorded as a run cancelled with no steps, so that
   * whoever waits for it is answered.
   */
  requestRun(request: FlowRunRequest): void {
    const flow = this.flows.get(request.flowId);
    if (flow?.enabled) {
      this.run(flow, 'manual', null, request.runId);
      return;
    }
    this.options.warn?.(
      `A run of flow ${flow ? `"${flow.name}"` : request.flowId} was asked for, but the flow is ${flow ? 'disabled' : 'unknown to this server'}: recorded as cancelled`,
    );
    const now = new Date().toISOString();
    this.save({
      id: request.runId,
      projectId: this.options.projectId,
      flowId: request.flowId,
      flowName: flow?.name ?? request.flowId,
      startedBy: 'manual',
      requestId: null,
      request: null,
      startedAt: now,
      finishedAt: now,
      status: 'cancelled',
      steps: [],
    });
  }

  /**
   * The stop begins: nothing fires from now on; delays, waits between attempts and steps not
   * fired yet are cancelled at once (a run started meanwhile has its steps cancelled as it starts).
   */
  beginStop(): void {
    if (this.stopAt !== undefined) return;
    this.stopAt = Date.now();
    for (const run of [...this.runs]) run.cancelWaiting(STOPPED);
  }

  /**
   * Stops: waits for callbacks in flight until FLOW_STOP_GRACE_MS after the stop began, cancels
   * whatever is left (every step not done recorded cancelled, none dropped), then closes the
   * run writer.
   */
  async stop(): Promise<void> {
    this.beginStop();
    const left = this.stopAt! + (this.options.graceMs ?? FLOW_STOP_GRACE_MS) - Date.now();
    if (this.runs.size > 0 && left > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all([...this.runs].map((r) => r.ended)),
        new Promise((r) => (timer = setTimeout(r, left))),
      ]);
      clearTimeout(timer);
    }
    for (const run of [...this.runs])
      run.cancelAll(
        `${STOPPED} (callbacks in flight are waited for at most ${Math.round((this.options.graceMs ?? FLOW_STOP_GRACE_MS) / 1000)} s)`,
      );
    const writer = this.writer;
    if (!writer) return;
    await writer.close();
    if (writer.lost > 0)
      this.options.warn?.(
        `${writer.lost} flow run update${writer.lost === 1 ? ' was' : 's were'} lost (see the warnings above)`,
      );
  }

  /** The pipeline's flow stage: the runs a request to `endpoint` starts (after the depth guard). */
  private startFromRequest(
    flows: readonly CompiledFlow[],
    endpoint: CompiledEndpoint,
    ex: Exchange,
    record: NewRequestRecord,
  ): void {
    try {
      const depth = depthOf(rawHeader(ex.req.rawHeaders, DEPTH_HEADER));
      const q = ex.url.indexOf('?');
      const path = q === -1 ? ex.url : ex.url.slice(0, q);
      if (depth >= FLOW_DEPTH_MAX) {
        this.options.warn?.(
          `${ex.method} ${path} came with ${FLOW_DEPTH_HEADER}: ${depth} (${FLOW_DEPTH_MAX} or more): it starts no flow run (a flow calling its own server stops here)`,
        );
        return;
      }
      let context = this.requestContexts.get(endpoint);
      if (!context) this.requestContexts.set(endpoint, (context = contextFor(endpoint.endpoint, {})));
      const read = context(ex);
      const trigger: TriggeringRequest = {
        endpointId: endpoint.id,
        request: {
          method: ex.method,
          url: ex.url,
          path,
          params: read.params,
          query: read.query,
          headers: read.headers,
          body: new KeptBody(ex.body),
        },
        response: loggedAnswer(record.status, record.response),
        depth,
        ref: { method: record.method, url: record.url, ts: record.ts },
      };
      for (const flow of flows) if (this.flows.get(flow.id)?.enabled) this.run(flow, 'request', trigger);
    } catch (e) {
      this.options.warn?.(
        `Flow runs of ${ex.method} ${ex.url} could not start: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }

  private run(
    flow: CompiledFlow,
    startedBy: FlowRun['startedBy'],
    trigger: TriggeringRequest | null = null,
    id = newId(),
  ): void {
    const run = new Run(
      {
        id,
        projectId: this.options.projectId,
        flow,
        startedBy,
        trigger,
        env: this.env,
        tunnelUrl: this.options.tunnel?.url ?? '',
      },
      this.host,
    );
    this.runs.add(run);
    run.start();
  }

  private save(run: FlowRun): void {
    if (!this.writer) {
      if (this.writerFailed) return;
      try {
        this.writer = this.options.openWriter();
      } catch (e) {
        this.writerFailed = true;
        this.options.warn?.(`Flow runs cannot be stored: ${e instanceof Error ? e.message : String(e)}`);
        return;
      }
    }
    this.writer.save(run);
  }
}

/** An enabled flow with steps and no request trigger: the server starts its runs. */
const startsItself = (f: CompiledFlow): boolean => f.enabled && !f.onRequest && f.steps.length > 0;
