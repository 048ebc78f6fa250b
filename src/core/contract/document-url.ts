import { MockdevError } from '../errors.js';
import { SECRET_MASK } from '../model/credentials.js';

/**
 * The URL of a contract document (`contract import URL`, `-s URL`): checked (http or https
 * only), and shown with what may be a secret masked: a password in it, and the values of query
 * parameters named like credentials (`?token=…`, `?api_key=…`). Messages, project.json's
 * `source` and reports carry the shown form, never the secret.
 */

/** Query parameters whose value is taken for a credential. */
const SECRET_PARAM = /(token|key|secret|password|passwd|pwd|auth|sig|signature|credential|session)/i;

/** Whether a `spec` names a document over the network rather than a file. */
export const isDocumentUrl = (spec: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(spec.trim());

/** The URL parsed; INVALID_ARGUMENT when it is not an http(s) URL. */
export function parseDocumentUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new MockdevError('INVALID_ARGUMENT', `Invalid URL ${maskDocumentUrl(url)}`, {
      hint: 'Give an http or https URL, such as https://example.com/openapi.yaml',
    });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Cannot fetch ${maskDocumentUrl(url)}: only http and https URLs are fetched`,
      { hint: 'Give an http or https URL, or save the document and give its file' },
    );
  }
  return parsed;
}

/** The URL as messages and records show it: its password and credential-like query values masked. */
export function maskDocumentUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    // Not a URL: mask what looks like `user:password@` all the same.
    return url.replace(/(\/\/[^/?#@\s:]*):[^/?#@\s]*@/g, `$1:${SECRET_MASK}@`);
  }
  if (parsed.password) parsed.password = SECRET_MASK;
  const params = [...parsed.searchParams.keys()];
  if (params.some((name) => SECRET_PARAM.test(name))) {
    const masked = new URLSearchParams();
    for (const [name, value] of parsed.searchParams)
      masked.append(name, SECRET_PARAM.test(name) && value ? SECRET_MASK : value);
    parsed.search = masked.toString();
  }
  return parsed.href;
}
