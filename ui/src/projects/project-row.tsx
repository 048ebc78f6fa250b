import { useState } from 'react';
import { del, enc, get, patch, query } from '../api/client';
import { useConfirm } from '../components/confirm';
import { Link } from '../components/link';
import { useNotify } from '../components/notices';
import { ServerButton, ServerStatusText, useServer } from '../components/server-control';
import { projectPath } from '../router';
import { useShared } from '../state';
import type { ProjectDetail, ProjectListing } from '../types';
import { ProjectForm, type ProjectFields } from './project-form';

const COLUMNS = 7;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One project in the table: its facts, its server (live), Edit (in place) and Delete. */
export function ProjectRow({ project }: { project: ProjectListing }) {
  const { reloadProjects } = useShared();
  const notify = useNotify();
  const confirm = useConfirm();
  const server = useServer(project);
  const [editing, setEditing] = useState(false);

  const save = async (fields: ProjectFields) => {
    const change: Partial<ProjectFields> = {};
    if (fields.name !== project.name) change.name = fields.name;
    if (fields.port !== undefined && fields.port !== project.port) change.port = fields.port;
    if (fields.description !== project.description) change.description = fields.description;
    try {
      if (Object.keys(change).length > 0) {
        const saved = await patch<ProjectDetail>(`/projects/${enc(project.id)}`, change);
        notify.info(`Saved ${saved.name}`);
      }
      setEditing(false);
      reloadProjects();
      return true;
    } catch (e) {
      notify.error(e, `Could not save ${project.name}`);
      return false;
    }
  };

  /** ` (12 logged requests)`, or nothing when the log cannot be read now. */
  const logSize = async () => {
    try {
      const log = await get<unknown[]>(`/projects/${enc(project.id)}/requests${query({ limit: 1000 })}`);
      return ` (${log.length >= 1000 ? '1000 or more logged requests' : plural(log.length, 'logged request')})`;
    } catch {
      return '';
    }
  };

  const remove = async () => {
    const items = [
      `Project “${project.name}” (port ${project.port})`,
      `its ${plural(project.endpointCount, 'endpoint')}`,
      `its request log${await logSize()}`,
    ];
    if (project.dir) items.push(`its folder's project files in ${project.dir}`);
    if (server.running) items.push(`its running server at ${server.running.url} (stopped)`);
    const ok = await confirm({
      title: `Delete project ${project.name}?`,
      items,
      confirmLabel: 'Delete project',
    });
    if (!ok) return;
    try {
      const r = await del<{ requestsDeleted: number }>(`/projects/${enc(project.id)}`);
      notify.info(
        `Deleted ${project.name}`,
        `${plural(r?.requestsDeleted ?? 0, 'logged request')} went with it.`,
      );
    } catch (e) {
      notify.error(e, `Could not delete ${project.name}`);
    } finally {
      reloadProjects();
    }
  };

  if (editing)
    return (
      <tr className="editing">
        <td colSpan={COLUMNS}>
          <h2 className="edit-title">Edit {project.name}</h2>
          <ProjectForm
            idPrefix={`edit-${project.id}`}
            initial={project}
            submitLabel="Save"
            onSubmit={save}
            onCancel={() => setEditing(false)}
          />
        </td>
      </tr>
    );

  return (
    <tr>
      <th scope="row">
        <Link href={projectPath(project.id, 'endpoints')}>{project.name}</Link>
      </th>
      <td className="num">{project.port}</td>
      <td className="num">{project.endpointCount}</td>
      <td className="one-line" title={project.description || undefined}>
        {project.description}
      </td>
      <td className="one-line mono" title={project.dir}>
        {project.dir ?? <span className="muted">data directory</span>}
      </td>
      <td className="server-cell">
        <ServerStatusText running={server.running} />
      </td>
      <td>
        <div className="row-actions">
          <ServerButton server={server} label={<span className="visually-hidden">{project.name}</span>} />
          <button type="button" onClick={() => setEditing(true)}>
            Edit<span className="visually-hidden"> {project.name}</span>
          </button>
          <button type="button" className="danger-outline" onClick={() => void remove()}>
            Delete<span className="visually-hidden"> {project.name}</span>
          </button>
        </div>
      </td>
    </tr>
  );
}
