import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { get, patch } from './api/client';
import { useEvent } from './api/events';
import { useData } from './api/use-data';
import { useNotify } from './components/notices';
import type { ProjectListing, ServerInfo, Settings, UnreadableProjectListing } from './types';

/**
 * What every screen shares: the settings (theme applied at once, confirmBeforeDelete), the
 * projects and the running servers, each kept current by the event stream.
 */
interface Shared {
  settings: Settings | undefined;
  updateSettings: (change: Partial<Settings>) => Promise<Settings>;
  /** The projects that can be read (every screen works with these). */
  projects: ProjectListing[] | undefined;
  /** Those whose files cannot be read: the projects screen lists them with the file and the problem. */
  unreadableProjects: UnreadableProjectListing[];
  projectsError: unknown;
  reloadProjects: () => void;
  servers: ServerInfo[];
  reloadServers: () => void;
}

const SharedContext = createContext<Shared | null>(null);

export function useShared(): Shared {
  const shared = useContext(SharedContext);
  if (!shared) throw new Error('useShared outside SharedProvider');
  return shared;
}

/** Applies a theme setting to the page: light, dark, or the system's (prefers-color-scheme). */
export function applyTheme(theme: Settings['theme'] | undefined): void {
  document.documentElement.dataset.theme = theme ?? 'system';
}

export function SharedProvider({ children }: { children: ReactNode }) {
  const [settings, setSettings] = useState<Settings>();
  const projects = useData<(ProjectListing | UnreadableProjectListing)[]>('/projects');
  const servers = useData<ServerInfo[]>('/servers');

  const notify = useNotify();
  useEffect(() => {
    get<Settings>('/settings').then(setSettings, (e: unknown) =>
      notify.error(e, 'Could not read the settings (the theme and confirmations use their defaults)'),
    );
  }, [notify]);
  useEffect(() => applyTheme(settings?.theme), [settings?.theme]);

  const updateSettings = useCallback(async (change: Partial<Settings>) => {
    const next = await patch<Settings>('/settings', change);
    setSettings(next);
    return next;
  }, []);

  useEvent('projects', projects.reload);
  useEvent('endpoints', projects.reload);
  useEvent('server', servers.reload);
  // A setting changed anywhere (the CLI, another browser): the theme applies at once here too.
  useEvent('settings', setSettings);

  const [readable, unreadable] = useMemo(() => {
    const all = projects.data;
    if (!all) return [undefined, []];
    return [
      all.filter((p): p is ProjectListing => !('unreadable' in p)),
      all.filter((p): p is UnreadableProjectListing => 'unreadable' in p),
    ];
  }, [projects.data]);

  const value = useMemo<Shared>(
    () => ({
      settings,
      updateSettings,
      projects: readable,
      unreadableProjects: unreadable,
      projectsError: projects.error,
      reloadProjects: projects.reload,
      servers: servers.data ?? [],
      reloadServers: servers.reload,
    }),
    [
      settings,
      updateSettings,
      readable,
      unreadable,
      projects.error,
      projects.reload,
      servers.data,
      servers.reload,
    ],
  );
  return <SharedContext.Provider value={value}>{children}</SharedContext.Provider>;
}
