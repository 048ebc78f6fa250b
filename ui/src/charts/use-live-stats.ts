import { useEffect, useRef, useState } from 'react';
import { enc, get, query } from '../api/client';
import { useEvent } from '../api/events';
import { filterToQuery, type RequestFilter } from '../requests/format';
import type { RequestStats } from '../types';

/** The charts fetch at most once per this long, however fast requests come (ms). */
export const STATS_THROTTLE_MS = 1000;

/**
 * The request log's charts' figures for a project, the filters in force and the last `minutes`,
 * kept live: fetched again (at most once per STATS_THROTTLE_MS) when the event stream says the
 * project logged a request, and once per bucket so the window moves on while nothing comes.
 * `reloadKey` changing fetches at once (the log was cleared or a request deleted). A figure
 * fetched for filters since changed is dropped.
 */
export function useLiveStats(
  projectId: string,
  filter: RequestFilter,
  minutes: number,
  reloadKey: number,
): { stats: RequestStats | undefined; error: unknown } {
  const path = `/projects/${enc(projectId)}/requests/stats${query({ ...filterToQuery(filter), minutes })}`;
  const [state, setState] = useState<{ stats?: RequestStats; error?: unknown }>({});
  const pathRef = useRef(path);
  pathRef.current = path;
  const busy = useRef(false);
  const again = useRef(false);
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const fetchNow = () => {
    if (busy.current) {
      again.current = true;
      return;
    }
    busy.current = true;
    last.current = Date.now();
    const asked = pathRef.current;
    get<RequestStats>(asked)
      .then(
        (stats) => asked === pathRef.current && setState({ stats }),
        (error: unknown) => asked === pathRef.current && setState((s) => ({ ...s, error })),
      )
      .finally(() => {
        busy.current = false;
        if (again.current || asked !== pathRef.current) {
          again.current = false;
          schedule();
        }
      });
  };
  const schedule = () => {
    if (timer.current !== undefined) return;
    timer.current = setTimeout(
      () => {
        timer.current = undefined;
        fetchNow();
      },
      Math.max(0, last.current + STATS_THROTTLE_MS - Date.now()),
    );
  };

  useEffect(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
    fetchNow();
  }, [path, reloadKey]);
  useEvent('request', (e) => {
    if (e.projectId === projectId) schedule();
  });
  // One bucket is `minutes` seconds long: the window moves on once per bucket.
  useEffect(() => {
    const tick = setInterval(schedule, Math.max(5, minutes) * 1000);
    return () => clearInterval(tick);
  }, [minutes]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return { stats: state.stats, error: state.error };
}
