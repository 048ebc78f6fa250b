import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Tree, type NodeApi, type TreeApi } from 'react-arborist';
import type { Endpoint, ProjectListing, Resource } from '../types';
import {
  buildTree,
  compactFolders,
  folderIds,
  indexTree,
  matchesSearch,
  resourceMatchesSearch,
  selectedEndpoints,
  type TreeNode,
} from './build-tree';
import { Menu, type MenuItem } from './menu';
import { openResource, useTreeActions } from './tree-actions';
import { RowTip, useRowTip } from './row-tip';
import { RowCtx, TreeNodeContent, TreeRow, type RowContext } from './tree-row';
import { useElementSize } from './use-element-size';
import { useTreeState } from './use-tree-state';
import './tree.css';

export interface EndpointTreeProps {
  project: ProjectListing;
  endpoints: Endpoint[];
  /** The project's resources: each one row in its collection's folder (opens the Resources screen). */
  resources?: Resource[];
  loading: boolean;
  /** The endpoint open in the editor. */
  openId?: string;
  /** Opens an endpoint in the editor (Enter, Edit, double click). */
  onOpen: (endpoint: Endpoint) => void;
  /** Opens the editor for a new endpoint with this path prefix ("Add Endpoint" on a folder). */
  onAdd: (pathPrefix: string) => void;
  /** Something changed through the tree (a delete, a toggle): reload the list. */
  onChanged: () => void;
}

/**
 * The endpoints of a project as a folder tree (react-arborist: an ARIA tree of flat rows with
 * aria-level), with search, multi-selection, keyboard use, and a menu on each row. Rows say the
 * path below their folder, chains of single folders are one row, and a row's full text shows in
 * a tooltip. Which folders are expanded is kept per project in the data directory
 * (use-tree-state.ts); on a project's first visit every folder is.
 */
export function EndpointTree(props: EndpointTreeProps) {
  return <ProjectTree key={props.project.id} {...props} />;
}

const ROW_HEIGHT = 28;
/** The tree pane's element id (the resize bar beside it names it). */
export const TREE_PANE_ID = 'endpoint-tree-pane';

