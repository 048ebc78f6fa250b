import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Endpoint } from '../../src/core/model/endpoint.js';
import type { Flow, FlowRun } from '../../src/core/model/flow.js';
import type { AppContext } from '../../src/app/context.js';
import { createProject } from '../../src/app/projects.js';
import { startServer, type RunningServer } from '../../src/app/server.js';
import type { FlowRunStore, FlowRunWriter } from '../../src/core/ports.js';
import { tempContext } from './context.js';
import { memoryFlowRuns } from './flows.js';
import { waitUntil } from './wait.js';

/**
 * Flows in tests: an in-memory run store (the writer's saves, as the SQLite store keeps them),
 * a real callback receiver on 127.0.0.1, and flows saved through the project store.
 */

/** Runs kept in memory (memoryFlowRuns), with every save in order and whether the writer closed. */
export interface MemoryRuns {
  store: FlowRunStore;
  writer: FlowRunWriter & { closed: boolean };
  /** Every save, in order (copies). */
  saves: FlowRun[];
  all(): FlowRun[];
  get(id: string): FlowRun | undefined;
  /** Waits until a run matches `check` (returns it), within `timeoutMs`. */
  waitFor(check: (run: FlowRun) => boolean, what: string, timeoutMs?: number): Promise<FlowRun>;
}

export function memoryRuns(): MemoryRuns {
  const kept = memoryFlowRuns();
  const saves: FlowRun[] = [];
  const writer = {
    closed: false,
    lost: 0,
    save(run: FlowRun) {
      if (writer.closed) return void writer.lost++;
      saves.push(structuredClone(run));
      kept.save(run);
    },
    close: async () => void (writer.closed = true),
  };
  const all = () => [...kept.runs.values()];
  return {
    store: { ...kept, openWriter: () => ((writer.closed = false), writer) },
    writer,
    saves,
    all,
    get: (id) => kept.runs.get(id),
    waitFor: (check, what, timeoutMs = 10_000) => waitUntil(() => all().find(check), what, timeoutMs),
  };
}

/** The context with its runs kept in memory. */
export function withMemoryRuns(ctx: AppContext): { ctx: AppContext; runs: MemoryRuns } {
  const runs = memoryRuns();
  return { ctx: { ...ctx, flowRuns: runs.store }, runs };
}

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** Date.now() when the request had arrived whole. */
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /**
   * What the next requests are answered with (default 200 `{"ok":true}`), after `delayMs`
   * (Infinity: never, until the receiver closes).
   */
  answer: (r: Received) => {
    status: number;
    body?: string;
    headers?: Record<string, string>;
    delayMs?: number;
  };
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** A callback receiver on 127.0.0.1, port from the OS, closed after the test. */
export async function startReceiver(t: { after(fn: () => Promise<void> | void): void }): Promise<Receiver> {
  const received: Received[] = [];
  const receiver: Receiver = {
    url: '',
    received,
    answer: () => ({ status: 200, body: '{"ok":true}', headers: { 'Content-Type': 'application/json' } }),
    waitFor: (count, timeoutMs = 10_000) =>
      waitUntil(() => received.length >= count && received, `${count} callback(s) received`, timeoutMs),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = {
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(r);
      const a = receiver.answer(r);
      const reply = () => {
        res.writeHead(a.status, a.headers ?? {});
        res.end(a.body ?? '');
      };
      if (a.delayMs === undefined) reply();
      else if (Number.isFinite(a.delayMs)) setTimeout(reply, a.delayMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t.after(async () => {
    server.closeAllConnections();
    await receiver.close();
  });
  return receiver;
}

/** Saves a project's endpoints and flows (those given) through the project store, as the app does. */
export async function saveProject(
  ctx: AppContext,
  project: string,
  content: { endpoints?: Endpoint[]; flows?: Flow[] },
): Promise<void> {
  const [stored] = await ctx.projects.find(project);
  if (!stored) throw new Error(`no project ${project}`);
  await ctx.projects.update(stored.key, () => ({ ...content, result: undefined }));
}

/** A flow with defaults filled in (steps given in the stored shape). */
export function flow(id: string, steps: Flow['steps'], extra: Partial<Flow> = {}): Flow {
  return { id, name: id, description: '', enabled: true, steps, ...extra };
}

/** Steps' triggers and actions in the stored shape. */
export const onRequest = (endpointId: string) => ({ type: 'request' as const, endpointId });
export const delay = (ms: number) => ({ type: 'delay' as const, ms });
export const after = (stepId: string, delayMs = 0) => ({ type: 'after' as const, stepId, delayMs });
export const respond = (endpointId: string) => ({ type: 'respond' as const, endpointId });
export const proxyThrough = (endpointId: string) => ({ type: 'proxy' as const, endpointId });

/** A callback action with the model's defaults. */
export const callback = (
  url: string,
  extra: Partial<Extract<Flow['steps'][number]['action'], { type: 'callback' }>> = {},
): Extract<Flow['steps'][number]['action'], { type: 'callback' }> => ({
  type: 'callback',
  method: 'POST',
  url,
  headers: {},
  timeoutMs: 10_000,
  retries: 0,
  ...extra,
});

export interface Served {
  ctx: AppContext;
  server: RunningServer;
  runs: MemoryRuns;
  warnings: string[];
  save(content: { endpoints?: Endpoint[]; flows?: Flow[] }): Promise<void>;
}

/** A project with these endpoints and flows, served on port 0; stopped after the test. */
export async function serveFlows(
  t: { after(fn: () => unknown): void },
  endpoints: Endpoint[],
  flows: Flow[],
): Promise<Served> {
  // The server stops before the context closes and its data directory goes.
  const running: { server?: RunningServer } = {};
  const { ctx, runs } = withMemoryRuns(
    tempContext({ after: (fn) => t.after(async () => (await running.server?.stop(), fn())) }),
  );
  const { id } = await createProject(ctx, { name: 'flows' });
  await saveProject(ctx, id, { endpoints, flows });
  const warnings: string[] = [];
  const server = await startServer(ctx, { project: id, port: 0, logger: { warn: (m) => warnings.push(m) } });
  running.server = server;
  return { ctx, server, runs, warnings, save: (content) => saveProject(ctx, id, content) };
}

/** POSTs JSON. */
export const post = (url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(url, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', ...headers },
  });
