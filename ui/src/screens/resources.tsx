import { del, enc } from '../api/client';
import { useEvent } from '../api/events';
import { useData } from '../api/use-data';
import { useConfirm } from '../components/confirm';
import { ErrorMessage, useNotify } from '../components/notices';
import { RowAction } from '../components/row-action';
import { TableHead } from '../components/table-head';
import { useAction } from '../components/use-action';
import '../editor/editor.css';
import { AddResource } from '../resources/add-resource';
import { ResourceEditor } from '../resources/resource-editor';
import '../resources/resources.css';
import { navigate, projectPath, useLocation } from '../router';
import type { ResourceView } from '../types';
import type { ProjectScreenProps } from './registry';

/**
 * A project's resources (docs/resources.md): the list with each one's path and item count, add
 * one from a path with its seed as JSON, remove (asked first); the resource open in the editor
 * (`?edit=<id>`, where the endpoint tree's resource rows lead) with its definition and its
 * current items as an editable JSON document, and Reset. Changes made elsewhere (the CLI, a hand
 * edit) arrive as `resources` events.
 */
export function ResourcesScreen({ project }: ProjectScreenProps) {
  const notify = useNotify();
  const confirm = useConfirm();
  const base = `/projects/${enc(project.id)}`;
  const list = useData<ResourceView[]>(`${base}/resources`);
  const { query } = useLocation();
  const editing = query.get('edit') ?? undefined;
  useEvent('resources', (e) => e.projectId === project.id && list.reload());
  const edit = (id: string | undefined) =>
    navigate(projectPath(project.id, 'resources', { edit: id }), { replace: !!editing });
  const { busy, act } = useAction(list.reload);
  const open = list.data?.find((r) => r.id === editing);

  const remove = async (r: ResourceView) => {
    const ok = await confirm({
      title: `Remove the resource ${r.name}?`,
      items: [`${r.name} at ${r.path}: ${r.itemCount} item(s), its seed and its state`],
      confirmLabel: 'Remove resource',
    });
    if (!ok) return;
    await act(`Could not remove ${r.name}`, async () => {
      await del(`${base}/resources/${enc(r.id)}`);
      if (editing === r.id) edit(undefined);
      notify.info(`Removed ${r.name}`);
    });
  };

  const resources = list.data ?? [];
  return (
    <section className="screen resources-screen" aria-labelledby="screen-title">
      <h1 id="screen-title">Resources of {project.name}</h1>
      <p className="muted">
        A resource is a collection the running server answers with state: GET lists and reads, POST adds, PUT
        and PATCH change, DELETE removes, and what changed is kept across restarts until a reset.
      </p>
      <ErrorMessage error={list.error} />
      <h2>Resources</h2>
      {!list.data && !list.error ? (
        <p className="loading">Loading…</p>
      ) : resources.length === 0 ? (
        <p className="muted">No resources yet: add one below.</p>
      ) : (
        <table className="resource-list">
          <TableHead columns={['Name', 'Path', 'Items', 'Actions']} />
          <tbody>
            {resources.map((r) => (
              <tr key={r.id} className={r.id === editing ? 'selected' : undefined}>
                <th scope="row">{r.name}</th>
                <td>
                  <code>{r.path}</code>
                </td>
                <td>{r.itemCount}</td>
                <td className="row-actions">
                  <RowAction verb="Open" item={r.name} onClick={() => edit(r.id)} />
                  <RowAction verb="Remove" item={r.name} disabled={busy} danger onClick={() => remove(r)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing && list.data && !open && (
        <p role="status">That resource no longer exists (it may have been removed elsewhere).</p>
      )}
      {open && (
        <ResourceEditor
          key={open.id}
          base={base}
          projectId={project.id}
          resource={open}
          onSaved={list.reload}
          onClose={() => edit(undefined)}
        />
      )}
      <AddResource base={base} onAdded={(r) => (list.reload(), edit(r.id))} />
    </section>
  );
}
