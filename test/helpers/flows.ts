import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Endpoint } from '../../src/core/model/endpoint.js';
import type { Flow, FlowRun } from '../../src/core/model/flow.js';
import type { FlowRunStore } from '../../src/core/ports.js';
import { json, type CliResult } from './cli.js';
import { cliSandbox, type AfterHook, type CliSandbox } from './cli-inprocess.js';

/** A CLI run that succeeded (exit 0, else the failure shows its stderr). */
export const ok = (r: CliResult): CliResult => {
  assert.equal(r.code, 0, `exit code (stderr: ${r.stderr})`);
  return r;
};

/** A sandbox with project "shop": POST /orders (202), GET /status, and a proxy GET /up/*. */
export async function shop(t: AfterHook) {
  const box = cliSandbox(t, 'mockdev-flows-');
  const { cli } = box;
  const project = json<{ id: string }>(ok(await cli(['project', 'create', 'shop', '--json'])));
  ok(
    await cli(['endpoint', 'add', 'shop', '-m', 'POST', '-p', '/orders', '-s', '202', '-n', 'create-order']),
  );
  ok(await cli(['endpoint', 'add', 'shop', '-p', '/status']));
  ok(await cli(['endpoint', 'add', 'shop', '-p', '/up/*', '--proxy', 'http://127.0.0.1:9']));
  const endpoints = json<Endpoint[]>(ok(await cli(['endpoint', 'list', 'shop', '--json'])));
  const id = (path: string) => endpoints.find((e) => e.path === path)!.id;
  const flowsFile = join(box.dataDir, 'projects', project.id, 'flows.json');
  const stored = () => JSON.parse(readFileSync(flowsFile, 'utf8')) as Flow[];
  return { ...box, project, id, flowsFile, stored };
}

/**
 * A FlowRunStore in memory (what the SQLite one keeps, without the disk): for tests of the use
 * cases that read runs. `save` stores a copy at once.
 */
export function memoryFlowRuns(): FlowRunStore & { save(run: FlowRun): void; runs: Map<string, FlowRun> } {
  const runs = new Map<string, FlowRun>();
  const save = (run: FlowRun) => void runs.set(run.id, structuredClone(run));
  return {
    runs,
    save,
    list: async (projectId, query) =>
      [...runs.values()]
        .filter((r) => r.projectId === projectId && (query.flowId === undefined || r.flowId === query.flowId))
        .sort((a, b) => b.startedAt.localeCompare(a.startedAt))
        .slice(0, query.limit),
    get: async (id) => runs.get(id),
    since: async () => ({ runs: [], cursor: '0' }),
    clearProject: async (projectId) => {
      let n = 0;
      for (const [id, r] of runs) if (r.projectId === projectId && runs.delete(id)) n++;
      return n;
    },
    openWriter: () => ({ save, lost: 0, close: async () => undefined }),
    close: () => undefined,
  };
}

/** A run as a server records it: running, its steps pending, unless told otherwise. */
export function aRun(fields: Partial<FlowRun> & Pick<FlowRun, 'id' | 'projectId' | 'flowId'>): FlowRun {
  return {
    flowName: 'orders',
    startedBy: 'manual',
    requestId: null,
    request: null,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    status: 'running',
    steps: [],
    ...fields,
  };
}

/** `flow step add shop <FLOW> …args` in a sandbox of shop(), which must succeed. */
export const addStep = async (cli: CliSandbox['cli'], flow: string, ...args: string[]): Promise<CliResult> =>
  ok(await cli(['flow', 'step', 'add', 'shop', flow, ...args]));

/** The options of the step "accept": POST /orders answered by its own response. */
export const ACCEPT_STEP = ['--label', 'accept', '--on', 'request:POST /orders', '--respond', 'POST /orders'];