function ProjectTree(props: EndpointTreeProps) {
  const { project, endpoints, loading, openId, onOpen, onAdd } = props;
  const resources = useMemo(() => props.resources ?? [], [props.resources]);
  const state = useTreeState(project.id);
  const actions = useTreeActions(props);
  const [search, setSearch] = useState('');
  const [menu, setMenu] = useState<{ node: TreeNode; items: MenuItem[]; x: number; y: number }>();
  const tree = useRef<TreeApi<TreeNode> | null>(null);
  const [body, size] = useElementSize<HTMLDivElement>();

  const tips = useRowTip();
  const nodes = useMemo(() => compactFolders(buildTree(endpoints, resources)), [endpoints, resources]);
  const folders = useMemo(() => folderIds(nodes), [nodes]);
  const index = useMemo(() => indexTree(nodes), [nodes]);
  const matching = useMemo(
    () =>
      endpoints.filter((e) => matchesSearch(e, search)).length +
      resources.filter((r) => resourceMatchesSearch(r, search)).length,
    [endpoints, resources, search],
  );
  // The folders open when the tree is first drawn (react-arborist reads them once): as saved,
  // or on a first visit every folder (and that is saved, so the next visit is not a first).
  const initialOpen = useMemo(() => {
    if (!state.expanded || loading) return undefined;
    const open = state.saved ? state.expanded : [...folders];
    return Object.fromEntries(open.map((id) => [id, true]));
    // Not recomputed when folders change: only the first drawing reads it.
  }, [state.expanded, state.saved, loading]);
  const firstVisitSaved = useRef(false);
  useEffect(() => {
    if (state.saved || !initialOpen || folders.size === 0 || firstVisitSaved.current) return;
    firstVisitSaved.current = true;
    state.save(Object.keys(initialOpen).sort());
  }, [state, initialOpen, folders]);

  // Expand and collapse are saved (not the folders a search opens); a compacted chain's folders
  // with it, so each opens again as it was if the chain comes apart (an endpoint added).
  const onToggle = useCallback(() => {
    const t = tree.current;
    if (!t || t.isFiltered) return;
    const open = Object.entries(t.openState).flatMap(([id, isOpen]) => {
      const node = index.get(id);
      if (!isOpen || node?.kind !== 'folder') return [];
      return node.chain ? [...node.chain, id] : [id];
    });
    state.save(open.sort());
  }, [index, state]);

  // The endpoint open in the editor is shown (its folders expanded) and selected.
  const openExists = openId !== undefined && index.get(openId)?.kind === 'endpoint';
  const ready = initialOpen !== undefined;
  // The tree is rendered once its box has a size (react-window keeps a scroll position it
  // computed in a box too small).
  const shown = ready && size.height > 0;
  useEffect(() => {
    const t = tree.current;
    if (!t || !openId || !openExists) return;
    t.openParents(openId);
    t.setSelection({ ids: [openId], anchor: openId, mostRecent: openId });
    void t.scrollTo(openId);
  }, [openId, openExists, shown]);

  const openMenu = useCallback(
    (node: NodeApi<TreeNode>, x: number, y: number) =>
      setMenu({ node: node.data, items: actions.menuFor(node.data), x, y }),
    [actions],
  );
  const closeMenu = useCallback(
    (restoreFocus: boolean) => {
      const id = menu?.node.id;
      setMenu(undefined);
      if (!restoreFocus || !id) return;
      const t = tree.current;
      const row = body.current?.querySelector<HTMLElement>(`[data-id="${CSS.escape(id)}"]`);
      if (row) row.focus();
      else body.current?.querySelector<HTMLElement>('[role="tree"]')?.focus();
      if (t?.get(id)) t.focus(id);
    },
    [menu, body],
  );
  const { tip, tipId, showTip, hideTip } = tips;
  const rowContext = useMemo<RowContext>(
    () => ({
      openId,
      open: onOpen,
      openResource: (r) => openResource(project.id, r),
      openMenu,
      tipFor: tip?.id,
      tipId,
      showTip,
      hideTip,
    }),
    [openId, onOpen, project.id, openMenu, tip?.id, tipId, showTip, hideTip],
  );

  // Keys handled here, before react-arborist sees them: Ctrl/Cmd+A selects every row (never the
  // page's text) and Ctrl/Cmd+Shift+A none, Delete deletes the selection (a folder meaning its
  // endpoints), Enter opens an endpoint or toggles a folder, Shift+F10 or the menu key opens the
  // row's menu, Escape hides a row's tooltip. react-arborist keeps Up/Down (move), Right/Left
  // (expand, collapse), Space (toggle).
  const onKeyDownCapture = (e: KeyboardEvent<HTMLDivElement>) => {
    const t = tree.current;
    if (!t || !(e.target instanceof Element) || !e.target.closest('[role="tree"]')) return;
    const mod = e.ctrlKey || e.metaKey;
    const focused = t.focusedNode;
    let handled = true;
    if (mod && e.key.toLowerCase() === 'a') {
      if (e.shiftKey) t.deselectAll();
      else t.selectAll();
    } else if (e.key === 'Delete' && !mod) {
      void actions
        .deleteEndpoints(selectedEndpoints(nodes, t.selectedIds, search))
        .then((deleted) => deleted && t.deselectAll());
    } else if (e.key === 'Enter' && !mod) {
      if (focused?.data.kind === 'endpoint') onOpen(focused.data.endpoint);
      else if (focused?.data.kind === 'resource') openResource(project.id, focused.data.resource);
      else focused?.toggle();
    } else if (e.key === 'ContextMenu' || (e.shiftKey && e.key === 'F10')) {
      if (focused) {
        const r = body.current
          ?.querySelector(`[data-id="${CSS.escape(focused.id)}"]`)
          ?.getBoundingClientRect();
        openMenu(focused, (r?.left ?? 0) + 24, r?.bottom ?? 0);
      }
    } else if (e.key === 'Escape') {
      handled = tips.dismiss();
    } else handled = false;
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  };

  const empty = !loading && endpoints.length === 0 && resources.length === 0;
  return (
    <div className="endpoint-tree" id={TREE_PANE_ID}>
      {!empty && (
        <input
          type="search"
          className="tree-search"
          aria-label="Search endpoints"
          placeholder="Search endpoints"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      )}
      {(loading || !ready) && !empty && <p className="loading">Loading endpoints…</p>}
      {empty && (
        <div className="tree-empty">
          <p>No endpoints yet</p>
          <button type="button" className="primary" onClick={() => onAdd('/')}>
            Add Endpoint
          </button>
        </div>
      )}
      {!empty && search.trim() !== '' && matching === 0 && (
        <p className="tree-no-match" role="status">
          No endpoint matches “{search.trim()}”.
        </p>
      )}
      <div
        ref={body}
        className="tree-body"
        hidden={empty || loading || !ready || matching === 0}
        onKeyDownCapture={onKeyDownCapture}
      >
        {shown && (
          <RowCtx.Provider value={rowContext}>
            <Tree<TreeNode>
              ref={tree}
              data={nodes}
              idAccessor="id"
              childrenAccessor={(d) => (d.kind === 'folder' ? d.children : null)}
              openByDefault={false}
              initialOpenState={initialOpen}
              onToggle={onToggle}
              searchTerm={search}
              searchMatch={(node, term) =>
                node.data.kind === 'endpoint'
                  ? matchesSearch(node.data.endpoint, term)
                  : node.data.kind === 'resource' && resourceMatchesSearch(node.data.resource, term)
              }
              disableDrag
              disableDrop
              disableEdit
              aria-label="Endpoints"
              width={size.width}
              height={size.height}
              rowHeight={ROW_HEIGHT}
              indent={16}
              renderRow={TreeRow}
            >
              {TreeNodeContent}
            </Tree>
          </RowCtx.Provider>
        )}
      </div>
      <RowTip handle={tips} />
      {menu && (
        <Menu
          label={`Actions for ${menu.node.kind === 'folder' ? menu.node.id : menu.node.full}`}
          items={menu.items}
          x={menu.x}
          y={menu.y}
          onClose={closeMenu}
        />
      )}
    </div>
  );
}
