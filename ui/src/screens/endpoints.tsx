import type { CSSProperties } from 'react';
import { enc } from '../api/client';
import { useEvent } from '../api/events';
import { useData } from '../api/use-data';
import { ErrorMessage } from '../components/notices';
import { EndpointEditor } from '../editor/endpoint-editor';
import { navigate, projectPath, useLocation } from '../router';
import { EndpointTree, TREE_PANE_ID } from '../tree/endpoint-tree';
import { PaneResizer, usePaneWidth } from '../tree/pane-resizer';
import { useElementSize } from '../tree/use-element-size';
import type { Endpoint, ResourceView } from '../types';
import type { ProjectScreenProps } from './registry';

/**
 * The endpoints of a project: the folder tree on the left, the editor on the right. The URL says
 * what the editor shows: `?edit=<endpoint id>`, or `?new=<path prefix>` for a new endpoint (the
 * tree's "Add Endpoint" fills the folder's prefix in; a logged request no endpoint matched adds
 * `&method=`). Changes made anywhere else (CLI, MCP, a
 * hand edit) arrive as `endpoints` events and reload the list. The bar between the panes resizes
 * the tree (kept in the browser).
 */
export function EndpointsScreen({ project }: ProjectScreenProps) {
  const { query } = useLocation();
  const list = useData<Endpoint[]>(`/projects/${enc(project.id)}/endpoints`);
  useEvent('endpoints', (e) => {
    if (e.projectId === project.id) list.reload();
  });
  // The resources show in the tree, each one row in its folder (GET …/resources beside the endpoints).
  const resources = useData<ResourceView[]>(`/projects/${enc(project.id)}/resources`);
  useEvent('resources', (e) => e.projectId === project.id && resources.reload());
  const editId = query.get('edit');
  const newPrefix = query.get('new');
  const newMethod = query.get('method') ?? undefined;
  const endpoints = list.data ?? [];
  const editing = editId ? endpoints.find((e) => e.id === editId) : undefined;
  const go = (q: Record<string, string | undefined>) => navigate(projectPath(project.id, 'endpoints', q));
  const [layout, layoutSize] = useElementSize<HTMLDivElement>();
  const pane = usePaneWidth(layoutSize.width);

  return (
    <section className="screen endpoints-screen" aria-labelledby="screen-title">
      <h1 id="screen-title" className="visually-hidden">
        Endpoints of {project.name}
      </h1>
      <ErrorMessage error={list.error} />
      <div
        ref={layout}
        className="endpoints-layout"
        style={{ '--tree-width': `${pane.width}px` } as CSSProperties}
      >
        <EndpointTree
          project={project}
          endpoints={endpoints}
          resources={resources.data}
          loading={list.loading && !list.data}
          openId={editId ?? undefined}
          onOpen={(e) => go({ edit: e.id })}
          onAdd={(prefix) => go({ new: prefix })}
          onChanged={list.reload}
        />
        <PaneResizer pane={pane} controls={TREE_PANE_ID} />
        <div className="editor-pane">
          {editing ? (
            <EndpointEditor
              key={editing.id}
              project={project}
              endpoint={editing}
              onSaved={(e) => {
                list.reload();
                go({ edit: e.id });
              }}
              onClose={() => go({})}
            />
          ) : newPrefix !== null ? (
            <EndpointEditor
              key={`new:${newMethod ?? ''} ${newPrefix}`}
              project={project}
              prefill={{ path: newPrefix || '/', method: newMethod }}
              onSaved={(e) => {
                list.reload();
                go({ edit: e.id });
              }}
              onClose={() => go({})}
            />
          ) : editId && list.loading ? (
            <p className="loading">Loading…</p>
          ) : editId && list.data ? (
            <p role="status">That endpoint no longer exists (it may have been deleted elsewhere).</p>
          ) : (
            <div className="empty-editor">
              <p>Select an endpoint to edit it, or add one.</p>
              <button type="button" className="primary" onClick={() => go({ new: '/' })}>
                Add Endpoint
              </button>
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
