/**
 * Credentials a cURL command carries (SPEC 5.4: recognised, reported only in the preview). What
 * mockdev stores, prints or returns keeps the kind of credential and the user name, never the
 * password or token: docs/decisions.md "Credentials from cURL".
 */

/** What is written in place of a secret. */
export const SECRET_MASK = '********';

/** Headers whose value is a credential as a whole. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization']);

/** A secret shorter than this is not looked for in other values (it would match by chance). */
const MIN_SEARCHED_SECRET = 4;

/** The credential a cURL command carries, as the preview reports it. */
export type Credential =
  { type: 'basic'; username: string; password: string } | { type: 'bearer'; token: string };

/** Base64 of a text's UTF-8 bytes (with the globals Node and browsers share, so the core needs no Buffer). */
function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The secret of a credential in every form it travels in: Basic's password and base64 of user:password. */
export function secretsOf(credential: Credential | null | undefined): string[] {
  if (!credential) return [];
  if (credential.type === 'bearer') return credential.token ? [credential.token] : [];
  if (!credential.password) return [];
  const encoded = base64Utf8(`${credential.username}:${credential.password}`);
  return [credential.password, encoded, encoded.replace(/=+$/, '')];
}

/** "Bearer abc" -> "Bearer ********", "abc" -> "********": the scheme stays, the secret goes. */
export function maskCredentialValue(value: string): string {
  const scheme = /^\s*([A-Za-z][A-Za-z0-9._~+-]*)\s+\S/.exec(value);
  return scheme ? `${scheme[1]} ${SECRET_MASK}` : SECRET_MASK;
}

const carries = (value: string, secrets: string[]): boolean =>
  secrets.some((s) => s.length >= MIN_SEARCHED_SECRET && value.includes(s));

/**
 * Headers with their credentials masked: Authorization and Proxy-Authorization always, any
 * other header whose value holds one of `secrets`. Masking twice gives the same result.
 */
export function maskCredentialHeaders(
  headers: Record<string, string>,
  secrets: string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (CREDENTIAL_HEADERS.has(name.toLowerCase())) out[name] = maskCredentialValue(value);
    else out[name] = carries(value, secrets) ? SECRET_MASK : value;
  }
  return out;
}

/** Query parameters with any value that holds one of `secrets` masked. */
export function maskCredentialQuery(
  query: Record<string, string | string[]>,
  secrets: string[],
): Record<string, string | string[]> {
  const mask = (v: string) => (carries(v, secrets) ? SECRET_MASK : v);
  return Object.fromEntries(
    Object.entries(query).map(([k, v]) => [k, Array.isArray(v) ? v.map(mask) : mask(v)]),
  );
}

/**
 * Text quoted from a pasted command (an error message, a warning) with the credentials it may
 * hold masked: what follows a Basic or Bearer scheme, a password in a URL, and `secrets`.
 */
export function maskCredentialsInText(text: string, secrets: string[] = []): string {
  let out = text
    .replace(
      /\b(Bearer|Basic)(\s+)[^\s'"^]+/gi,
      (_, scheme: string, space: string) => `${scheme}${space}${SECRET_MASK}`,
    )
    .replace(/(\/\/[^/?#@\s:'"]*):[^/?#@\s'"]*@/g, `$1:${SECRET_MASK}@`);
  for (const s of secrets) if (s.length >= MIN_SEARCHED_SECRET) out = out.split(s).join(SECRET_MASK);
  return out;
}
