import { Link } from '../components/link';
import { projectPath } from '../router';
import { useShared } from '../state';
import type { RequestRecord } from '../types';
import { BodyView, HeadersTable, QueryLine, StatusCode } from './exchange';
import { formatDuration } from './format';

/** One logged request whole: the request, the response, when and how long, star and delete. */
export function RequestDetail(props: {
  projectId: string;
  record: RequestRecord;
  onStar: (starred: boolean) => void;
  onDelete: () => void;
  onClose: () => void;
}) {
  const r = props.record;
  const limit = useShared().settings?.requestBodyLimitBytes;
  // the record says one of its bodies was cut: the one as long as the limit
  const cut = (body: string) =>
    r.truncated && (limit === undefined || new TextEncoder().encode(body).length >= limit);
  return (
    <section className="detail-pane" aria-labelledby="request-detail-title">
      <div className="detail-head">
        <h2 id="request-detail-title">
          <span className="method">{r.method}</span> <span className="mono">{r.path}</span> →{' '}
          <StatusCode status={r.status} />
        </h2>
        <div className="detail-actions">
          <button type="button" aria-pressed={r.starred} onClick={() => props.onStar(!r.starred)}>
            {r.starred ? '★ Starred' : '☆ Star'}
          </button>
          <button type="button" className="danger-outline" onClick={props.onDelete}>
            Delete
          </button>
          <button type="button" onClick={props.onClose}>
            Close
          </button>
        </div>
      </div>
      <dl className="facts">
        <dt>Time</dt>
        <dd>
          <time dateTime={r.timestamp}>{new Date(r.timestamp).toLocaleString()}</time>
        </dd>
        <dt>Duration</dt>
        <dd>{formatDuration(r.durationMs)}</dd>
        <dt>Endpoint</dt>
        <dd>
          {r.endpointId ? (
            <Link href={projectPath(props.projectId, 'endpoints', { edit: r.endpointId })}>
              Open the endpoint
            </Link>
          ) : (
            'none matched'
          )}
        </dd>
        <dt>Request id</dt>
        <dd>
          <code>{r.id}</code>
        </dd>
        {r.truncated && (
          <>
            <dt>Truncated</dt>
            <dd>A body was longer than the body limit (settings) and is stored cut short.</dd>
          </>
        )}
      </dl>
      <h3>Request</h3>
      <QueryLine query={r.query} />
      <HeadersTable headers={r.headers} caption="Request headers" />
      <BodyView label="Request body" body={r.body} headers={r.headers} truncated={cut(r.body)} />
      <h3>
        Response <StatusCode status={r.response.status} />
      </h3>
      <HeadersTable headers={r.response.headers} caption="Response headers" />
      <BodyView
        label="Response body"
        body={r.response.body}
        headers={r.response.headers}
        truncated={cut(r.response.body)}
      />
    </section>
  );
}
