import { enc } from '../api/client';
import { useData } from '../api/use-data';
import { Link } from '../components/link';
import type { Spot } from '../contract/locate';
import { ContractFacts, spotsOf } from '../contract/verdict';
import { projectPath } from '../router';
import { useShared } from '../state';
import type { RequestRecord, ResourceView } from '../types';
import { DetailHead, ExchangeView, WhenFacts } from './exchange';

/**
 * One logged request whole: the request, the response, when and how long, star and delete; its
 * contract violations marked where they are (`spot`: one a link from the Contract screen names).
 */
export function RequestDetail(props: {
  projectId: string;
  record: RequestRecord;
  spot?: Spot;
  onStar: (starred: boolean) => void;
  onDelete: () => void;
  onClose: () => void;
}) {
  const r = props.record;
  const limit = useShared().settings?.requestBodyLimitBytes;
  // A resource's request is logged under the resource's id (docs/resources.md "At run time").
  const resources = useData<ResourceView[]>(`/projects/${enc(props.projectId)}/resources`);
  const resource = resources.data?.find((x) => x.id === r.endpointId);
  // the record says one of its bodies was cut: the one as long as the limit
  const cut = (body: string) =>
    r.truncated && (limit === undefined || new TextEncoder().encode(body).length >= limit);
  return (
    <section className="detail-pane" aria-labelledby="request-detail-title">
      <DetailHead
        id="request-detail-title"
        method={r.method}
        path={r.path}
        status={r.status}
        onDelete={props.onDelete}
        onClose={props.onClose}
      >
        <button type="button" aria-pressed={r.starred} onClick={() => props.onStar(!r.starred)}>
          {r.starred ? '★ Starred' : '☆ Star'}
        </button>
      </DetailHead>
      <dl className="facts">
        <WhenFacts timestamp={r.timestamp} durationMs={r.durationMs} />
        <dt>Endpoint</dt>
        <dd>
          {resource ? (
            <Link href={projectPath(props.projectId, 'resources', { edit: resource.id })}>
              Open the resource {resource.name}
            </Link>
          ) : r.endpointId ? (
            <Link href={projectPath(props.projectId, 'endpoints', { edit: r.endpointId })}>
              Open the endpoint
            </Link>
          ) : (
            <>
              none matched:{' '}
              <Link href={projectPath(props.projectId, 'endpoints', { new: r.path, method: r.method })}>
                Add an endpoint for it
              </Link>
            </>
          )}
        </dd>
        <dt>Answered by</dt>
        <dd>
          {resource ? (
            <>
              the resource <strong>{resource.name}</strong> (<code>{resource.path}</code>)
            </>
          ) : r.variation ? (
            <>
              variation <strong>{r.variation.name}</strong> (<code>{r.variation.id}</code>)
            </>
          ) : r.endpointId ? (
            'the endpoint itself (no variation)'
          ) : (
            'mockdev (no endpoint matched)'
          )}
        </dd>
        {r.delayMs !== undefined && (
          <>
            <dt>Delay</dt>
            <dd>held back {r.delayMs} ms before answering (the delay as sampled)</dd>
          </>
        )}
        {r.fault !== undefined && (
          <>
            <dt>Fault</dt>
            <dd>
              <code>{r.fault}</code> — {faultWords(r.fault)}
            </dd>
          </>
        )}
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
        <ContractFacts record={r} spot={props.spot} />
      </dl>
      <ExchangeView
        request={{ ...r, truncated: cut(r.body) }}
        response={{ ...r.response, truncated: cut(r.response.body) }}
        spots={spotsOf(r, props.spot)}
      />
    </section>
  );
}

/** What a fault did to the answer, in words (docs/faults.md). */
function faultWords(fault: string): string {
  if (fault === 'reset') return 'the connection was reset without an answer';
  if (fault === 'empty') return 'the connection was closed without an answer';
  if (fault === 'garbage') return 'random bytes that are not HTTP were sent, then the connection closed';
  const drip = /^drip:(\d+)$/.exec(fault);
  if (drip) return `the answer was sent slowly, ${drip[1]} bytes per second`;
  return 'a fault';
}
