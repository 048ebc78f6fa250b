import {
  maskCredentialHeaders,
  maskCredentialQuery,
  maskCredentialsInText,
  secretsOf,
} from '../../../src/core/model/credentials';
import { ApiError } from '../api/client';
import { TableHead } from '../components/table-head';
import { BODY_KEPT, formatBody, maskSecret, queryRows } from './format';
import type { CurlPreview } from './types';

/**
 * What a cURL command would become (SPEC 4.5 rule 4): method and path, query, headers, body, auth,
 * warnings. The credential is shown masked wherever it appears (the URL, the query, the headers
 * table, the warnings), as in the auth line: by the core's rule (core/model/credentials.ts).
 */
export function CurlPreviewView({ preview }: { preview: CurlPreview }) {
  const secrets = secretsOf(preview.auth);
  const rows = queryRows(maskCredentialQuery(preview.query, secrets));
  const headers = Object.entries(maskCredentialHeaders(preview.headers, secrets));
  const body = preview.body === null ? undefined : formatBody(preview.body);
  const kept = BODY_KEPT.includes(preview.method);
  return (
    <div className="curl-preview" role="region" aria-label="cURL preview">
      <p className="curl-route">
        <span className="method mono" data-testid="preview-method">
          {preview.method}
        </span>{' '}
        <span className="mono" data-testid="preview-path">
          {preview.path}
        </span>
      </p>
      <p className="muted">
        URL: <span className="mono">{maskCredentialsInText(preview.url, secrets)}</span>
      </p>
      {rows.length > 0 && <KeyValueTable caption="Query parameters" keyLabel="Parameter" rows={rows} />}
      {headers.length > 0 ? (
        <KeyValueTable caption="Headers" keyLabel="Header" rows={headers} />
      ) : (
        <p className="muted">No headers.</p>
      )}
      {preview.auth && (
        <p data-testid="preview-auth">
          <strong>Authentication detected:</strong>{' '}
          {preview.auth.type === 'basic' ? (
            <>
              Basic, user <span className="mono">{preview.auth.username}</span>, password{' '}
              <span className="mono">{maskSecret(preview.auth.password)}</span>
            </>
          ) : (
            <>
              Bearer token <span className="mono">{maskSecret(preview.auth.token)}</span>
            </>
          )}{' '}
          <span className="muted">
            (the endpoint keeps only its kind{preview.auth.type === 'basic' ? ' and user' : ''})
          </span>
        </p>
      )}
      {body && (
        <div>
          <h3>
            Body{body.json ? ' (JSON, formatted)' : ''}{' '}
            <span className="muted small">
              {kept ? `kept with the endpoint for reference` : `not kept: only POST, PUT and PATCH keep it`}
            </span>
          </h3>
          <pre tabIndex={0} aria-label="Request body" data-testid="preview-body">
            {body.text}
          </pre>
        </div>
      )}
      {preview.warnings.length > 0 && (
        <div className="curl-warnings">
          <h3>Warnings</h3>
          <ul>
            {preview.warnings.map((w, i) => (
              <li key={i}>{maskCredentialsInText(w, secrets)}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function KeyValueTable({
  caption,
  keyLabel,
  rows,
}: {
  caption: string;
  keyLabel: string;
  rows: [string, string][];
}) {
  return (
    <table className="kv">
      <caption>{caption}</caption>
      <TableHead columns={[keyLabel, 'Value']} />
      <tbody>
        {rows.map(([k, v], i) => (
          <tr key={`${k}-${i}`}>
            <td className="mono">{k}</td>
            <td className="mono">{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A command the parser refuses: the message, where, and the fix (details: line, column, fix). */
export function CurlParseError({ error }: { error: unknown }) {
  const e = error instanceof ApiError ? error : undefined;
  const details = (e?.details ?? {}) as { line?: number; column?: number; fix?: string };
  const said = e ? (e.detail ?? e.title) : String((error as Error)?.message ?? error);
  // The detail ends with the fix; it is shown once, on its own line.
  const message = details.fix && said.includes(details.fix) ? said.replace(details.fix, '').trim() : said;
  return (
    <div className="error-box" role="alert" data-testid="curl-error">
      <strong>{e ? 'This command cannot be read' : 'The preview failed'}</strong>
      <div>{message}</div>
      {details.line !== undefined && (
        <div className="muted">
          At line {details.line}
          {details.column !== undefined ? `, column ${details.column}` : ''}.
        </div>
      )}
      {details.fix && (
        <div>
          <strong>Fix:</strong> {details.fix}
        </div>
      )}
    </div>
  );
}
