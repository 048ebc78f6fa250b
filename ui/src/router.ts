import { useSyncExternalStore } from 'react';

/**
 * A small history router: the UI's places are real paths (`/projects/<id>/endpoints`), which
 * `mockdev ui` answers with index.html, so a reload or a shared link opens the same screen.
 */
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((fn) => fn());
if (typeof window !== 'undefined') window.addEventListener('popstate', notify);

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === location.pathname + location.search) return;
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  notify();
}

const subscribe = (fn: () => void) => {
  listeners.add(fn);
  return () => listeners.delete(fn);
};
const snapshot = () => location.pathname + location.search;

export interface Location {
  path: string;
  /** The path's segments, decoded. */
  parts: string[];
  query: URLSearchParams;
}

export function useLocation(): Location {
  const href = useSyncExternalStore(subscribe, snapshot, () => '/');
  const url = new URL(href, 'http://x');
  return {
    path: url.pathname,
    parts: url.pathname.split('/').filter(Boolean).map(decodeURIComponent),
    query: url.searchParams,
  };
}

/** The path of a project's screen: `/projects/<id>/<screen>` plus an optional query. */
export function projectPath(
  projectId: string,
  screen: string,
  q?: Record<string, string | undefined>,
): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q ?? {})) if (v !== undefined) params.set(k, v);
  const s = params.toString();
  return `/projects/${encodeURIComponent(projectId)}/${screen}${s ? `?${s}` : ''}`;
}
