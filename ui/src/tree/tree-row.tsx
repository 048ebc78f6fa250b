import { createContext, useContext } from 'react';
import type { NodeApi, NodeRendererProps, RowRendererProps } from 'react-arborist';
import type { Endpoint, Resource } from '../types';
import type { TreeNode } from './build-tree';

/** What a row needs from the tree around it (rows are rendered by react-arborist). */
export interface RowContext {
  openId?: string;
  open: (endpoint: Endpoint) => void;
  /** Opens a resource on the Resources screen. */
  openResource: (resource: Resource) => void;
  /** Opens the row's menu at these viewport coordinates. */
  openMenu: (node: NodeApi<TreeNode>, x: number, y: number) => void;
  /** The row whose full text the tooltip shows now, and the tooltip's id. */
  tipFor?: string;
  tipId: string;
  /** Shows a row's full text (hover: after a short wait; focus: at once). */
  showTip: (node: TreeNode, row: HTMLElement, how: 'hover' | 'focus') => void;
  /** Hides it (a pointer leaving: after a short wait, so the pointer can reach the tooltip). */
  hideTip: (id: string, how: 'hover' | 'focus') => void;
}

export const RowCtx = createContext<RowContext | null>(null);

const useRowContext = (): RowContext => {
  const c = useContext(RowCtx);
  if (!c) throw new Error('tree rows outside RowCtx');
  return c;
};

/** A row's full text, as its tooltip says it: the folder's whole prefix, the endpoint's whole path and name. */
export function fullText(data: TreeNode): string {
  if (data.kind === 'folder') return `${data.id}/`;
  if (data.kind === 'resource') return data.full;
  return data.endpoint.enabled ? data.full : `${data.full} (disabled: does not answer requests)`;
}

/**
 * A row: the `treeitem` itself. Its accessible name is what it says (`users/`, `GET /{id} Get
 * user`); the Actions button shows only a symbol, so the name still holds all the visible words,
 * and the full text (`GET /api/users/{id} Get user`) is its description while its tooltip shows.
 * A click anywhere on it (its chevron too) selects and focuses it (Ctrl/Cmd+Click adds), double
 * click opens an endpoint or toggles a folder, right click opens the menu.
 */
export function TreeRow({ node, attrs, innerRef, children }: RowRendererProps<TreeNode>) {
  const ui = useRowContext();
  const data = node.data;
  const disabled = data.kind === 'endpoint' && !data.endpoint.enabled;
  const className = [
    'tree-row',
    `is-${data.kind}`,
    node.isSelected && 'is-selected',
    disabled && 'is-disabled',
    data.kind === 'endpoint' && data.id === ui.openId && 'is-open',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div
      {...attrs}
      // react-arborist lets a row grow with its text (min-width: max-content): the row keeps the
      // tree's width instead, its text cut with an ellipsis, so the ⋯ button stays in view.
      style={{ ...attrs.style, minWidth: 0 }}
      ref={innerRef}
      aria-label={data.name}
      aria-expanded={node.isInternal ? node.isOpen : undefined}
      aria-describedby={ui.tipFor === node.id ? ui.tipId : undefined}
      data-id={node.id}
      className={className}
      onFocus={(e) => {
        e.stopPropagation();
        // The full text at once for the keyboard; a click shows it on hover, as a title would.
        if (e.target === e.currentTarget && e.currentTarget.matches(':focus-visible'))
          ui.showTip(data, e.currentTarget, 'focus');
      }}
      onBlur={(e) => {
        if (e.target === e.currentTarget) ui.hideTip(node.id, 'focus');
      }}
      onMouseEnter={(e) => ui.showTip(data, e.currentTarget, 'hover')}
      onMouseLeave={() => ui.hideTip(node.id, 'hover')}
      onClick={node.handleClick}
      onDoubleClick={() =>
        data.kind === 'endpoint'
          ? ui.open(data.endpoint)
          : data.kind === 'resource'
            ? ui.openResource(data.resource)
            : node.toggle()
      }
      onContextMenu={(e) => {
        e.preventDefault();
        if (!node.isSelected) node.select();
        else node.focus();
        ui.openMenu(node, e.clientX, e.clientY);
      }}
    >
      {children}
    </div>
  );
}

const METHOD_CLASSES = new Set(['get', 'post', 'put', 'patch', 'delete']);

/**
 * A row's content: a folder's chevron and name, or an endpoint's method badge, the path below its
 * folder and its name, cut with an ellipsis when the pane is narrow; then the ⋯ Actions button,
 * always in view.
 */
export function TreeNodeContent({ node, style }: NodeRendererProps<TreeNode>) {
  const ui = useRowContext();
  const data = node.data;
  const method = data.kind === 'endpoint' ? data.endpoint.method.toLowerCase() : '';
  return (
    <div className="tree-node" style={style}>
      {data.kind === 'folder' ? (
        <>
          <span
            className="tree-chevron"
            aria-hidden="true"
            // Toggles, then the click goes on to the row, which selects and focuses it.
            onClick={() => node.toggle()}
            onDoubleClick={(e) => e.stopPropagation()}
          >
            {node.isOpen ? '▾' : '▸'}
          </span>
          <span className="tree-label">
            <span className="tree-folder-name">{data.name}</span>
          </span>
        </>
      ) : data.kind === 'resource' ? (
        <>
          <span className="tree-method method-resource">RES</span>{' '}
          <span className="tree-label">
            <span className="tree-path">{data.resource.name}</span>
          </span>
        </>
      ) : (
        <>
          <span className={`tree-method method-${METHOD_CLASSES.has(method) ? method : 'other'}`}>
            {data.endpoint.method}
          </span>
          <span className="tree-label">
            <span className="tree-path">{data.relativePath}</span>{' '}
            {data.endpoint.name && <span className="tree-name">{data.endpoint.name}</span>}
          </span>
        </>
      )}
      <button
        type="button"
        className="tree-actions"
        tabIndex={-1}
        aria-label="Actions"
        aria-haspopup="menu"
        onClick={(e) => {
          e.stopPropagation();
          if (!node.isSelected) node.select();
          else node.focus();
          const r = e.currentTarget.getBoundingClientRect();
          ui.openMenu(node, r.left, r.bottom);
        }}
        onDoubleClick={(e) => e.stopPropagation()}
      >
        ⋯
      </button>
    </div>
  );
}
