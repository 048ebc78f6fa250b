import { useEffect, useRef, useState } from 'react';
import { del, enc, get, put, query } from '../api/client';
import { useEvent } from '../api/events';
import { useData } from '../api/use-data';
import { useConfirm } from '../components/confirm';
import { Link } from '../components/link';
import { ErrorMessage, useNotify } from '../components/notices';
import {
  METHODS,
  STATUS_CLASSES,
  filterFromQuery,
  filterToQuery,
  matchesFilter,
  timeOfDay,
  type RequestFilter,
} from '../requests/format';
import { spotFromQuery } from '../contract/locate';
import { RequestCharts } from '../charts/request-charts';
import { RequestDetail } from '../requests/request-detail';
import { RequestTable } from '../requests/request-table';
import '../requests/requests.css';
import '../requests/shared.css';
import { navigate, projectPath, useLocation } from '../router';
import type { RequestRecord } from '../types';
import type { ProjectScreenProps } from './registry';

/** How many of the newest requests the screen shows. */
const LIMIT = 200;
/** More new requests than this at once reload the list instead of fetching each. */
const BURST = 5;
/** How long typing in the path filter pauses before the list follows (ms). */
const PATH_DEBOUNCE_MS = 300;
/** The most the API lists at once: clearing counts up to this many first. */
const COUNT_LIMIT = 1000;
/** With the violations filter, how long after a new request the list is fetched again: its live check's verdict comes after it (ms). */
const VERDICT_WAIT_MS = 1000;

/** Newest first: by time, then by id (ids grow) within the same millisecond. */
const newestFirst = (a: RequestRecord, b: RequestRecord) =>
  b.timestamp.localeCompare(a.timestamp) || Number(b.id) - Number(a.id) || 0;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * A project's request log, newest first, with filters (method, status class, starred, path,
 * contract violations; kept in the URL). Live: each `request` event of this project that passes
 * the filters is fetched whole and put on top.
 * Select a row to see it whole; star, delete one, clear all (each destructive one confirmed).
 * `?request=<id>&side=response&field=body.id` opens that request with the field marked (the
 * Contract screen links so to each violation).
 */
