import { splitPath } from '../../core/match/router.js';
import type { LoggedResponse } from '../../core/ports.js';
import { markSecrets, registerOriginal } from '../../core/templates/marks.js';
import { parseCookies, RequestPath } from '../../core/templates/request-path.js';
import { VALUE_LISTS } from '../../core/templates/engine.js';
import { parseQueryLists } from '../wiremock-request.js';

/**
 * What a run keeps of the requests and answers its templates read (docs/flows.md, "At run time"), and
 * the context a callback template renders with: `params`, `query`, `headers`, `body` of the
 * triggering request, `response` (the response sent), `env`, `tunnel.url`, `run.id` and
 * `steps.<label-or-id>` (each completed step's answer). Bodies are kept up to RUN_BODY_KEPT_BYTES:
 * a run may last hours, and a callback's answer may be large.
 */

/** The most of a body a run keeps for its templates (64 KiB); a longer one is kept cut, as text. */
export const RUN_BODY_KEPT_BYTES = 64 * 1024;

/** A body as a run keeps it: read as JSON when it is JSON (parsed once, when first read), else as text. */
export class KeptBody {
  readonly bytes: Buffer | null;
  readonly cut: boolean;
  #value: unknown;
  #read = false;
  constructor(body: Buffer | string | null) {
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    this.cut = bytes !== null && bytes.length > RUN_BODY_KEPT_BYTES;
    // A copy of what is kept, so the run does not hold a larger buffer it was cut from.
    this.bytes =
      bytes === null ? null : this.cut ? Buffer.from(bytes.subarray(0, RUN_BODY_KEPT_BYTES)) : bytes;
  }
  get text(): string {
    return this.bytes === null ? '' : this.bytes.toString('utf8');
  }
  /** JSON when it parses (and was not cut), else the text. */
  get value(): unknown {
    if (!this.#read) {
      this.#read = true;
      this.#value = this.text;
      if (!this.cut && this.bytes !== null && this.bytes.length > 0)
        try {
          this.#value = JSON.parse(this.#value as string) as unknown;
        } catch {
          // text
        }
    }
    return this.#value;
  }
}

/** Header names lower-cased and as sent (the first value of a repeated one). */
export function headerObject(pairs: Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of pairs) {
    const lower = k.toLowerCase();
    if (!Object.prototype.hasOwnProperty.call(out, lower)) {
      out[lower] = v;
      out[k] = v;
    }
  }
  return out;
}

/** The triggering request, as a run keeps it. */
export interface RequestSnapshot {
  method: string;
  url: string;
  path: string;
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: KeptBody;
}

/** An answer a run keeps: the response sent, or a step's (a callback's answer, the response it sent). */
export interface AnswerSnapshot {
  status: number;
  headers: Record<string, string>;
  body: KeptBody;
}

/** The response the request log recorded (secrets already masked there). */
export function loggedAnswer(status: number, logged: LoggedResponse): AnswerSnapshot {
  let headers: Record<string, string> = {};
  try {
    headers = headerObject(Object.entries(JSON.parse(logged.headersJson) as Record<string, string>));
  } catch {
    // none
  }
  return { status, headers, body: new KeptBody(logged.body) };
}

const answerView = (a: AnswerSnapshot | undefined) =>
  a === undefined
    ? { status: '', headers: {}, body: '' }
    : { status: a.status, headers: a.headers, body: a.body.value };

/** What a callback template renders with. */
export interface CallbackContextInput {
  runId: string;
  request: RequestSnapshot | null;
  response: AnswerSnapshot | undefined;
  /** Completed steps' answers, by label (or id when it has none). */
  steps: Map<string, AnswerSnapshot>;
  env: Record<string, string>;
  /** Secret values among `env`: marked for templates that track them. */
  secrets: readonly string[];
  tunnelUrl: string;
}

/**
 * The context of a callback's templates: plain own properties (a template reaches nothing else),
 * the request's names as the response templates have them (`params`, `query`, `headers`, `body`,
 * `bodyRaw`, `method`, `path`, `request.*`), empty ones without a triggering request.
 */
export function callbackContext(input: CallbackContextInput): Record<string, unknown> {
  const r = input.request;
  const steps: Record<string, unknown> = {};
  for (const [name, answer] of input.steps) steps[name] = answerView(answer);
  const path = r?.path ?? '';
  const request = {
    url: r?.url ?? '',
    path: new RequestPath(path, r ? splitPath(path) : []),
    pathSegments: r ? splitPath(path) : [],
    method: r?.method ?? '',
    query: r?.query ?? {},
    headers: r?.headers ?? {},
    // All the values of each query parameter and header (request.query.x.[1], syntax.ts).
    [VALUE_LISTS.query]: parseQueryLists(r?.url ?? ''),
    [VALUE_LISTS.headers]: Object.fromEntries(
      Object.entries(r?.headers ?? {})
        .filter(([k]) => k === k.toLowerCase())
        .map(([k, v]) => [k, [v]]),
    ),
    cookies: parseCookies(r?.headers.cookie ?? ''),
    body: r?.body.text ?? '',
  };
  const context = {
    method: request.method,
    path,
    params: r?.params ?? {},
    query: request.query,
    headers: request.headers,
    body: r ? r.body.value : '',
    bodyRaw: request.body,
    request,
    response: answerView(input.response),
    env: input.env,
    tunnel: { url: input.tunnelUrl },
    run: { id: input.runId },
    steps,
  };
  if (input.secrets.length === 0) return context;
  // Secrets marked in `env`: a helper given the whole context gets it with the plain values.
  const marked = { ...context, env: markSecrets(input.env, input.secrets) };
  registerOriginal(marked, context);
  return marked;
}
