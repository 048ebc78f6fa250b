import type { FlowRun } from '../../src/core/model/flow.js';

const T0 = Date.UTC(2026, 0, 1);

/** A run as a server saves it: started `n` seconds after T0, running, its one step pending. */
export const flowRun = (n: number, extra: Partial<FlowRun> = {}): FlowRun => ({
  id: `run${n}`,
  projectId: 'p1',
  flowId: 'f1',
  flowName: 'orders',
  startedBy: 'request',
  requestId: null,
  request: null,
  startedAt: new Date(T0 + n * 1000).toISOString(),
  finishedAt: null,
  status: 'running',
  steps: [{ stepId: 's1', label: 'notify', status: 'pending', firedAt: null, finishedAt: null }],
  ...extra,
});

/** The same run, ended: its step completed by a callback answered 204. */
export const endedRun = (run: FlowRun): FlowRun => ({
  ...run,
  status: 'completed',
  finishedAt: new Date(Date.parse(run.startedAt) + 500).toISOString(),
  steps: [
    {
      ...run.steps[0]!,
      status: 'completed',
      firedAt: run.startedAt,
      finishedAt: run.startedAt,
      callback: {
        method: 'POST',
        url: 'http://127.0.0.1:9/hook',
        status: 204,
        durationMs: 3,
        attempts: 1,
        error: null,
      },
    },
  ],
});