export function RequestsScreen({ project }: ProjectScreenProps) {
  const notify = useNotify();
  const confirm = useConfirm();
  // The filters live in the URL (`?method=GET&status=4xx&starred=true`): a reload, a shared
  // link or coming back to the screen keeps them.
  const location = useLocation().query;
  const filter = filterFromQuery(location);
  const setFilter = (f: RequestFilter) =>
    navigate(projectPath(project.id, 'requests', filterToQuery(f)), { replace: true });
  const linkedId = location.get('request') ?? undefined;
  const spot = spotFromQuery(location);
  const [selectedId, setSelectedId] = useState<string | undefined>(linkedId);
  useEffect(() => {
    if (linkedId) setSelectedId(linkedId);
  }, [linkedId]);
  // The linked request is fetched by itself: it may be older than the newest shown, or filtered out.
  const [linked, setLinked] = useState<RequestRecord>();
  useEffect(() => {
    setLinked(undefined);
    if (!linkedId) return;
    get<RequestRecord>(`/requests/${enc(linkedId)}`).then(setLinked, (e: unknown) =>
      notify.error(e, 'Could not open the linked request'),
    );
  }, [linkedId]);
  const base = `/projects/${enc(project.id)}/requests`;
  const list = useData<RequestRecord[]>(
    base +
      query({
        limit: LIMIT,
        method: filter.method,
        status: filter.status,
        starred: filter.starred ? 'true' : undefined,
        path: filter.path || undefined,
        violations: filter.violations ? 'true' : undefined,
      }),
  );
  // The path text is typed into its own state and goes to the URL (and the API) once typing
  // pauses, not at each key.
  const filterRef = useRef(filter);
  filterRef.current = filter;
  const [pathText, setPathText] = useState(filter.path);
  const pathTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const typePath = (text: string) => {
    setPathText(text);
    clearTimeout(pathTimer.current);
    pathTimer.current = setTimeout(
      () => setFilter({ ...filterRef.current, path: text.trim() }),
      PATH_DEBOUNCE_MS,
    );
  };
  useEffect(() => () => clearTimeout(pathTimer.current), []);
  // the URL changed otherwise (back, a link): the box follows
  useEffect(
    () => setPathText((typed) => (typed.trim() === filter.path ? typed : filter.path)),
    [filter.path],
  );
  const [rows, setRows] = useState<RequestRecord[]>([]);
  // The charts follow deletions at once (no event says a request went).
  const [removed, setRemoved] = useState(0);
  useEffect(() => setRows(list.data ?? []), [list.data]);

  const upsert = (r: RequestRecord) =>
    setRows((all) =>
      all.some((x) => x.id === r.id)
        ? all.map((x) => (x.id === r.id ? r : x))
        : [r, ...all].sort(newestFirst).slice(0, LIMIT),
    );

  // Live: the events of one poll come together; a few are fetched one by one, a burst reloads
  // the list once instead.
  const pending = useRef<string[]>([]);
  const verdictTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(verdictTimer.current), []);
  useEvent('request', (e) => {
    if (e.projectId !== project.id) return;
    // A new request has no verdict yet: the list is fetched again once the live check had time.
    if (filter.violations) {
      clearTimeout(verdictTimer.current);
      verdictTimer.current = setTimeout(list.reload, VERDICT_WAIT_MS);
    }
    if (!matchesFilter(e, filter)) return;
    pending.current.push(e.id);
    if (pending.current.length > 1) return;
    setTimeout(() => {
      const ids = pending.current;
      pending.current = [];
      if (ids.length > BURST) return list.reload();
      for (const id of ids)
        get<RequestRecord>(`/requests/${enc(id)}`).then(
          (r) => {
            if (matchesFilter(r, filter)) upsert(r);
          },
          // it may be gone already (deleted or cleared meanwhile): the list says what is there
          () => list.reload(),
        );
    }, 0);
  });

  const selected = rows.find((r) => r.id === selectedId) ?? (linked?.id === selectedId ? linked : undefined);

  const star = async (r: RequestRecord, starred: boolean) => {
    try {
      const path = `/requests/${enc(r.id)}/star`;
      upsert(starred ? await put<RequestRecord>(path, {}) : await del<RequestRecord>(path));
    } catch (e) {
      notify.error(e, starred ? 'Could not star the request' : 'Could not unstar the request');
    }
  };

  const remove = async (r: RequestRecord) => {
    const ok = await confirm({
      title: 'Delete this request?',
      items: [
        `${r.method} ${r.path} → ${r.status} at ${timeOfDay(r.timestamp)}${r.starred ? ' (starred)' : ''}`,
      ],
    });
    if (!ok) return;
    try {
      await del(`/requests/${enc(r.id)}`);
      setRows((all) => all.filter((x) => x.id !== r.id));
      setSelectedId(undefined);
      setRemoved((n) => n + 1);
      notify.info('Request deleted');
    } catch (e) {
      notify.error(e, 'Could not delete the request');
    }
  };

  const clear = async () => {
    let all: RequestRecord[];
    try {
      all = await get<RequestRecord[]>(`${base}${query({ limit: COUNT_LIMIT })}`);
    } catch (e) {
      notify.error(e, 'Could not count the requests');
      return;
    }
    if (all.length === 0) {
      notify.info('The request log is empty already');
      return;
    }
    const starred = all.filter((r) => r.starred).length;
    const many =
      all.length >= COUNT_LIMIT
        ? `${COUNT_LIMIT} or more logged requests`
        : plural(all.length, 'logged request');
    const ok = await confirm({
      title: `Clear the request log of ${project.name}?`,
      items: [many, ...(starred > 0 ? [`${plural(starred, 'starred request')} among them`] : [])],
      message: 'Every logged request of the project goes, starred ones too.',
      confirmLabel: 'Clear log',
    });
    if (!ok) return;
    try {
      const r = await del<{ deleted: number }>(base);
      setRows([]);
      setSelectedId(undefined);
      notify.info(`Cleared the request log`, `${plural(r.deleted, 'request')} deleted.`);
    } catch (e) {
      notify.error(e, 'Could not clear the request log');
    } finally {
      list.reload();
      setRemoved((n) => n + 1);
    }
  };

  const filtered =
    filter.method !== '' || filter.status !== '' || filter.starred || filter.path !== '' || filter.violations;
  return (
    <section className="screen requests-screen" aria-labelledby="screen-title">
      <h1 id="screen-title">Request log</h1>
      <form className="toolbar" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor="filter-method">
          Method
          <select
            id="filter-method"
            value={filter.method}
            onChange={(e) => setFilter({ ...filter, method: e.target.value })}
          >
            <option value="">All</option>
            {METHODS.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </label>
        <label htmlFor="filter-status">
          Status
          <select
            id="filter-status"
            value={filter.status}
            onChange={(e) => setFilter({ ...filter, status: e.target.value as RequestFilter['status'] })}
          >
            <option value="">All</option>
            {STATUS_CLASSES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
        <label htmlFor="filter-path">
          Path contains
          <input
            id="filter-path"
            type="search"
            value={pathText}
            placeholder="/users"
            spellCheck={false}
            onChange={(e) => typePath(e.target.value)}
          />
        </label>
        <label className="inline starred-filter">
          <input
            type="checkbox"
            checked={filter.starred}
            onChange={(e) => setFilter({ ...filter, starred: e.target.checked })}
          />
          Starred only
        </label>
        <label className="inline violations-filter">
          <input
            type="checkbox"
            checked={filter.violations}
            onChange={(e) => setFilter({ ...filter, violations: e.target.checked })}
          />
          Contract violations only
        </label>
        <span className="spacer" />
        <button type="button" onClick={list.reload}>
          Refresh
        </button>
        <button type="button" className="danger-outline" onClick={() => void clear()}>
          Clear log…
        </button>
      </form>
      <RequestCharts projectId={project.id} filter={filter} reloadKey={removed} />
      <ErrorMessage error={list.error} />
      <p className="muted">
        {list.loading && !list.data
          ? 'Loading…'
          : `${plural(rows.length, filtered ? 'matching request' : 'request')}${rows.length >= LIMIT ? ` (the newest ${LIMIT})` : ''}. New ones appear as they come.`}
      </p>
      <div className={selected ? 'requests-layout with-detail' : 'requests-layout'}>
        <div className="requests-list">
          {rows.length === 0 && !list.loading ? (
            <div className="empty-state">
              {filtered ? (
                <p>
                  No logged request matches these filters.
                  {filter.violations && (
                    <>
                      {' '}
                      Violations are found as requests are logged while live checking is on (
                      <Link href={projectPath(project.id, 'contract')}>Contract</Link>) or the server runs
                      with <code>serve --contract</code>.
                    </>
                  )}
                </p>
              ) : (
                <p>
                  No requests yet. Start the mock server (top bar) and call it: each request shows here as it
                  comes.
                </p>
              )}
            </div>
          ) : (
            <RequestTable
              records={rows}
              selectedId={selectedId}
              onSelect={(r) => setSelectedId(r.id)}
              onStar={(r, s) => void star(r, s)}
            />
          )}
        </div>
        {selected && (
          <RequestDetail
            projectId={project.id}
            record={selected}
            spot={selected.id === linkedId ? spot : undefined}
            onStar={(s) => void star(selected, s)}
            onDelete={() => void remove(selected)}
            onClose={() => setSelectedId(undefined)}
          />
        )}
      </div>
    </section>
  );
}
