import { useState } from 'react';
import { del, enc, put } from '../api/client';
import { useShared } from '../state';
import type { ProjectListing, ServerInfo } from '../types';
import { useNotify } from './notices';

/** The project's mock server: its URL and status (live, from `server` events), Start and Stop. */
export function ServerControl({ project }: { project: ProjectListing }) {
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
  return (
    <div className="server-control" aria-label={`Mock server of ${project.name}`} role="group">
      <span className={`server-status ${running ? 'running' : 'stopped'}`} role="status">
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
      {running ? (
        <button type="button" disabled={busy} onClick={() => void act('stop')}>
          Stop server
        </button>
      ) : (
        <button type="button" className="primary" disabled={busy} onClick={() => void act('start')}>
          Start server
        </button>
      )}
    </div>
  );
}
