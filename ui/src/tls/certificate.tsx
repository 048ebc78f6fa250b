import { TableHead } from '../components/table-head';
import type { CertificateInfo, TrustCheck } from '../types';

const date = (iso: string) => new Date(iso).toLocaleString();

/** "412 days left", "expires today", "expired 3 days ago". */
export function daysLeftText(days: number): string {
  if (days > 1) return `${days} days left`;
  if (days === 1) return '1 day left';
  if (days === 0) return 'expires today';
  return `expired ${-days} day${days === -1 ? '' : 's'} ago`;
}

/** One certificate's facts (the CA's or the leaf's), or what to do when there is none yet. */
export function CertificateView(props: {
  id: string;
  title: string;
  cert: CertificateInfo | null;
  missing: string;
  /** The leaf is near its end (or past it): say to renew. */
  renew?: boolean;
}) {
  const { cert } = props;
  return (
    <section className="tls-cert" aria-labelledby={props.id}>
      <h3 id={props.id}>{props.title}</h3>
      {!cert ? (
        <p className="muted">{props.missing}</p>
      ) : (
        <>
          <dl className="status">
            <dt>File</dt>
            <dd className="mono">{cert.path}</dd>
            <dt>Subject</dt>
            <dd>{cert.subject}</dd>
            <dt>Issuer</dt>
            <dd>{cert.issuer}</dd>
            {cert.sans.length > 0 && (
              <>
                <dt>Names</dt>
                <dd>
                  <ul className="tls-sans" aria-label={`Names of the ${props.title.toLowerCase()}`}>
                    {cert.sans.map((n) => (
                      <li key={n} className="mono">
                        {n}
                      </li>
                    ))}
                  </ul>
                </dd>
              </>
            )}
            <dt>Valid from</dt>
            <dd>{date(cert.notBefore)}</dd>
            <dt>Expires</dt>
            <dd>
              {date(cert.notAfter)}{' '}
              <span className={cert.daysLeft < 0 || props.renew ? 'tls-warn' : 'muted'}>
                ({daysLeftText(cert.daysLeft)})
              </span>
            </dd>
            <dt>SHA-256 fingerprint</dt>
            <dd className="mono tls-fingerprint">{cert.fingerprint256}</dd>
          </dl>
          {props.renew && (
            <p className="tls-warn" role="status">
              This certificate is near its end: renew it below (the CA stays, so nothing needs trusting
              again).
            </p>
          )}
        </>
      )}
    </section>
  );
}

const STORES: Record<TrustCheck['store'], string> = {
  system: 'System',
  nss: 'NSS (Firefox, Chromium)',
  node: 'Node.js',
  java: 'Java',
};
const STATUSES: Record<TrustCheck['status'], string> = {
  trusted: 'Trusted',
  'not-trusted': 'Not trusted',
  unknown: 'Unknown',
};

/** Whether each trust store this system has holds the CA. */
export function TrustStores({ trust }: { trust: TrustCheck[] }) {
  if (trust.length === 0) return <p className="muted">No trust store of this system could be looked at.</p>;
  return (
    <table className="tls-trust">
      <TableHead columns={['Store', 'Location', 'The CA is']} />
      <tbody>
        {trust.map((t) => (
          <tr key={`${t.store} ${t.location}`}>
            <th scope="row">{STORES[t.store]}</th>
            <td className="mono">{t.location}</td>
            <td>
              <span className={`trust-status trust-${t.status}`}>{STATUSES[t.status]}</span>
              {t.detail && <div className="muted">{t.detail}</div>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
