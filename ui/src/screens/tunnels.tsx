import { useState, type FormEvent } from 'react';
import { del, enc, post } from '../api/client';
import { useData } from '../api/use-data';
import { CopyButton } from '../components/copy-button';
import { ErrorMessage, useNotify } from '../components/notices';
import { ProNote } from '../components/pro-note';
import '../license/license.css';
import { useShared } from '../state';
import '../tls/tls.css';
import { ProviderChecks } from '../tunnels/providers';
import { licenseRequired, useTunnel } from '../tunnels/use-tunnel';
import { PORT_MAX } from '../../../src/core/model/limits';
import type { ServerInfo, TunnelProviderCheck, TunnelProviderName, TunnelRecord } from '../types';
import type { ProjectScreenProps } from './registry';

/** Every provider, first the default (the type keeps the list whole). */
const PROVIDERS: Record<TunnelProviderName, string> = {
  cloudflared: 'cloudflared (Cloudflare quick tunnel, no account)',
  ngrok: 'ngrok (needs an auth token)',
};

/**
 * A project's public tunnel (docs/tunnels.md; Pro), as `mockdev tunnel …`: the running one with
 * its public URL (a link, and copied in one click) and Stop, or Start with a provider; and what
 * each provider needs installed. Live: a tunnel started or stopped elsewhere shows at once.
 */
export function TunnelsScreen({ project }: ProjectScreenProps) {
  const tunnel = useTunnel(project.id);
  const providers = useData<TunnelProviderCheck[]>('/tunnels/providers');
  const server = useShared().servers.find((s) => s.projectId === project.id);
  const gated = licenseRequired(tunnel.error) ?? licenseRequired(providers.error);

  return (
    <section className="screen tunnels-screen" aria-labelledby="screen-title">
      <h1 id="screen-title">Tunnels of {project.name}</h1>
      <p className="hint">
        A tunnel gives the mock server a public https URL, so webhook senders, phones and teammates reach it.
        Only the mock server’s port is tunnelled, never mockdev’s own.
      </p>
      {gated ? (
        <ProNote title="Tunnels need a Pro license.">
          Pro starts a tunnel to a project’s mock server through cloudflared (no account needed) or ngrok,
          shows its public URL here and in the endpoint editor, gives it to templates as{' '}
          <code>{'{{tunnel.url}}'}</code>, and stops it again.
        </ProNote>
      ) : (
        <>
          <section aria-labelledby="tunnel-now">
            <h2 id="tunnel-now">Tunnel</h2>
            <ErrorMessage error={tunnel.error} />
            {tunnel.data === undefined ? (
              !tunnel.error && <p className="loading">Loading…</p>
            ) : tunnel.data ? (
              <RunningTunnel tunnel={tunnel.data} projectName={project.name} onStopped={tunnel.reload} />
            ) : (
              <StartTunnel
                projectId={project.id}
                projectName={project.name}
                server={server}
                checks={providers.data}
                onStarted={tunnel.reload}
              />
            )}
          </section>
          <section aria-labelledby="tunnel-providers">
            <h2 id="tunnel-providers">Providers</h2>
            <ErrorMessage error={providers.error} />
            {providers.data ? (
              <ProviderChecks checks={providers.data} />
            ) : (
              !providers.error && <p className="loading">Loading…</p>
            )}
          </section>
        </>
      )}
    </section>
  );
}

function RunningTunnel(props: { tunnel: TunnelRecord; projectName: string; onStopped: () => void }) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const { tunnel } = props;
  const stop = async () => {
    setBusy(true);
    try {
      await del(`/projects/${enc(tunnel.projectId)}/tunnel`);
      notify.info(`Stopped the tunnel of ${props.projectName}`);
    } catch (e) {
      notify.error(e, `Could not stop the tunnel of ${props.projectName}`);
    } finally {
      setBusy(false);
      props.onStopped();
    }
  };
  return (
    <>
      <dl className="status" aria-label={`Tunnel of ${props.projectName}`}>
        <dt>Public URL</dt>
        <dd className="tunnel-url">
          <a href={tunnel.url} target="_blank" rel="noreferrer">
            {tunnel.url}
          </a>{' '}
          <CopyButton text={tunnel.url} what="the public URL" />
        </dd>
        <dt>Provider</dt>
        <dd>{tunnel.provider}</dd>
        <dt>Forwards to</dt>
        <dd className="mono">
          {tunnel.https ? 'https' : 'http'}://127.0.0.1:{tunnel.port}
        </dd>
        <dt>Started</dt>
        <dd>
          {new Date(tunnel.startedAt).toLocaleString()}
          {tunnel.withServer && ' with the mock server (it stops with it)'}
        </dd>
        <dt>Process</dt>
        <dd>{tunnel.pid}</dd>
      </dl>
      <div className="actions">
        <button type="button" disabled={busy} onClick={() => void stop()}>
          {busy ? 'Stopping…' : 'Stop tunnel'}
        </button>
      </div>
    </>
  );
}

function StartTunnel(props: {
  projectId: string;
  projectName: string;
  server: ServerInfo | undefined;
  checks: TunnelProviderCheck[] | undefined;
  onStarted: () => void;
}) {
  const notify = useNotify();
  const [provider, setProvider] = useState<TunnelProviderName>('cloudflared');
  const [port, setPort] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const check = props.checks?.find((c) => c.provider === provider);
  const missing = check && !check.available;
  const noTarget = !props.server && port.trim() === '';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const r = await post<{ tunnel: TunnelRecord; alreadyRunning: boolean }>(
        `/projects/${enc(props.projectId)}/tunnel`,
        { provider, port: port.trim() === '' ? undefined : Number(port) },
      );
      notify.info(
        r.alreadyRunning ? `A tunnel of ${props.projectName} was running already` : `Tunnel started`,
        r.tunnel.url,
      );
      props.onStarted();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="tls-generate" aria-label="Start a tunnel" onSubmit={(e) => void submit(e)}>
      <p>No tunnel is running for {props.projectName}.</p>
      <label>
        Provider
        <select value={provider} onChange={(e) => setProvider(e.target.value as TunnelProviderName)}>
          {(Object.keys(PROVIDERS) as TunnelProviderName[]).map((p) => (
            <option key={p} value={p}>
              {PROVIDERS[p]}
              {props.checks?.find((c) => c.provider === p)?.available === false ? ': not installed' : ''}
            </option>
          ))}
        </select>
      </label>
      <label>
        Local port (optional)
        <input
          type="number"
          min={1}
          max={PORT_MAX}
          value={port}
          placeholder={props.server ? `${props.server.port}, the mock server’s` : 'the mock server’s'}
          onChange={(e) => setPort(e.target.value)}
        />
      </label>
      {missing && (
        <p className="tls-warn" role="status">
          {provider} is not installed here: see Providers below for how to install it.
        </p>
      )}
      {noTarget && (
        <p className="hint" role="status">
          The mock server of {props.projectName} is not running: start it (top bar), or give the local port to
          tunnel to.
        </p>
      )}
      <div className="actions">
        <button type="submit" className="primary" disabled={busy || missing || noTarget}>
          {busy ? 'Starting… (waiting for the public URL)' : 'Start tunnel'}
        </button>
      </div>
      <ErrorMessage error={error} />
    </form>
  );
}
