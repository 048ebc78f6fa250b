import { useState } from 'react';
import { enc, put } from '../api/client';
import { Link } from '../components/link';
import { ErrorMessage, useNotify } from '../components/notices';
import { projectPath } from '../router';
import type { ContractInfo } from '../types';

const DIALECTS: Record<ContractInfo['dialect'], string> = {
  '2.0': 'Swagger 2.0',
  '3.0': 'OpenAPI 3.0',
  '3.1': 'OpenAPI 3.1',
};

/** The stored contract: what it is, where it came from, and the live checking switch. */
export function ContractFactsView(props: {
  projectId: string;
  info: ContractInfo;
  onChanged: (info: ContractInfo) => void;
}) {
  const { info } = props;
  const web = /^https?:\/\//i.test(info.source);
  return (
    <>
      <dl className="status" aria-label="The contract">
        <dt>Title</dt>
        <dd>{info.title || <span className="muted">(none)</span>}</dd>
        <dt>Version</dt>
        <dd>{info.version || <span className="muted">(none)</span>}</dd>
        <dt>Format</dt>
        <dd>{DIALECTS[info.dialect]}</dd>
        <dt>Operations</dt>
        <dd>{info.operations.length} (each listed under Coverage)</dd>
        <dt>Source</dt>
        <dd className="contract-source">
          {web ? (
            <a className="mono" href={info.source} target="_blank" rel="noreferrer">
              {info.source}
            </a>
          ) : info.source === 'upload' ? (
            'an uploaded document'
          ) : (
            <code>{info.source}</code>
          )}
        </dd>
        <dt>Imported</dt>
        <dd>
          <time dateTime={info.importedAt}>{new Date(info.importedAt).toLocaleString()}</time>
        </dd>
        <dt>Stored as</dt>
        <dd>
          <code>{info.file}</code> in the project’s folder
        </dd>
      </dl>
      <LiveSwitch {...props} />
    </>
  );
}

/** Live checking on or off (as `mockdev contract live <P> on|off`). */
function LiveSwitch(props: {
  projectId: string;
  info: ContractInfo;
  onChanged: (info: ContractInfo) => void;
}) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  // the switch shows what was asked at once; the answer (or an error) settles it
  const [asked, setAsked] = useState<boolean>();
  const toggle = async (live: boolean) => {
    setAsked(live);
    setBusy(true);
    setError(undefined);
    try {
      const info = await put<ContractInfo>(`/projects/${enc(props.projectId)}/contract/live`, { live });
      notify.info(live ? 'Live checking is on' : 'Live checking is off');
      props.onChanged(info);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
      setAsked(undefined);
    }
  };
  return (
    <div className="contract-live">
      <label className="inline">
        <input
          type="checkbox"
          role="switch"
          checked={asked ?? props.info.live}
          disabled={busy}
          aria-describedby="contract-live-hint"
          onChange={(e) => void toggle(e.target.checked)}
        />
        Check requests live as they are logged
      </label>
      <p id="contract-live-hint" className="hint">
        The project’s mock server checks each request and its response after answering (the answers do not
        change) and stores the verdict with it: the{' '}
        <Link href={projectPath(props.projectId, 'requests', { violations: 'true' })}>request log</Link> marks
        those that break the contract and lists only them with “Contract violations only”. As{' '}
        <code>mockdev serve --contract</code>.
      </p>
      <ErrorMessage error={error} />
    </div>
  );
}
