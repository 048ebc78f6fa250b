import { useState, type ReactNode } from 'react';
import { del, enc, put } from '../api/client';
import { useShared } from '../state';
import type { ProjectListing, ServerInfo } from '../types';
import { useNotify } from './notices';

export interface ServerState {
  /** The project's running server (from any process), if one runs. */
  running: ServerInfo | undefined;
  /** A start or stop is under way. */
  busy: boolean;
  start: () => Promise<void>;
  stop: () => Promise<void>;
}

/**
 * A project's mock server: whether it runs (live: `server` events reload the shared list, so a
 * `mockdev serve` or `mockdev stop` in a terminal shows within a second), and Start / Stop. A
 * failure (a busy port's 409, a server another process runs) is shown with its detail.
 */
export function useServer(project: ProjectListing): ServerState {
  const { servers, reloadServers } = useShared();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const running = servers.find((s) => s.projectId === project.id);
  const act = async (what: 'start' | 'stop') => {
    setBusy(true);
    try {
      if (what === 'start') await put<ServerInfo>(`/projects/${enc(project.id)}/server`, {});
      else await del(`/projects/${enc(project.id)}/server`);
    } catch (e) {
      notify.error(
        e,
        what === 'start' ? `Could not start ${project.name}` : `Could not stop ${project.name}`,
      );
    } finally {
      setBusy(false);
      reloadServers();
    }
  };
  return { running, busy, start: () => act('start'), stop: () => act('stop') };
}

/** The status: "Running at <URL>" (a link) or "Stopped". */
export function ServerStatusText({ running }: { running: ServerInfo | undefined }) {
  return (
    <span className={`server-status ${running ? 'running' : 'stopped'}`}>
      {running ? (
        <>
          Running at{' '}
          <a href={running.url} target="_blank" rel="noreferrer">
            {running.url}
          </a>
        </>
      ) : (
        'Stopped'
      )}
    </span>
  );
}

/** Start or Stop, named `Start <label>` / `Stop <label>`. */
export function ServerButton({ server, label }: { server: ServerState; label: ReactNode }) {
  const { running, busy } = server;
  return running ? (
    <button type="button" disabled={busy} onClick={() => void server.stop()}>
      Stop {label}
    </button>
  ) : (
    <button type="button" className="primary" disabled={busy} onClick={() => void server.start()}>
      Start {label}
    </button>
  );
}

/** The top bar's control: the current project's mock server, its URL and status live, Start and Stop. */
export function ServerControl({ project }: { project: ProjectListing }) {
  const server = useServer(project);
  return (
    <div className="server-control" aria-label={`Mock server of ${project.name}`} role="group">
      <span role="status">
        <ServerStatusText running={server.running} />
      </span>
      <ServerButton server={server} label="server" />
    </div>
  );
}
