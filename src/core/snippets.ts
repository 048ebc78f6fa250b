import type { Endpoint } from './model/endpoint.js';
import { parseSegment, splitPath, WILDCARD_PARAM } from './match/router.js';
import type { SnippetLanguage } from './snippet-languages.js';

/**
 * "Copy as code": the texts that call an endpoint on its server, in four languages. Pure: the
 * endpoint and the server's base URL in, the snippets out (the admin API answers them, the CLI's
 * `endpoint code` prints one). Each one runs as it is: the shell with curl, Node 18+ (global
 * fetch), axios, and Python 3 with the standard library only.
 */

export { SNIPPET_LANGUAGES, type SnippetLanguage } from './snippet-languages.js';
export type Snippets = Record<SnippetLanguage, string>;

/** What a snippet sends: method, full URL, headers and body (null: none). */
export interface SnippetRequest {
  method: string;
  url: string;
  headers: [string, string][];
  body: string | null;
}

/** Methods whose requests carry a body. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
/** Headers a client sets itself: a snippet leaves them out. */
const CLIENT_HEADERS = new Set([
  'host',
  'content-length',
  'connection',
  'accept-encoding',
  'transfer-encoding',
]);

/**
 * The example value of a path parameter: the OpenAPI example the import kept, else `1` for a
 * name ending in "id" (`id`, `userId`, `user_id`), else `example`.
 */
export function exampleParamValue(endpoint: Pick<Endpoint, 'openapi'>, name: string): string {
  const param = endpoint.openapi?.parameters?.find((p) => p.in === 'path' && p.name === name);
  const example = param?.example ?? param?.schema?.example;
  if (example !== undefined && example !== null && typeof example !== 'object') return String(example);
  if (name === WILDCARD_PARAM) return 'example';
  return /id$/i.test(name) ? '1' : 'example';
}

/** The endpoint's path with every parameter (and a proxy's final `*`) replaced by an example. */
export function examplePath(endpoint: Pick<Endpoint, 'path' | 'openapi'>): string {
  const segments = splitPath(endpoint.path).map((segment) =>
    segment === WILDCARD_PARAM
      ? 'example'
      : parseSegment(segment)
          .map((piece) =>
            'param' in piece ? encodeURIComponent(exampleParamValue(endpoint, piece.param)) : piece.lit,
          )
          .join(''),
  );
  return `/${segments.join('/')}`;
}

function queryString(query: Record<string, string | string[]>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    for (const v of Array.isArray(value) ? value : [value]) search.append(key, v);
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** What the snippets send for an endpoint on the server at `baseUrl` (no trailing slash needed). */
export function snippetRequest(endpoint: Endpoint, baseUrl: string): SnippetRequest {
  const captured = endpoint.request;
  const url = `${baseUrl.replace(/\/+$/, '')}${examplePath(endpoint)}${queryString(captured?.query ?? {})}`;
  const headers = Object.entries(captured?.headers ?? {}).filter(
    ([name]) => !CLIENT_HEADERS.has(name.toLowerCase()),
  );
  let body = captured?.body ?? null;
  if (body === null && BODY_METHODS.has(endpoint.method)) body = '{}';
  if (body !== null && !headers.some(([name]) => name.toLowerCase() === 'content-type'))
    headers.push(['Content-Type', 'application/json']);
  return { method: endpoint.method, url, headers, body };
}

/** A POSIX shell word: single quotes, a quote inside written `'\''`. */
export const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** A JavaScript or Python string literal (JSON's escapes are valid in both). */
export const stringLiteral = (s: string): string => JSON.stringify(s);

function curlSnippet(r: SnippetRequest): string {
  const lines = [
    r.method === 'HEAD'
      ? `curl --head ${shellQuote(r.url)}`
      : r.method === 'GET'
        ? `curl ${shellQuote(r.url)}`
        : `curl -X ${r.method} ${shellQuote(r.url)}`,
  ];
  for (const [name, value] of r.headers) lines.push(`  -H ${shellQuote(`${name}: ${value}`)}`);
  if (r.body !== null) lines.push(`  --data-raw ${shellQuote(r.body)}`);
  return `${lines.join(' \\\n')}\n`;
}

/** The lines of an object literal's entries, indented: `"Name": "value",`. */
const entries = (pairs: [string, string][], indent: string, sep: string): string[] =>
  pairs.map(([k, v]) => `${indent}${stringLiteral(k)}${sep}${stringLiteral(v)},`);

function fetchSnippet(r: SnippetRequest): string {
  const options = [`  method: ${stringLiteral(r.method)},`];
  if (r.headers.length) options.push('  headers: {', ...entries(r.headers, '    ', ': '), '  },');
  if (r.body !== null) options.push(`  body: ${stringLiteral(r.body)},`);
  return [
    `const response = await fetch(${stringLiteral(r.url)}, {`,
    ...options,
    '});',
    'console.log(response.status);',
    'console.log(await response.text());',
    '',
  ].join('\n');
}

function axiosSnippet(r: SnippetRequest): string {
  const options = [`  method: ${stringLiteral(r.method.toLowerCase())},`, `  url: ${stringLiteral(r.url)},`];
  if (r.headers.length) options.push('  headers: {', ...entries(r.headers, '    ', ': '), '  },');
  if (r.body !== null) options.push(`  data: ${stringLiteral(r.body)},`);
  // Every status is an answer to show, not an exception (a mock often answers 404 or 500 on purpose).
  options.push('  validateStatus: () => true,');
  return [
    "import axios from 'axios';",
    '',
    'const response = await axios({',
    ...options,
    '});',
    'console.log(response.status);',
    'console.log(response.data);',
    '',
  ].join('\n');
}

function pythonSnippet(r: SnippetRequest): string {
  const args = [`    ${stringLiteral(r.url)},`, `    method=${stringLiteral(r.method)},`];
  if (r.headers.length) args.push('    headers={', ...entries(r.headers, '        ', ': '), '    },');
  if (r.body !== null) args.push(`    data=${stringLiteral(r.body)}.encode("utf-8"),`);
  return [
    'import urllib.error',
    'import urllib.request',
    '',
    'request = urllib.request.Request(',
    ...args,
    ')',
    'try:',
    '    with urllib.request.urlopen(request) as response:',
    '        print(response.status)',
    '        print(response.read().decode("utf-8"))',
    'except urllib.error.HTTPError as error:',
    '    print(error.code)',
    '    print(error.read().decode("utf-8"))',
    '',
  ].join('\n');
}

/** The four snippets that call `endpoint` on the server at `baseUrl`. */
export function buildSnippets(endpoint: Endpoint, baseUrl: string): Snippets {
  const r = snippetRequest(endpoint, baseUrl);
  return { curl: curlSnippet(r), fetch: fetchSnippet(r), axios: axiosSnippet(r), python: pythonSnippet(r) };
}
