import { useState } from 'react';
import { enc, query } from '../api/client';
import { useEvent } from '../api/events';
import { useData } from '../api/use-data';
import { ErrorMessage } from '../components/notices';
import { TableHead } from '../components/table-head';
import { timeOfDay } from '../requests/format';
import type { Flow, FlowRun, FlowRunStep, ProjectListing } from '../types';
import { callbackText, mergeRuns, SHOWN_RUNS, STARTED_BY } from './flow-runs-model';

/**
 * The recent runs of one flow, each with its steps' outcomes and callbacks' statuses, kept live
 * by the `flow-run` events (a run shows as it starts, each step as it finishes).
 */
export function FlowRuns({ project, flow }: { project: ProjectListing; flow: Flow }) {
  const path = `/projects/${enc(project.id)}/flow-runs${query({ flow: flow.id, limit: SHOWN_RUNS })}`;
  const loaded = useData<FlowRun[]>(path);
  const [live, setLive] = useState<FlowRun[]>([]);
  useEvent('flow-run', (run) => {
    if (run.projectId === project.id && run.flowId === flow.id) setLive((all) => mergeRuns(all, [run])); // the newest only: what is shown
  });
  const runs = mergeRuns(loaded.data ?? [], live);
  const name = (step: FlowRunStep, i: number) =>
    step.label ?? `Step ${(flow.steps.findIndex((s) => s.id === step.stepId) + 1 || i + 1).toString()}`;

  return (
    <section className="flow-runs" aria-labelledby="flow-runs-title">
      <h2 id="flow-runs-title">Runs of {flow.name}</h2>
      <ErrorMessage error={loaded.error} />
      {runs.length === 0 ? (
        <p className="muted">{loaded.loading ? 'Loading…' : 'No runs yet. They show here as they start.'}</p>
      ) : (
        <ol className="run-list">
          {runs.map((run) => (
            <li key={run.id} className="run" data-run-id={run.id}>
              <table>
                <caption>
                  <span className={`run-status run-${run.status}`}>{run.status}</span> Run started{' '}
                  <time dateTime={run.startedAt}>{timeOfDay(run.startedAt)}</time> by{' '}
                  {STARTED_BY[run.startedBy]}
                  {run.request && (
                    <>
                      {' '}
                      (
                      <code>
                        {run.request.method} {run.request.url}
                      </code>
                      )
                    </>
                  )}
                </caption>
                <TableHead columns={['Step', 'Outcome', 'Callback']} />
                <tbody>
                  {run.steps.map((step, i) => (
                    <tr key={step.stepId}>
                      <th scope="row">{name(step, i)}</th>
                      <td>
                        <span className={`run-status run-${step.status}`}>{step.status}</span>
                        {step.reason && <span className="muted"> {step.reason}</span>}
                      </td>
                      <td className="mono">{callbackText(step)}</td>
                    </tr>
                  ))}
                  {run.steps.length === 0 && (
                    <tr>
                      <td colSpan={3} className="muted">
                        No steps ran.
                      </td>
                    </tr>
                  )}
                </tbody>
              </table>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
