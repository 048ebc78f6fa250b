import { useEffect, useState } from 'react';
import { useData } from '../api/use-data';
import { ErrorMessage } from '../components/notices';
import { ProNote } from '../components/pro-note';
import type { LicenseStatus } from '../import/types';
import '../license/license.css';
import { CertificateView, TrustStores } from '../tls/certificate';
import { GenerateForm } from '../tls/generate-form';
import '../tls/tls.css';
import { TrustCommands } from '../tls/trust-commands';
import type { TlsStatus } from '../types';

/**
 * HTTPS with a local CA (docs/tls.md), as `mockdev tls …`: the CA and the leaf with the trust
 * stores' view, Generate / Renew (Pro), and the commands that trust the CA on a chosen system.
 */
export function TlsScreen() {
  const fetched = useData<TlsStatus>('/tls');
  const license = useData<LicenseStatus>('/license');
  // What a generate answered is shown at once (the same status GET /tls answers).
  const [generated, setGenerated] = useState<TlsStatus>();
  useEffect(() => setGenerated(undefined), [fetched.data]);
  const status = generated ?? fetched.data;
  const pro = license.data?.plan === 'pro';

  return (
    <section className="screen tls-screen" aria-labelledby="screen-title">
      <h1 id="screen-title">TLS</h1>
      <p className="hint">
        mockdev serves HTTPS with a certificate signed by a certificate authority (CA) of this machine: trust
        the CA once, and every certificate it signs is trusted. Serve with <code>mockdev serve --tls</code>,
        or with <code>tls: true</code> in a project.
      </p>
      <ErrorMessage error={fetched.error} />
      {!status ? (
        !fetched.error && <p className="loading">Loading…</p>
      ) : (
        <>
          <section aria-labelledby="tls-certificates">
            <h2 id="tls-certificates">Certificates</h2>
            <p className="muted">
              In <code>{status.dir}</code>
            </p>
            <div className="tls-certs">
              <CertificateView
                id="tls-ca"
                title="Certificate authority"
                cert={status.ca}
                missing="No CA yet: generating a certificate makes one."
              />
              <CertificateView
                id="tls-leaf"
                title="Server certificate"
                cert={status.leaf}
                renew={status.renew}
                missing="No certificate yet."
              />
            </div>
          </section>
          <section aria-labelledby="tls-generate">
            <h2 id="tls-generate">{status.leaf ? 'Renew' : 'Generate'}</h2>
            {pro ? (
              <GenerateForm status={status} onDone={setGenerated} />
            ) : (
              license.data && (
                <ProNote title="Generating certificates needs a Pro license.">
                  Pro makes a CA for this machine and certificates it signs for localhost and the names you
                  add, and renews them. Without it, serve HTTPS with certificates you already have (
                  <code>mockdev serve --cert FILE --key FILE</code>).
                </ProNote>
              )
            )}
            <ErrorMessage error={license.error} />
          </section>
          <section aria-labelledby="tls-stores">
            <h2 id="tls-stores">Trust stores</h2>
            {status.ca ? (
              <TrustStores trust={status.trust} />
            ) : (
              <p className="muted">
                Once there is a CA, this says which trust stores of this system hold it.
              </p>
            )}
          </section>
        </>
      )}
      <section aria-labelledby="tls-trust">
        <h2 id="tls-trust">Trust the CA</h2>
        <TrustCommands />
      </section>
    </section>
  );
}
