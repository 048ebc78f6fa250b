import { useMemo } from 'react';
import { del, enc, get, patch, query } from '../api/client';
import { useConfirm } from '../components/confirm';
import { useNotify } from '../components/notices';
import { navigate, projectPath } from '../router';
import type { Endpoint, ProjectListing, Resource } from '../types';
import { compareEndpoints, endpointLabel, type FolderNode, type TreeNode } from './build-tree';
import type { MenuItem } from './menu';

/** "Copy as Code": the languages GET …/endpoints/{id}/snippets answers, as the menu names them. */
export const SNIPPET_LANGUAGES = [
  { key: 'curl', label: 'cURL' },
  { key: 'fetch', label: 'fetch' },
  { key: 'axios', label: 'axios' },
  { key: 'python', label: 'Python' },
] as const;
type SnippetKey = (typeof SNIPPET_LANGUAGES)[number]['key'];

export interface TreeActionsOptions {
  project: ProjectListing;
  onOpen: (endpoint: Endpoint) => void;
  onAdd: (pathPrefix: string) => void;
  onChanged: () => void;
}

export interface TreeActions {
  /** The menu of a row (folder, endpoint or resource). */
  menuFor: (node: TreeNode) => MenuItem[];
  /** Deletes these endpoints after a confirmation listing them (the Delete key on a selection); true when deleted. */
  deleteEndpoints: (list: Endpoint[]) => Promise<boolean>;
}

/** Opens a resource (its tree row's Enter, double click or Open Resource): the Resources screen. */
export const openResource = (projectId: string, resource: Resource): void =>
  navigate(projectPath(projectId, 'resources', { edit: resource.id }));

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * What the tree's menus and keys do, each through the admin API: every destructive action asks
 * first (listing what will go), every failure is shown with its detail, and a change reloads
 * the list (`onChanged`).
 */
export function useTreeActions({ project, onOpen, onAdd, onChanged }: TreeActionsOptions): TreeActions {
  const notify = useNotify();
  const confirm = useConfirm();
  const base = `/projects/${enc(project.id)}/endpoints`;

  return useMemo(() => {
    const deleteEndpoints = async (list: Endpoint[]) => {
      if (list.length === 0) return false;
      const ok = await confirm({
        title: list.length === 1 ? 'Delete this endpoint?' : `Delete ${plural(list.length, 'endpoint')}?`,
        items: list.map(endpointLabel),
      });
      if (!ok) return false;
      try {
        if (list.length === 1) await del(`${base}/${enc(list[0]!.id)}`);
        else await del(`${base}${query({ ids: list.map((e) => e.id).join(',') })}`);
        notify.info(`Deleted ${plural(list.length, 'endpoint')}`);
        return true;
      } catch (e) {
        notify.error(e, 'Could not delete');
        return false;
      } finally {
        onChanged();
      }
    };

    const deletePath = async (folder: FolderNode) => {
      // What will go, by the admin API's own folder rule (the list a DELETE of the prefix takes).
      let under: Endpoint[];
      try {
        under = (await get<Endpoint[]>(`${base}${query({ pathPrefix: folder.id })}`)).sort(compareEndpoints);
      } catch (e) {
        notify.error(e, `Could not list the endpoints under ${folder.id}`);
        return;
      }
      const ok = await confirm({
        title: `Delete everything under ${folder.id}?`,
        message: `${plural(under.length, 'endpoint')} will be deleted:`,
        items: under.map(endpointLabel),
      });
      if (!ok) return;
      try {
        const removed = await del<Endpoint[]>(`${base}${query({ pathPrefix: folder.id })}`);
        notify.info(`Deleted ${plural(removed?.length ?? under.length, 'endpoint')} under ${folder.id}`);
      } catch (e) {
        notify.error(e, `Could not delete ${folder.id}`);
      } finally {
        onChanged();
      }
    };

    const toggleEnabled = async (e: Endpoint) => {
      try {
        await patch(`${base}/${enc(e.id)}`, { enabled: !e.enabled });
        notify.info(`${e.enabled ? 'Disabled' : 'Enabled'} ${e.method} ${e.path}`);
      } catch (err) {
        notify.error(err, `Could not ${e.enabled ? 'disable' : 'enable'} ${e.method} ${e.path}`);
      } finally {
        onChanged();
      }
    };

    const copyAsCode = async (e: Endpoint, key: SnippetKey, label: string) => {
      try {
        const snippets = await get<Record<SnippetKey, string>>(`${base}/${enc(e.id)}/snippets`);
        await navigator.clipboard.writeText(snippets[key]);
        notify.info(`Copied ${e.method} ${e.path} as ${label}`);
      } catch (err) {
        notify.error(err, `Could not copy ${e.method} ${e.path} as ${label}`);
      }
    };

    const menuFor = (node: TreeNode): MenuItem[] => {
      if (node.kind === 'folder')
        return [
          { label: 'Add Endpoint', onSelect: () => onAdd(node.id) },
          { label: 'Delete Path', danger: true, onSelect: () => void deletePath(node) },
        ];
      if (node.kind === 'resource')
        return [{ label: 'Open Resource', onSelect: () => openResource(project.id, node.resource) }];
      const e = node.endpoint;
      return [
        { label: 'Edit', onSelect: () => onOpen(e) },
        { label: 'Toggle Enabled', onSelect: () => void toggleEnabled(e) },
        {
          label: 'Copy as Code',
          submenu: SNIPPET_LANGUAGES.map(({ key, label }) => ({
            label,
            onSelect: () => void copyAsCode(e, key, label),
          })),
        },
        ...(e.kind === 'proxy'
          ? [
              {
                label: 'View Recordings',
                onSelect: () => navigate(projectPath(project.id, 'recordings', { endpoint: e.id })),
              },
            ]
          : []),
        { label: 'Delete', danger: true, onSelect: () => void deleteEndpoints([e]) },
      ];
    };

    return { menuFor, deleteEndpoints };
  }, [base, confirm, notify, onAdd, onChanged, onOpen, project.id]);
}
