import { useRef, useState } from 'react';
import { del, enc, query } from '../api/client';
import { useEvent } from '../api/events';
import { useData } from '../api/use-data';
import { useConfirm } from '../components/confirm';
import { Link } from '../components/link';
import { ErrorMessage, useNotify } from '../components/notices';
import { RecordingDetail } from '../recordings/recording-detail';
import { ExchangeCells, ExchangeColumns } from '../requests/exchange';
import '../requests/requests.css';
import '../requests/shared.css';
import '../recordings/recordings.css';
import { projectPath, useLocation } from '../router';
import type { Recording } from '../types';
import type { ProjectScreenProps } from './registry';

interface Counts {
  endpoints: { id: string; name: string; method: string; path: string; count: number }[];
  total: number;
}

const LIMIT = 200;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The recordings of a project's proxy endpoints: the endpoints with their counts, the chosen
 * one's recordings newest first (`?endpoint=<id>` chooses, as the tree's "View Recordings"
 * links), a recording whole with "To mock", delete one, clear an endpoint's. A request through
 * the project's server (a `request` event) reloads the counts and the list.
 */
export function RecordingsScreen({ project }: ProjectScreenProps) {
  const notify = useNotify();
  const confirm = useConfirm();
  const { query: q } = useLocation();
  const counts = useData<Counts>(`/projects/${enc(project.id)}/recordings/count`);
  const endpoints = counts.data?.endpoints ?? [];
  const chosen = q.get('endpoint') ?? endpoints[0]?.id;
  const endpoint = endpoints.find((e) => e.id === chosen || e.name === chosen);
  const listPath = chosen
    ? `/projects/${enc(project.id)}/endpoints/${enc(chosen)}/recordings${query({ limit: LIMIT })}`
    : null;
  const list = useData<Recording[]>(listPath);
  const [selectedId, setSelectedId] = useState<string>();
  const recordings = list.data ?? [];
  const selected = recordings.find((r) => r.id === selectedId);

  const reload = () => {
    counts.reload();
    list.reload();
  };
  // a burst of requests reloads once
  const scheduled = useRef(false);
  useEvent('request', (e) => {
    if (e.projectId !== project.id || scheduled.current) return;
    scheduled.current = true;
    setTimeout(() => {
      scheduled.current = false;
      reload();
    }, 100);
  });

  const clear = async () => {
    if (!chosen) return;
    const label = endpoint ? `${endpoint.method} ${endpoint.path}` : chosen;
    const ok = await confirm({
      title: `Clear the recordings of ${label}?`,
      items: [`${plural(endpoint?.count ?? recordings.length, 'recording')} of ${label}`],
      confirmLabel: 'Clear recordings',
    });
    if (!ok) return;
    try {
      const r = await del<{ deleted: number }>(
        `/projects/${enc(project.id)}/endpoints/${enc(chosen)}/recordings`,
      );
      setSelectedId(undefined);
      notify.info('Recordings cleared', `${plural(r.deleted, 'recording')} deleted.`);
    } catch (e) {
      notify.error(e, 'Could not clear the recordings');
    } finally {
      reload();
    }
  };

  return (
    <section className="screen recordings-screen" aria-labelledby="screen-title">
      <h1 id="screen-title">Recordings</h1>
      <ErrorMessage error={counts.error} />
      {!counts.data ? (
        !counts.error && <p className="loading">Loading…</p>
      ) : endpoints.length === 0 ? (
        <div className="empty-state">
          <p>
            <strong>No proxy endpoints in {project.name}.</strong> Recordings come from proxy endpoints with
            recording on: each request the project's mock server forwards to the real API is stored with the
            answer it got, and can become a mock.
          </p>
          <p>
            Make one from a terminal, then send requests through the mock server:{' '}
            <code>
              mockdev endpoint add "{project.name}" -n upstream -p "/api/*" --proxy https://api.example.com
              --record
            </code>
          </p>
        </div>
      ) : (
        <div className="recordings-layout">
          <nav className="recording-endpoints" aria-labelledby="proxy-endpoints-title">
            <h2 id="proxy-endpoints-title">Proxy endpoints</h2>
            <ul>
              {endpoints.map((e) => (
                <li key={e.id}>
                  <Link
                    href={projectPath(project.id, 'recordings', { endpoint: e.id })}
                    aria-current={e.id === endpoint?.id ? 'page' : undefined}
                    onClick={() => setSelectedId(undefined)}
                  >
                    <span className="method">{e.method}</span> <span className="mono">{e.path}</span>{' '}
                    <span className="muted">{e.name}</span> <span className="badge">{e.count}</span>
                  </Link>
                </li>
              ))}
            </ul>
            <p className="muted">{plural(counts.data.total, 'recording')} in all.</p>
          </nav>
          <div className="recordings-main">
            <div className="detail-head">
              <h2>
                Recordings of {endpoint ? `${endpoint.method} ${endpoint.path}` : (chosen ?? 'an endpoint')}
              </h2>
              <div className="detail-actions">
                <button type="button" onClick={reload}>
                  Refresh
                </button>
                <button
                  type="button"
                  className="danger-outline"
                  disabled={recordings.length === 0}
                  onClick={() => void clear()}
                >
                  Clear recordings…
                </button>
              </div>
            </div>
            <ErrorMessage error={list.error} />
            {recordings.length === 0 ? (
              !list.loading && (
                <p className="muted">
                  None yet: start the mock server and send a request to {endpoint?.path ?? 'the endpoint'};
                  each forwarded exchange shows here.
                </p>
              )
            ) : (
              <RecordingTable records={recordings} selectedId={selectedId} onSelect={setSelectedId} />
            )}
            {selected && (
              <RecordingDetail
                key={selected.id}
                projectId={project.id}
                recording={selected}
                onDeleted={() => {
                  setSelectedId(undefined);
                  reload();
                }}
                onClose={() => setSelectedId(undefined)}
              />
            )}
          </div>
        </div>
      )}
    </section>
  );
}

function RecordingTable(props: {
  records: Recording[];
  selectedId: string | undefined;
  onSelect: (id: string) => void;
}) {
  return (
    <table className="recordings-table">
      <caption className="visually-hidden">Recordings, newest first</caption>
      <thead>
        <tr>
          <ExchangeColumns />
        </tr>
      </thead>
      <tbody>
        {props.records.map((r) => {
          const selected = r.id === props.selectedId;
          return (
            <tr key={r.id} className={selected ? 'selected' : undefined}>
              <ExchangeCells
                timestamp={r.timestamp}
                method={r.request.method}
                path={r.request.path}
                status={r.response.status}
                durationMs={r.durationMs}
                selected={selected}
                onSelect={() => props.onSelect(r.id)}
              />
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
