import { headerValue, prettyBody, queryString } from './format';

/** Parts of a request/response detail, shared by the request log and the recordings. */

export function HeadersTable({ headers, caption }: { headers: Record<string, string>; caption: string }) {
  const entries = Object.entries(headers);
  if (entries.length === 0) return <p className="muted">No {caption.toLowerCase()}.</p>;
  return (
    <table className="headers-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Value</th>
        </tr>
      </thead>
      <tbody>
        {entries.map(([name, value]) => (
          <tr key={name}>
            <th scope="row" className="mono">
              {name}
            </th>
            <td className="mono">{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * A body, pretty-printed when it is JSON, in a focusable scrolling block (keyboard users can
 * scroll it). `note` says when it was cut short or is base64.
 */
export function BodyView(props: {
  label: string;
  body: string | null | undefined;
  headers: Record<string, string>;
  truncated?: boolean;
  note?: string;
}) {
  const { text, json } = prettyBody(props.body, headerValue(props.headers, 'content-type'));
  return (
    <div className="body-view">
      <div className="body-view-title">
        <strong>{props.label}</strong>
        {json && <span className="badge">JSON</span>}
        {props.truncated && <span className="badge badge-warn">truncated</span>}
        {props.note && <span className="muted">{props.note}</span>}
      </div>
      {text === '' ? (
        <p className="muted">Empty.</p>
      ) : (
        <pre tabIndex={0} aria-label={props.label}>
          {text}
        </pre>
      )}
    </div>
  );
}

/** The query of a request, as `?a=1&b=2`; nothing when it has none. */
export function QueryLine({ query }: { query: Record<string, string | string[]> }) {
  const q = queryString(query);
  if (!q) return null;
  return (
    <p>
      <span className="muted">Query </span>
      <code>{q}</code>
    </p>
  );
}

/** The class of a status for its colour: `status-2` … `status-5`. */
export function StatusCode({ status }: { status: number }) {
  return <span className={`status-code status-${Math.floor(status / 100)}`}>{status}</span>;
}
