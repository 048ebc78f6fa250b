import { useCallback, useEffect, useRef, useState } from 'react';
import { get } from './client';

export interface Data<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** Fetches again (keeps showing the current data meanwhile). */
  reload: () => void;
}

/**
 * GETs `path` from the admin API (again when it changes, and on reload()); null skips the
 * fetch. An answer that arrives after a newer request started is dropped.
 */
export function useData<T>(path: string | null): Data<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean; path: string | null }>({
    loading: path !== null,
    path,
  });
  const seq = useRef(0);
  const load = useCallback(() => {
    if (path === null) return;
    const mine = ++seq.current;
    setState((s) => ({ ...s, loading: true }));
    get<T>(path).then(
      (data) => mine === seq.current && setState({ data, loading: false, path }),
      (error: unknown) => mine === seq.current && setState({ error, loading: false, path }),
    );
  }, [path]);
  useEffect(() => {
    load();
  }, [load]);
  const current = state.path === path;
  return {
    data: current ? state.data : undefined,
    error: current ? state.error : undefined,
    loading: state.loading || !current,
    reload: load,
  };
}
