import { useState } from 'react';
import { ApiError, del, enc, post, put, query } from '../api/client';
import { useData } from '../api/use-data';
import { useConfirm } from '../components/confirm';
import { CreateByName } from '../components/create-by-name';
import { Link } from '../components/link';
import { ErrorMessage, useNotify } from '../components/notices';
import { RowAction } from '../components/row-action';
import { TableHead } from '../components/table-head';
import { useAction } from '../components/use-action';
import { EnvironmentEditor } from '../environments/environment-editor';
import '../environments/environments.css';
import type { EnvironmentList, EnvironmentView, ListedEnvironment } from '../import/types';
import type { ProjectScreenProps } from './registry';

/**
 * A project's environments and the global ones (Pro): which are active for the project, create,
 * edit (variables and secrets), duplicate, activate or deactivate, delete (asked first).
 */
export function EnvironmentsScreen({ project }: ProjectScreenProps) {
  const notify = useNotify();
  const confirm = useConfirm();
  const list = useData<EnvironmentList>(`/projects/${enc(project.id)}/environments`);
  const [editing, setEditing] = useState<string>();

  const gated =
    list.error instanceof ApiError && list.error.code === 'LICENSE_REQUIRED' ? list.error : undefined;
  const envs = list.data?.environments ?? [];
  const open = envs.find((e) => e.id === editing);

  const { busy, act } = useAction(list.reload);

  const activate = (env: ListedEnvironment) =>
    act(`Could not activate ${env.name}`, async () => {
      await put(`/projects/${enc(project.id)}/environments/active`, { environment: env.id });
      notify.info(`${env.name} is active for ${project.name}`);
    });

  const deactivate = (env: ListedEnvironment) =>
    act(`Could not deactivate ${env.name}`, async () => {
      await del(`/projects/${enc(project.id)}/environments/active${query({ environment: env.id })}`);
      notify.info(`${env.name} is no longer active for ${project.name}`);
    });

  const duplicate = (env: ListedEnvironment) =>
    act(`Could not duplicate ${env.name}`, async () => {
      const copy = await post<EnvironmentView>(`/environments/${enc(env.id)}/duplicate`, {});
      notify.info(`Duplicated ${env.name} as ${copy.name}`);
      setEditing(copy.id);
    });

  const remove = async (env: ListedEnvironment) => {
    const ok = await confirm({
      title: `Delete the environment ${env.name}?`,
      items: [
        `${env.name} (${env.scope === 'global' ? 'global' : project.name}): ${Object.keys(env.variables).length} variable(s), ${env.secretKeys.length} secret(s)`,
      ],
      message: env.scope === 'global' ? 'It is global: every project that uses it loses it.' : undefined,
    });
    if (!ok) return;
    await act(`Could not delete ${env.name}`, async () => {
      await del(`/environments/${enc(env.id)}`);
      if (editing === env.id) setEditing(undefined);
      notify.info(`Deleted ${env.name}`);
    });
  };

  if (gated)
    return (
      <section className="screen" aria-labelledby="screen-title">
        <h1 id="screen-title">Environments</h1>
        <div className="error-box" role="alert">
          <strong>{gated.title}</strong>
          {gated.detail && <div>{gated.detail}</div>}
        </div>
        <p>
          Environments are a Pro feature. <Link href="/license">Activate a license</Link>.
        </p>
      </section>
    );

  return (
    <section className="screen environments-screen" aria-labelledby="screen-title">
      <h1 id="screen-title">Environments of {project.name}</h1>
      <ErrorMessage error={list.error} />
      <CreateEnvironment
        projectId={project.id}
        projectName={project.name}
        onCreated={(e) => {
          list.reload();
          setEditing(e.id);
        }}
      />
      <h2>Environments</h2>
      {!list.data && !list.error ? (
        <p className="loading">Loading…</p>
      ) : envs.length === 0 ? (
        <p className="muted">No environments yet: create one above.</p>
      ) : (
        <table className="env-list">
          <TableHead columns={['Name', 'Scope', 'Variables', `For ${project.name}`, 'Actions']} />
          <tbody>
            {envs.map((env) => (
              <tr key={env.id} className={env.id === editing ? 'selected' : undefined}>
                <th scope="row">{env.name}</th>
                <td>{env.scope === 'global' ? 'Global' : 'This project'}</td>
                <td>
                  {Object.keys(env.variables).length}
                  {env.secretKeys.length > 0 && ` (${env.secretKeys.length} secret)`}
                </td>
                <td>
                  {env.active ? (
                    <strong className="env-active">Active</strong>
                  ) : (
                    <span className="muted">Inactive</span>
                  )}
                </td>
                <td className="row-actions">
                  <RowAction verb="Edit" item={env.name} onClick={() => setEditing(env.id)} />
                  {env.active ? (
                    <RowAction
                      verb="Deactivate"
                      item={env.name}
                      disabled={busy}
                      onClick={() => deactivate(env)}
                    />
                  ) : (
                    <RowAction
                      verb="Activate"
                      item={env.name}
                      disabled={busy}
                      onClick={() => activate(env)}
                    />
                  )}
                  <RowAction
                    verb="Duplicate"
                    item={env.name}
                    disabled={busy}
                    onClick={() => duplicate(env)}
                  />
                  <RowAction
                    verb="Delete"
                    item={env.name}
                    disabled={busy}
                    danger
                    onClick={() => remove(env)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {open && (
        <EnvironmentEditor
          key={open.id}
          env={open}
          onSaved={list.reload}
          onClose={() => setEditing(undefined)}
        />
      )}
    </section>
  );
}

function CreateEnvironment(props: {
  projectId: string;
  projectName: string;
  onCreated: (e: EnvironmentView) => void;
}) {
  const notify = useNotify();
  const [scope, setScope] = useState<'project' | 'global'>('project');
  const create = async (name: string) => {
    const env =
      scope === 'project'
        ? await post<EnvironmentView>(`/projects/${enc(props.projectId)}/environments`, { name })
        : await post<EnvironmentView>('/environments', { name });
    notify.info(`Created ${env.name}`);
    props.onCreated(env);
  };
  return (
    <CreateByName what="environment" create={create}>
      <label>
        Scope
        <select value={scope} onChange={(e) => setScope(e.target.value as 'project' | 'global')}>
          <option value="project">This project ({props.projectName})</option>
          <option value="global">Global (every project)</option>
        </select>
      </label>
    </CreateByName>
  );
}
