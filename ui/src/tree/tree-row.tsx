import { createContext, useContext } from 'react';
import type { NodeApi, NodeRendererProps, RowRendererProps } from 'react-arborist';
import type { Endpoint } from '../types';
import type { TreeNode } from './build-tree';

/** What a row needs from the tree around it (rows are rendered by react-arborist). */
export interface RowContext {
  openId?: string;
  open: (endpoint: Endpoint) => void;
  /** Opens the row's menu at these viewport coordinates. */
  openMenu: (node: NodeApi<TreeNode>, x: number, y: number) => void;
}

export const RowCtx = createContext<RowContext | null>(null);

const useRowContext = (): RowContext => {
  const c = useContext(RowCtx);
  if (!c) throw new Error('tree rows outside RowCtx');
  return c;
};

/**
 * A row: the `treeitem` itself. Its accessible name is what it says (`users/`, `GET
 * /api/users/{id} Get user`); the Actions button shows only a symbol, so the name still holds
 * all the visible words. Click selects (Ctrl/Cmd+Click adds), double click opens an endpoint or
 * toggles a folder, right click opens the menu.
 */
export function TreeRow({ node, attrs, innerRef, children }: RowRendererProps<TreeNode>) {
  const ui = useRowContext();
  const data = node.data;
  const disabled = data.kind === 'endpoint' && !data.endpoint.enabled;
  const className = [
    'tree-row',
    data.kind === 'folder' ? 'is-folder' : 'is-endpoint',
    node.isSelected && 'is-selected',
    disabled && 'is-disabled',
    data.kind === 'endpoint' && data.id === ui.openId && 'is-open',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div
      {...attrs}
      ref={innerRef}
      aria-label={data.name}
      aria-expanded={node.isInternal ? node.isOpen : undefined}
      data-id={node.id}
      title={
        disabled
          ? `Disabled: ${data.endpoint.method} ${data.endpoint.path} does not answer requests`
          : undefined
      }
      className={className}
      onFocus={(e) => e.stopPropagation()}
      onClick={node.handleClick}
      onDoubleClick={() => (data.kind === 'endpoint' ? ui.open(data.endpoint) : node.toggle())}
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

/** A row's content: a folder's chevron and name, or an endpoint's method badge, path and name. */
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
            onClick={(e) => {
              e.stopPropagation();
              node.toggle();
            }}
          >
            {node.isOpen ? '▾' : '▸'}
          </span>{' '}
          <span className="tree-folder-name">{data.name}</span>
        </>
      ) : (
        <>
          <span className={`tree-method method-${METHOD_CLASSES.has(method) ? method : 'other'}`}>
            {data.endpoint.method}
          </span>{' '}
          <span className="tree-path">{data.endpoint.path}</span>{' '}
          {data.endpoint.name && <span className="tree-name">{data.endpoint.name}</span>}
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
