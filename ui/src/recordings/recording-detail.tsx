import { useState } from 'react';
import { del, enc, post } from '../api/client';
import { useConfirm } from '../components/confirm';
import { Link } from '../components/link';
import { useNotify } from '../components/notices';
import { DetailHead, ExchangeView, WhenFacts } from '../requests/exchange';
import { timeOfDay } from '../requests/format';
import { projectPath } from '../router';
import type { Endpoint, Recording } from '../types';

/** What "To mock" made: a new mock endpoint, or a variation added to one. */
interface Made {
  endpoint: Endpoint;
  variation?: string;
}

const bodyNote = (b: { bodyEncoding: 'utf8' | 'base64'; decodedFrom?: string | null }) =>
  [
    b.bodyEncoding === 'base64' ? 'binary, shown as base64' : '',
    b.decodedFrom ? `decoded from ${b.decodedFrom}` : '',
  ]
    .filter(Boolean)
    .join('; ') || undefined;

/**
 * One recording whole (the request as it came, the response the target gave), "To mock" (as a
 * new endpoint or as a variation of the mock endpoint with its method and path, then a link to
 * what was made) and Delete.
 */
export function RecordingDetail(props: {
  projectId: string;
  recording: Recording;
  onDeleted: () => void;
  onClose: () => void;
}) {
  const r = props.recording;
  const notify = useNotify();
  const confirm = useConfirm();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<Made>();

  const toMock = async (asVariation: boolean) => {
    setBusy(true);
    try {
      const body = { asVariation, ...(name.trim() ? { name: name.trim() } : {}) };
      const endpoint = await post<Endpoint>(`/recordings/${enc(r.id)}/to-mock`, body);
      const variation = asVariation ? endpoint.variations[endpoint.variations.length - 1]?.name : undefined;
      setMade({ endpoint, variation });
      setName('');
    } catch (e) {
      notify.error(e, asVariation ? 'Could not add a variation' : 'Could not create a mock endpoint');
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    const ok = await confirm({
      title: 'Delete this recording?',
      items: [`${r.request.method} ${r.request.path} → ${r.response.status} at ${timeOfDay(r.timestamp)}`],
    });
    if (!ok) return;
    try {
      await del(`/recordings/${enc(r.id)}`);
      notify.info('Recording deleted');
      props.onDeleted();
    } catch (e) {
      notify.error(e, 'Could not delete the recording');
    }
  };

  return (
    <section className="detail-pane" aria-labelledby="recording-detail-title">
      <DetailHead
        id="recording-detail-title"
        method={r.request.method}
        path={r.request.path}
        status={r.response.status}
        onDelete={() => void remove()}
        onClose={props.onClose}
      />
      <dl className="facts">
        <dt>Forwarded to</dt>
        <dd className="mono">{r.target}</dd>
        <WhenFacts timestamp={r.timestamp} durationMs={r.durationMs} />
        <dt>Recording id</dt>
        <dd>
          <code>{r.id}</code>
        </dd>
      </dl>
      <form className="to-mock" aria-label="To mock" onSubmit={(e) => e.preventDefault()}>
        <h3>To mock</h3>
        <p className="muted">
          Answer this request with what was recorded: as a new mock endpoint {r.request.method}{' '}
          {r.request.path}, or as a variation of the mock endpoint with that method and path.
        </p>
        <div className="toolbar">
          <label htmlFor="to-mock-name">
            Name (optional)
            <input id="to-mock-name" value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <button type="button" className="primary" disabled={busy} onClick={() => void toMock(false)}>
            As a new endpoint
          </button>
          <button type="button" disabled={busy} onClick={() => void toMock(true)}>
            As a variation
          </button>
        </div>
        {made && (
          <p className="made" role="status">
            {made.variation ? (
              <>
                Added the variation “{made.variation}” to {made.endpoint.method} {made.endpoint.path}.{' '}
              </>
            ) : (
              <>
                Created the mock endpoint “{made.endpoint.name}”: {made.endpoint.method} {made.endpoint.path}
                .{' '}
              </>
            )}
            <Link href={projectPath(props.projectId, 'endpoints', { edit: made.endpoint.id })}>
              Open it in the endpoints
            </Link>
          </p>
        )}
      </form>
      <ExchangeView
        request={{ ...r.request, note: bodyNote(r.request) }}
        response={{ ...r.response, note: bodyNote(r.response) }}
      />
    </section>
  );
}
