import { useCallback, useEffect, useRef, useState } from 'react';
import { api, enc, get } from '../api/client';
import { useNotify } from '../components/notices';
import type { TreeState, TreeStateView } from '../types';

/** How long the tree waits after a toggle before saving (several quick toggles: one PUT). */
const SAVE_DELAY_MS = 250;

export interface TreeStateHandle {
  /** The expanded folders as saved (undefined while loading; empty when it could not be read). */
  expanded: string[] | undefined;
  /** Whether they were ever saved for this project (false: a first visit, every folder opens). */
  saved: boolean;
  /** Saves the expanded folders (debounced; a pending save is sent when the tree goes away). */
  save: (expanded: string[]) => void;
}

/**
 * The endpoint tree's expanded folders, kept per project in the data directory through the admin
 * API (`GET|PUT /projects/{project}/tree-state`), so they survive a reload, another browser and
 * a restart of `mockdev ui`.
 */
export function useTreeState(projectId: string): TreeStateHandle {
  const notify = useNotify();
  const [expanded, setExpanded] = useState<string[]>();
  const [saved, setSaved] = useState(true);
  const path = `/projects/${enc(projectId)}/tree-state`;
  const pending = useRef<{ timer: ReturnType<typeof setTimeout>; expanded: string[] } | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    setExpanded(undefined);
    get<TreeStateView>(path, abort.signal).then(
      (state) => {
        setSaved(state.saved);
        setExpanded(state.expanded);
      },
      (e: unknown) => {
        if (abort.signal.aborted) return;
        notify.error(e, 'Could not read which folders were expanded');
        setExpanded([]);
      },
    );
    return () => abort.abort();
  }, [path, notify]);

  const send = useCallback(
    (list: string[]) => {
      // keepalive: a save under way when the page goes away (its delay ran out while a reload
      // was starting) still reaches mockdev ui.
      api<TreeState>(path, { method: 'PUT', body: { expanded: list }, keepalive: true }).catch((e: unknown) =>
        notify.error(e, 'Could not save which folders are expanded'),
      );
    },
    [path, notify],
  );

  const save = useCallback(
    (list: string[]) => {
      if (pending.current) clearTimeout(pending.current.timer);
      const timer = setTimeout(() => {
        pending.current = null;
        send(list);
      }, SAVE_DELAY_MS);
      pending.current = { timer, expanded: list };
    },
    [send],
  );

  // A save still waiting when the tree goes away (another screen, another project) is sent now.
  useEffect(
    () => () => {
      const p = pending.current;
      if (!p) return;
      clearTimeout(p.timer);
      pending.current = null;
      send(p.expanded);
    },
    [send],
  );

  // Leaving the page (a reload, a closed tab) sends a waiting save too: a keepalive request
  // outlives the page.
  useEffect(() => {
    const flush = () => {
      const p = pending.current;
      if (!p) return;
      clearTimeout(p.timer);
      pending.current = null;
      // The page is going away: nowhere left to show an error.
      api(path, { method: 'PUT', body: { expanded: p.expanded }, keepalive: true }).catch(() => undefined);
    };
    // beforeunload comes first (before the next page is asked for), pagehide last (a closed tab).
    window.addEventListener('beforeunload', flush);
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('beforeunload', flush);
      window.removeEventListener('pagehide', flush);
    };
  }, [path]);

  return { expanded, saved, save };
}
