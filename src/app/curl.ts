import { MockdevError } from '../core/errors.js';
import {
  maskCredentialHeaders,
  maskCredentialQuery,
  maskCredentialsInText,
  secretsOf,
} from '../core/model/credentials.js';
import type { Auth, CapturedRequest, Endpoint, EndpointInput } from '../core/model/endpoint.js';
import { HTTP_METHODS, PathSchema } from '../core/model/fields.js';
import { keepTextLiteral } from '../core/model/imported-text.js';
import { suggestEndpointName, uniqueName } from '../core/naming.js';
import { parseCurl, type ParsedCurl } from '../formats/curl/index.js';
import type { AppContext } from './context.js';
import { addEndpoint } from './endpoints.js';
import { resolveProject, type ResolveOptions } from './projects.js';

/** The DECISIONS "cURL preview" shape: what was parsed, plus the endpoint name an import would use. */
export type CurlPreview = { name: string } & Omit<ParsedCurl, 'dialect' | 'multipart'>;

/** Line and column (from 1) of an offset in a text. */
function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, offset));
  return { line: before.split('\n').length, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

/**
 * Parses a cURL command; an error that points at a place in it (details.offset) also says the
 * line and column there (details.line, details.column), for callers that show them apart.
 */
function parseLocated(text: string): ParsedCurl {
  try {
    return parseCurl(text);
  } catch (e) {
    const offset = e instanceof MockdevError ? e.details?.offset : undefined;
    if (!(e instanceof MockdevError) || typeof offset !== 'number') throw e;
    throw new MockdevError(e.code, e.message, {
      hint: e.hint,
      details: { ...e.details, ...positionOf(text, offset) },
      cause: e.cause,
    });
  }
}

const toPreview = (p: ParsedCurl): CurlPreview => ({
  name: suggestEndpointName(p.method, p.path),
  method: p.method,
  url: p.url,
  path: p.path,
  query: p.query,
  headers: p.headers,
  body: p.body,
  auth: p.auth,
  warnings: p.warnings,
});

/**
 * Parses a cURL command and says what an import would capture; creates nothing. The name is
 * the one given, else generated from the path; with a project, made unique in it as an import
 * would.
 */
export async function previewCurl(
  ctx: AppContext,
  text: string,
  opts: { projectRef?: string; name?: string } = {},
  options?: ResolveOptions,
): Promise<CurlPreview> {
  const preview = toPreview(parseLocated(text));
  if (opts.name !== undefined) preview.name = opts.name;
  if (opts.projectRef !== undefined) {
    const stored = await resolveProject(ctx, opts.projectRef, options);
    preview.name = uniqueName(
      preview.name,
      stored.endpoints.map((e) => e.name),
    );
  }
  return preview;
}

const isJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** The endpoint a cURL command becomes: status 200, the JSON request body echoed (POST/PUT/PATCH). */
export function endpointFromCurl(parsed: ParsedCurl, name?: string): EndpointInput {
  if (!(HTTP_METHODS as readonly string[]).includes(parsed.method)) {
    throw new MockdevError(
      'INVALID_INPUT',
      `The cURL command uses the method "${parsed.method}", which mockdev cannot serve`,
      {
        hint: `Change -X to one of ${HTTP_METHODS.join(', ')}`,
      },
    );
  }
  const path = PathSchema.safeParse(parsed.path);
  if (!path.success) {
    throw new MockdevError(
      'INVALID_INPUT',
      `The URL path "${parsed.path}" ${path.error.issues[0]!.message}`,
      {
        hint: 'Percent-encode spaces in the URL (%20)',
      },
    );
  }
  const echo =
    ['POST', 'PUT', 'PATCH'].includes(parsed.method) &&
    parsed.body !== null &&
    parsed.body.trim() !== '' &&
    isJson(parsed.body);
  return {
    name: name ?? suggestEndpointName(parsed.method, parsed.path),
    method: parsed.method,
    path: path.data,
    status: 200,
    body: echo ? parsed.body! : '',
    contentType: 'application/json',
    request: capturedRequest(parsed),
  };
}

/** The kind of credential and the user name, without the password or token (SPEC 5.4). */
const capturedAuth = (auth: Auth | null): CapturedRequest['auth'] =>
  auth === null
    ? null
    : auth.type === 'basic'
      ? { type: 'basic', username: auth.username }
      : { type: 'bearer' };

/**
 * What an endpoint keeps of the request for reference: headers, query and body, with the
 * credential's secret masked wherever it appears in a header or query value and dropped from
 * the auth (docs/decisions.md "Credentials from cURL"). The body is kept as sent.
 */
export function capturedRequest(parsed: ParsedCurl): CapturedRequest {
  const secrets = secretsOf(parsed.auth);
  return {
    headers: maskCredentialHeaders(parsed.headers, secrets),
    query: maskCredentialQuery(parsed.query, secrets),
    body: parsed.body,
    auth: capturedAuth(parsed.auth),
  };
}

/**
 * Creates an endpoint in a project from a cURL command. The name is generated from the path
 * (made unique in the project) unless one is given. The body the command sent is data: when it
 * holds `{{` it is sent as written (`literal` says so) unless `templates` is asked for.
 */
export async function importCurl(
  ctx: AppContext,
  projectRef: string,
  text: string,
  opts: { name?: string; templates?: boolean } = {},
  options?: ResolveOptions,
): Promise<{ endpoint: Endpoint; warnings: string[]; literal: string[] }> {
  const parsed = parseLocated(text);
  const input = endpointFromCurl(parsed, opts.name);
  const { input: kept, literal } = opts.templates ? { input, literal: [] } : keepTextLiteral(input);
  const endpoint = await addEndpoint(ctx, projectRef, kept, options);
  // The warnings quote the command: outside the preview, they show no secret either.
  const secrets = secretsOf(parsed.auth);
  return { endpoint, warnings: parsed.warnings.map((w) => maskCredentialsInText(w, secrets)), literal };
}
