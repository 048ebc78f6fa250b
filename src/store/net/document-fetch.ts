import { maskDocumentUrl, parseDocumentUrl } from '../../core/contract/document-url.js';
import { MockdevError } from '../../core/errors.js';
import { maskCredentialsInText } from '../../core/model/credentials.js';
import {
  CONTRACT_FETCH_TIMEOUT_MS,
  CONTRACT_MAX_BYTES,
  CONTRACT_MAX_REDIRECTS,
} from '../../core/model/contract.js';
import type { DocumentFetcher, FetchDocumentOptions, FetchedDocument } from '../../core/ports.js';
import { notTextReason } from '../../core/text.js';

/**
 * Documents over http(s) (`contract import`, `-s URL`; docs/contract.md): redirects followed up
 * to a limit (each one checked: http(s) only), the whole exchange bounded in time, the body in
 * size (read in chunks and abandoned at the cap, never held whole first). Every failure is one
 * line naming the URL (its secrets masked) and the cause.
 */

const MIB = 1024 * 1024;
const size = (bytes: number): string =>
  bytes >= MIB && bytes % MIB === 0
    ? `${bytes / MIB} MiB`
    : bytes >= 1024
      ? `${Math.round(bytes / 102.4) / 10} KiB`
      : `${bytes} bytes`;
const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

const failure = (code: 'IO_ERROR' | 'INVALID_INPUT', url: string, why: string, hint: string) =>
  new MockdevError(code, `Could not fetch ${maskDocumentUrl(url)}: ${why}`, {
    hint,
    details: { url: maskDocumentUrl(url) },
  });

const timedOut = (url: string, timeoutMs: number) =>
  failure(
    'IO_ERROR',
    url,
    `no answer within ${seconds(timeoutMs)}`,
    'Check the server is up and answers, or save the document and give its file',
  );

const tooLarge = (url: string, maxBytes: number) =>
  failure(
    'INVALID_INPUT',
    url,
    `the document is over ${size(maxBytes)}`,
    'A contract document is at most that large: check the URL names the OpenAPI document',
  );

const isTimeout = (e: unknown): boolean => {
  const name = (e as Error | undefined)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
};

/** Why a request could not be made, in words: the system's error code when there is one. */
function unreachable(e: unknown): string {
  const err = e as Error & { cause?: { code?: string; message?: string } };
  const code = err.cause?.code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name does not resolve';
  if (code === 'ECONNREFUSED') return 'the connection was refused';
  return maskCredentialsInText(code ?? err.cause?.message ?? err.message);
}

/** Reads a body up to `maxBytes`; INVALID_INPUT as soon as it goes over. */
async function readCapped(res: Response, url: string, maxBytes: number): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge(url, maxBytes);
  }
  if (!res.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(url, maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

/** The URL without its user and password (fetch refuses them there; they travel as a header). */
function withoutCredentials(url: URL): URL {
  if (!url.username && !url.password) return url;
  const bare = new URL(url.href);
  bare.username = '';
  bare.password = '';
  return bare;
}

export class HttpDocumentFetcher implements DocumentFetcher {
  async fetch(url: string, options: FetchDocumentOptions = {}): Promise<FetchedDocument> {
    const timeoutMs = options.timeoutMs ?? CONTRACT_FETCH_TIMEOUT_MS;
    const maxBytes = options.maxBytes ?? CONTRACT_MAX_BYTES;
    const maxRedirects = options.maxRedirects ?? CONTRACT_MAX_REDIRECTS;
    // One deadline for the whole exchange: every redirect and the body included.
    const signal = AbortSignal.timeout(timeoutMs);
    let current = parseDocumentUrl(url);
    const origin = current.origin;
    const credentials =
      current.username || current.password
        ? `Basic ${Buffer.from(`${decodeURIComponent(current.username)}:${decodeURIComponent(current.password)}`).toString('base64')}`
        : undefined;
    for (let redirects = 0; ; redirects++) {
      let res: Response;
      try {
        res = await fetch(withoutCredentials(current), {
          redirect: 'manual',
          signal,
          headers: {
            accept: 'application/yaml, application/json;q=0.9, text/*;q=0.8, */*;q=0.5',
            // Credentials in the URL go as Basic authentication, to its own origin only.
            ...(credentials && current.origin === origin ? { authorization: credentials } : {}),
          },
        });
      } catch (e) {
        if (isTimeout(e)) throw timedOut(url, timeoutMs);
        throw failure(
          'IO_ERROR',
          current.href,
          `it could not be reached (${unreachable(e)})`,
          'Check the URL and your network, then try again',
        );
      }
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location !== null) {
        await res.body?.cancel().catch(() => undefined);
        if (redirects >= maxRedirects)
          throw failure(
            'INVALID_INPUT',
            url,
            `more than ${maxRedirects} redirects`,
            'Give the URL the document finally lives at',
          );
        let next: URL;
        try {
          next = parseDocumentUrl(new URL(location, current).href);
        } catch {
          throw failure(
            'INVALID_INPUT',
            url,
            `it redirects to ${maskDocumentUrl(location)}, which is not an http(s) URL`,
            'Give the URL the document finally lives at',
          );
        }
        current = next;
        continue;
      }
      if (res.status < 200 || res.status > 299) {
        await res.body?.cancel().catch(() => undefined);
        throw failure(
          'IO_ERROR',
          current.href,
          `the server answered HTTP ${res.status}`,
          res.status >= 500
            ? 'Try again later'
            : 'Check the URL (and whether the document needs credentials)',
        );
      }
      let bytes: Buffer;
      try {
        bytes = await readCapped(res, current.href, maxBytes);
      } catch (e) {
        if (isTimeout(e)) throw timedOut(url, timeoutMs);
        if (e instanceof MockdevError) throw e;
        throw failure('IO_ERROR', current.href, `the answer broke off (${unreachable(e)})`, 'Try again');
      }
      const reason = notTextReason(bytes);
      if (reason)
        throw failure(
          'INVALID_INPUT',
          current.href,
          `the answer is not text: ${reason}`,
          'Give the URL of an OpenAPI document in JSON or YAML',
        );
      return {
        text: bytes.toString('utf8'),
        url: withoutCredentials(current).href,
        contentType: res.headers.get('content-type') ?? undefined,
      };
    }
  }
}
