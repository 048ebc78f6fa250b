import { Fragment, type ReactNode } from 'react';
import { TableHead } from '../components/table-head';
import {
  bodySteps,
  existingSteps,
  headerName,
  markedJson,
  type PathStep,
  type Spot,
} from '../contract/locate';
import { dateAndTime, formatDuration, headerValue, prettyBody, queryString, timeOfDay } from './format';

/** Parts of a request/response detail, shared by the request log and the recordings. */

export function HeadersTable({
  headers,
  caption,
  marked,
}: {
  headers: Record<string, string>;
  caption: string;
  /** Header names (lower-case) a contract violation points at: their rows are marked. */
  marked?: ReadonlySet<string>;
}) {
  const entries = Object.entries(headers);
  if (entries.length === 0) return <p className="muted">No {caption.toLowerCase()}.</p>;
  return (
    <table className="headers-table">
      <caption>{caption}</caption>
      <TableHead columns={['Name', 'Value']} />
      <tbody>
        {entries.map(([name, value]) => (
          <tr key={name} className={marked?.has(name.toLowerCase()) ? 'marked' : undefined}>
            <th scope="row" className="mono">
              {marked?.has(name.toLowerCase()) ? <mark>{name}</mark> : name}
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
 * scroll it). `note` says when it was cut short or is base64. `marks`: the fields a contract
 * violation points at (body paths), marked in a JSON body (a field it lacks marks its object).
 */
export function BodyView(props: {
  label: string;
  body: string | null | undefined;
  headers: Record<string, string>;
  truncated?: boolean;
  note?: string;
  marks?: PathStep[][];
}) {
  const { text, json } = prettyBody(props.body, headerValue(props.headers, 'content-type'));
  const segments = json && props.marks?.length ? markedBody(text, props.marks) : undefined;
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
          {segments
            ? segments.map((s, i) =>
                s.marked ? <mark key={i}>{s.text}</mark> : <Fragment key={i}>{s.text}</Fragment>,
              )
            : text}
        </pre>
      )}
    </div>
  );
}

/** A JSON body's text (pretty-printed, so it parses) in segments, the fields at `marks` marked. */
function markedBody(text: string, marks: PathStep[][]) {
  const value: unknown = JSON.parse(text);
  return markedJson(
    value,
    marks.map((m) => existingSteps(value, m)),
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

/** One side of an exchange as the detail shows it. */
interface Side {
  headers: Record<string, string>;
  body: string | null | undefined;
  truncated?: boolean;
  note?: string;
}

/**
 * A request and its response one under the other: the request's query, headers and body, then
 * the response's status, headers and body (the request log's detail and the recordings' share it).
 * `spots`: where contract violations point, marked in the headers and JSON bodies.
 */
export function ExchangeView({
  request,
  response,
  spots = [],
}: {
  request: Side & { query: Record<string, string | string[]> };
  response: Side & { status: number };
  spots?: Spot[];
}) {
  return (
    <>
      <h3>Request</h3>
      <QueryLine query={request.query} />
      <SideParts name="Request" side={request} spots={spots.filter((s) => s.in === 'request')} />
      <h3>
        Response <StatusCode status={response.status} />
      </h3>
      <SideParts name="Response" side={response} spots={spots.filter((s) => s.in === 'response')} />
    </>
  );
}

/** One side's headers and body, `name` ("Request", "Response") naming them. */
function SideParts({ name, side, spots }: { name: string; side: Side; spots: Spot[] }) {
  const headers = new Set(spots.map((s) => headerName(s.location)).filter((h) => h !== undefined));
  const marks = spots.map((s) => bodySteps(s.location)).filter((m) => m !== undefined);
  return (
    <>
      <HeadersTable headers={side.headers} caption={`${name} headers`} marked={headers} />
      <BodyView
        label={`${name} body`}
        body={side.body}
        headers={side.headers}
        truncated={side.truncated}
        note={side.note}
        marks={marks}
      />
    </>
  );
}

/**
 * A detail's head: its title (`METHOD /path → status`, with `id` for the pane's name), then its
 * buttons: `children` (more actions) first, Delete, Close.
 */
export function DetailHead(props: {
  id: string;
  method: string;
  path: string;
  status: number;
  onDelete: () => void;
  onClose: () => void;
  children?: ReactNode;
}) {
  return (
    <div className="detail-head">
      <h2 id={props.id}>
        <span className="method">{props.method}</span> <span className="mono">{props.path}</span> →{' '}
        <StatusCode status={props.status} />
      </h2>
      <div className="detail-actions">
        {props.children}
        <button type="button" className="danger-outline" onClick={props.onDelete}>
          Delete
        </button>
        <button type="button" onClick={props.onClose}>
          Close
        </button>
      </div>
    </div>
  );
}

/** The `Time` and `Duration` entries of a detail's facts list. */
export function WhenFacts({ timestamp, durationMs }: { timestamp: string; durationMs: number }) {
  return (
    <>
      <dt>Time</dt>
      <dd>
        <time dateTime={timestamp}>{dateAndTime(timestamp)}</time>
      </dd>
      <dt>Duration</dt>
      <dd>{formatDuration(durationMs)}</dd>
    </>
  );
}

/** The column heads a table of exchanges starts with: time, method, path, status, duration. */
export function ExchangeColumns() {
  return (
    <>
      <th scope="col">Time</th>
      <th scope="col">Method</th>
      <th scope="col">Path</th>
      <th scope="col">Status</th>
      <th scope="col" className="num">
        Duration
      </th>
    </>
  );
}

/**
 * A path that wraps after its slashes (a `<wbr>` after each) before it would break inside a
 * segment: `/inventory/items` wraps as `/inventory/` + `items`, not `/inventory/ite` + `ms`.
 */
function BreakableAtSlashes({ text }: { text: string }) {
  const parts = text.split('/');
  return parts.map((part, i) => (
    <Fragment key={i}>
      {part}
      {i < parts.length - 1 && (
        <>
          /<wbr />
        </>
      )}
    </Fragment>
  ));
}

/** The cells under `ExchangeColumns`; the path is the button that selects the row. */
export function ExchangeCells(props: {
  timestamp: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  selected: boolean;
  onSelect: () => void;
}) {
  return (
    <>
      <td className="mono nowrap">
        <time dateTime={props.timestamp}>{timeOfDay(props.timestamp)}</time>
      </td>
      <td className="method">{props.method}</td>
      <td className="path-cell">
        <button
          type="button"
          className="link-button mono"
          aria-current={props.selected ? 'true' : undefined}
          onClick={props.onSelect}
        >
          <BreakableAtSlashes text={props.path} />
        </button>
      </td>
      <td>
        <StatusCode status={props.status} />
      </td>
      <td className="num nowrap">{formatDuration(props.durationMs)}</td>
    </>
  );
}
