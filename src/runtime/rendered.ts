import { statusTextProblem } from '../core/model/fields.js';
import { OutputLimitError, RENDER_OUTPUT_MAX } from '../core/templates/engine.js';
import { hasMarks, maskMarks, stripMarks } from '../core/templates/marks.js';
import { buildAnswer, type Answer } from './answer.js';

/**
 * What a render gives, made into an answer: the status text checked, the body within the render
 * limit, and for a render that tracked secrets (core/templates/marks.ts) the client's answer with
 * the marks dropped and the log's copy with every marked span masked.
 */

/**
 * A rendered status text as sent: empty means the standard reason phrase; one that cannot be
 * sent (a line break from the request, say) is a template error, never a split response. The
 * error quotes `shown` (the text as the log may see it).
 */
export function renderedStatusText(text: string, shown = text): string | undefined {
  if (text === '') return undefined;
  const problem = statusTextProblem(text);
  if (problem)
    throw new Error(`the status text rendered to ${JSON.stringify(shown.slice(0, 60))}, which ${problem}`);
  return text;
}

/** A rendered body's bytes; beyond RENDER_OUTPUT_MAX an OutputLimitError (the answer is 500). */
export function renderedBytes(body: string): Buffer {
  const bytes = Buffer.from(body, 'utf8');
  if (bytes.length > RENDER_OUTPUT_MAX) throw new OutputLimitError();
  return bytes;
}

/** An error of a render that tracked secrets, with what it quotes of them masked. */
export function maskedError(error: unknown): unknown {
  if (!(error instanceof Error) || !hasMarks(error.message)) return error;
  return new Error(maskMarks(error.message));
}

/** The rendered texts of a response, marked where they derive from a secret. */
export interface MarkedResponse {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: string;
  contentType?: string;
}

/**
 * The answer of a render that tracked secrets: the client gets the texts without their marks;
 * the log keeps the same response with each secret-derived part as `********` (and the
 * Content-Length the client was sent).
 */
export function trackedAnswer(r: MarkedResponse, bodyLimitBytes: number): Answer {
  const headers: Record<string, string> = {};
  const logHeaders: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.headers)) {
    headers[k] = stripMarks(v);
    logHeaders[k] = maskMarks(v);
  }
  const statusText = renderedStatusText(stripMarks(r.statusText), maskMarks(r.statusText));
  const base = { status: r.status, statusText, contentType: r.contentType };
  const answer = buildAnswer(
    { ...base, headers, body: renderedBytes(stripMarks(r.body)) },
    bodyLimitBytes,
    false,
  );
  const log = buildAnswer({ ...base, headers: logHeaders, body: maskMarks(r.body) }, bodyLimitBytes, false);
  let headersJson = log.logged.headersJson;
  const length = answer.headers.indexOf('Content-Length');
  if (length !== -1) {
    const logged = JSON.parse(headersJson) as Record<string, string>;
    logged['Content-Length'] = answer.headers[length + 1]!;
    headersJson = JSON.stringify(logged);
  }
  return {
    ...answer,
    logged: { ...log.logged, headersJson },
    loggedHead: { ...log.loggedHead, headersJson },
  };
}
