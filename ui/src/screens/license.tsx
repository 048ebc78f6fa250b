import { useState, type FormEvent } from 'react';
import { post } from '../api/client';
import { useData } from '../api/use-data';
import { ErrorMessage, useNotify } from '../components/notices';
import type { LicenseStatus } from '../import/types';
import '../license/license.css';

const STATES: Record<LicenseStatus['state'], string> = {
  none: 'No license activated',
  active: 'Active',
  expired: 'Expired',
  invalid: 'Invalid',
};

const date = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : undefined);

/**
 * The license (docs/license.md): its status, activation by key, activation by e-mail or a trial
 * (both confirmed by a link in an e-mail), then Check.
 */
export function LicenseScreen() {
  const status = useData<LicenseStatus>('/license');
  return (
    <section className="screen license-screen" aria-labelledby="screen-title">
      <h1 id="screen-title">License</h1>
      <section aria-labelledby="license-status">
        <h2 id="license-status">Status</h2>
        <ErrorMessage error={status.error} />
        {status.data ? (
          <StatusView status={status.data} />
        ) : (
          !status.error && <p className="loading">Loading…</p>
        )}
      </section>
      <KeyActivation onActivated={status.reload} />
      <EmailActivation onActivated={status.reload} />
    </section>
  );
}

function StatusView({ status }: { status: LicenseStatus }) {
  const rows: [string, string | undefined][] = [
    ['State', STATES[status.state]],
    [
      'Signed by',
      status.signedBy === 'MOCKDEV_LICENSE_PUBLIC_KEY'
        ? 'the key in MOCKDEV_LICENSE_PUBLIC_KEY'
        : status.signedBy === 'built-in'
          ? 'mockdev (built-in key)'
          : undefined,
    ],
    ['Licensee', status.licensee ?? undefined],
    ['Issued', date(status.issuedAt)],
    ['Expires', status.state === 'none' ? undefined : (date(status.expiresAt) ?? 'Never')],
    [
      'Activated',
      status.activation
        ? `by ${status.activation === 'key' ? 'key' : 'e-mail'}, ${date(status.activatedAt) ?? ''}`
        : undefined,
    ],
    ['Key', status.key ?? undefined],
  ];
  return (
    <>
      <dl className="status" data-testid="license-status">
        <dt>Plan</dt>
        <dd className={status.plan === 'pro' ? 'plan-pro' : undefined}>
          {status.plan === 'pro' ? 'Pro' : 'Free'}
        </dd>
        {rows
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => (
            <div key={k} style={{ display: 'contents' }}>
              <dt>{k}</dt>
              <dd className={k === 'Key' ? 'mono' : undefined}>{v}</dd>
            </div>
          ))}
      </dl>
      {status.problem && (
        <div className="error-box" role="alert">
          <strong>The stored license is not active</strong>
          <div>{status.problem}</div>
        </div>
      )}
    </>
  );
}

function KeyActivation({ onActivated }: { onActivated: () => void }) {
  const notify = useNotify();
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const s = await post<LicenseStatus>('/license/activate', { key: key.trim() });
      setKey('');
      onActivated();
      notify.info(
        `License activated: ${s.plan === 'pro' ? 'Pro' : 'Free'}${s.licensee ? ` for ${s.licensee}` : ''}`,
      );
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="license-key">
      <h2 id="license-key">Activate with a key</h2>
      <form onSubmit={(e) => void submit(e)}>
        <label>
          License key
          <input value={key} onChange={(e) => setKey(e.target.value)} spellCheck={false} autoComplete="off" />
        </label>
        <button type="submit" className="primary" disabled={busy || key.trim() === ''}>
          Activate
        </button>
      </form>
      <ErrorMessage error={error} />
    </section>
  );
}

function EmailActivation({ onActivated }: { onActivated: () => void }) {
  const notify = useNotify();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<{ email: string; service: string; days?: number }>();
  const [state, setState] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  const run = async (what: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await what();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const send = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const r = await post<{ email: string; service: string }>('/license/activate-email', {
        email: email.trim(),
      });
      setSent(r);
      setState(undefined);
    });
  };
  const trial = () =>
    void run(async () => {
      const r = await post<{ email: string; service: string; days: number }>('/license/trial', {
        email: email.trim(),
      });
      setSent(r);
      setState(undefined);
    });
  const check = () =>
    void run(async () => {
      const r = await post<{ status: 'pending' | 'confirmed'; email: string }>('/license/check', {
        email: sent?.email ?? email.trim(),
      });
      if (r.status === 'confirmed') {
        setState(`Confirmed: the license of ${r.email} is active.`);
        onActivated();
        notify.info('License activated by e-mail');
      } else setState(`Not confirmed yet: open the link in the e-mail sent to ${r.email}, then check again.`);
    });

  return (
    <section aria-labelledby="license-email">
      <h2 id="license-email">Activate by e-mail</h2>
      <p className="hint">
        The license service e-mails you a link; open it, then press Check. No license yet? Start a trial: one
        per e-mail address.
      </p>
      <form onSubmit={send}>
        <label>
          E-mail address
          <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />
        </label>
        <button type="submit" disabled={busy || email.trim() === ''}>
          Send activation e-mail
        </button>
        <button type="button" disabled={busy || email.trim() === ''} onClick={trial}>
          Start a trial
        </button>
        <button type="button" disabled={busy || (!sent && email.trim() === '')} onClick={check}>
          Check
        </button>
      </form>
      {sent && (
        <p role="status">
          The license service ({sent.service}) is e-mailing a link to {sent.email}
          {sent.days ? ` that starts a ${sent.days}-day trial` : ''}. Open it, then press Check.
        </p>
      )}
      {state && <p role="status">{state}</p>}
      <ErrorMessage error={error} />
    </section>
  );
}
