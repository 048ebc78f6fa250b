import { useEffect, useState } from 'react';
import { del, enc, post, put } from '../api/client';
import { useEvent } from '../api/events';
import { useData } from '../api/use-data';
import { useConfirm } from '../components/confirm';
import { CreateByName } from '../components/create-by-name';
import { ErrorMessage, useNotify } from '../components/notices';
import { RowAction } from '../components/row-action';
import { TableHead } from '../components/table-head';
import { useAction } from '../components/use-action';
import { FlowEditor } from '../flows/flow-editor';
import { FlowRuns } from '../flows/flow-runs';
import '../editor/editor.css';
import '../flows/flows.css';
import { navigate, projectPath, useLocation } from '../router';
import type { Endpoint, Flow, FlowRun } from '../types';
import type { ProjectScreenProps } from './registry';

/**
 * A project's flows (SPEC 2 and 3): the list with an Enabled toggle per flow, create, run by
 * hand, delete (asked first); the flow open in the editor (`?edit=<id>`) and its runs, live.
 */
export function FlowsScreen({ project }: ProjectScreenProps) {
  const notify = useNotify();
  const confirm = useConfirm();
  const base = `/projects/${enc(project.id)}`;
  const flows = useData<Flow[]>(`${base}/flows`);
  const endpoints = useData<Endpoint[]>(`${base}/endpoints`);
  const { query: q } = useLocation();
  const editing = q.get('edit') ?? undefined;
  // An Enabled toggle shows its new state at once, until the list is loaded again.
  const [toggled, setToggled] = useState<Record<string, boolean>>({});
  useEffect(() => setToggled({}), [flows.data]);
  const open = flows.data?.find((f) => f.id === editing);

  // A change from anywhere (the CLI, MCP, a hand edit) shows without a reload.
  useEvent('flows', (e) => e.projectId === project.id && flows.reload());
  useEvent('endpoints', (e) => e.projectId === project.id && endpoints.reload());

  const edit = (id: string | undefined) =>
    navigate(projectPath(project.id, 'flows', { edit: id }), { replace: !!editing });

  const { busy, act } = useAction(flows.reload);

  const toggle = (flow: Flow, enabled: boolean) => {
    setToggled((t) => ({ ...t, [flow.id]: enabled }));
    return act(`Could not ${enabled ? 'enable' : 'disable'} ${flow.name}`, async () => {
      const path = `${base}/flows/${enc(flow.id)}/enabled`;
      await (enabled ? put(path) : del(path));
      notify.info(`${flow.name} is ${enabled ? 'enabled' : 'disabled'}`);
    });
  };

  const run = (flow: Flow) =>
    act(`Could not run ${flow.name}`, async () => {
      await post<FlowRun>(`${base}/flows/${enc(flow.id)}/runs`);
      notify.info(`Started a run of ${flow.name}`);
      if (editing !== flow.id) edit(flow.id);
    });

  const remove = async (flow: Flow) => {
    const ok = await confirm({
      title: `Delete the flow ${flow.name}?`,
      items: [`${flow.name}: ${flow.steps.length} step(s)${flow.enabled ? '' : ', disabled'}`],
      confirmLabel: 'Delete flow',
    });
    if (!ok) return;
    await act(`Could not delete ${flow.name}`, async () => {
      await del(`${base}/flows/${enc(flow.id)}`);
      if (editing === flow.id) edit(undefined);
      notify.info(`Deleted ${flow.name}`);
    });
  };

  const list = flows.data ?? [];
  return (
    <section className="screen flows-screen" aria-labelledby="screen-title">
      <h1 id="screen-title">Flows of {project.name}</h1>
      <p className="muted">
        A flow runs its steps when a request hits an endpoint, after a delay or after another step: it returns
        a mock response, sends an HTTP callback or forwards through a proxy endpoint.
      </p>
      <ErrorMessage error={flows.error} />
      <CreateFlow base={base} onCreated={(f) => (flows.reload(), edit(f.id))} />
      <h2>Flows</h2>
      {!flows.data && !flows.error ? (
        <p className="loading">Loading…</p>
      ) : list.length === 0 ? (
        <p className="muted">No flows yet: create one above.</p>
      ) : (
        <table className="flow-list">
          <TableHead columns={['Name', 'Steps', 'Enabled', 'Actions']} />
          <tbody>
            {list.map((flow) => (
              <tr key={flow.id} className={flow.id === editing ? 'selected' : undefined}>
                <th scope="row">
                  {flow.name}
                  {flow.description && <div className="muted small">{flow.description}</div>}
                </th>
                <td>{flow.steps.length}</td>
                <td>
                  <label className="inline">
                    <input
                      type="checkbox"
                      checked={toggled[flow.id] ?? flow.enabled}
                      disabled={busy}
                      onChange={(e) => void toggle(flow, e.target.checked)}
                    />
                    Enabled<span className="visually-hidden"> {flow.name}</span>
                  </label>
                </td>
                <td className="row-actions">
                  <RowAction verb="Edit" item={flow.name} onClick={() => edit(flow.id)} />
                  <RowAction
                    verb="Run"
                    item={flow.name}
                    disabled={busy}
                    title="Start a run now on the project’s running server"
                    onClick={() => run(flow)}
                  />
                  <RowAction
                    verb="Delete"
                    item={flow.name}
                    disabled={busy}
                    danger
                    onClick={() => remove(flow)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {open && (
        <>
          <FlowEditor
            key={open.id}
            project={project}
            flow={open}
            endpoints={endpoints.data ?? []}
            onSaved={flows.reload}
            onClose={() => edit(undefined)}
          />
          <FlowRuns key={`runs-${open.id}`} project={project} flow={open} />
        </>
      )}
    </section>
  );
}

function CreateFlow(props: { base: string; onCreated: (flow: Flow) => void }) {
  const notify = useNotify();
  const create = async (name: string) => {
    const flow = await post<Flow>(`${props.base}/flows`, { name });
    notify.info(`Created ${flow.name}`);
    props.onCreated(flow);
  };
  return <CreateByName what="flow" create={create} />;
}
