/**
 * The license service's configuration, from environment variables (docs/license.md, "Deploying
 * the license service"). A missing or malformed one stops the service with one line naming the
 * variable (INVALID_ARGUMENT, exit 2); no message quotes a value that may be a secret (the
 * signing key, SMTP_URL and its password).
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { MockdevError } from '../core/errors.js';

export type Env = Record<string, string | undefined>;

export interface ServiceConfig {
  port: number;
  host: string;
  /** The SQLite file of licenses, activations and trials. */
  dbPath: string;
  signingKey: KeyObject;
  smtpUrl: string;
  smtpFrom: string;
  /** The base URL of confirmation links; unset: the address the service listens on. */
  publicUrl: string | undefined;
  /** The least time between two e-mails to one address, in seconds. */
  mailIntervalSeconds: number;
}

export const DEFAULT_PORT = 8080;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_MAIL_INTERVAL_SECONDS = 60;

const invalid = (message: string, hint: string) => new MockdevError('INVALID_ARGUMENT', message, { hint });

const value = (env: Env, name: string): string | undefined => {
  const v = env[name]?.trim();
  return v ? v : undefined;
};

/** The variables the service cannot start without, named together when missing. */
function required(env: Env, names: string[]): void {
  const missing = names.filter((n) => value(env, n) === undefined);
  if (missing.length > 0) {
    throw invalid(
      `The license service needs ${missing.join(', ')}, and ${missing.length === 1 ? 'it is' : 'they are'} not set`,
      'Set them as docs/license.md ("Deploying the license service") shows',
    );
  }
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) {
    throw invalid(
      `${name} must be a whole number from ${min} to ${max}`,
      `Set ${name}=${fallback}, or unset it`,
    );
  }
  return n;
}

/** An http(s) URL without its trailing slash, or INVALID_ARGUMENT naming the variable. */
function httpUrl(env: Env, name: string): string | undefined {
  const raw = value(env, name);
  if (raw === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw invalid(
      `${name} is not an http(s) URL`,
      `Set it to the address people open, e.g. https://licenses.example.com`,
    );
  }
  return raw.replace(/\/+$/, '');
}

/** SMTP_URL: smtp:// or smtps://, checked without ever quoting it (it may hold a password). */
function smtpUrl(env: Env): string {
  const raw = value(env, 'SMTP_URL')!;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
    throw invalid(
      'SMTP_URL is not an smtp:// or smtps:// URL with a host',
      'Set it like smtps://user:password@smtp.example.com:465',
    );
  }
  return raw;
}

/** SMTP_URL as it may be shown: its scheme, host and port, never its user or password. */
export function describeSmtpUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}`;
  } catch {
    return 'SMTP_URL';
  }
}

/**
 * The signing key: LICENSE_SIGNING_KEY_FILE (a file holding an Ed25519 private key, PKCS#8 PEM)
 * or LICENSE_SIGNING_KEY (the PEM itself; literal `\n` read as line breaks). `warn` hears about
 * a key file that others may read.
 */
export function loadSigningKey(env: Env, warn: (line: string) => void = () => undefined): KeyObject {
  const file = value(env, 'LICENSE_SIGNING_KEY_FILE');
  const inline = value(env, 'LICENSE_SIGNING_KEY');
  if (file && inline) {
    throw invalid(
      'Both LICENSE_SIGNING_KEY_FILE and LICENSE_SIGNING_KEY are set',
      'Set only one of them (the file is the safer: the environment shows in more places)',
    );
  }
  if (!file && !inline) {
    throw invalid(
      'The license service needs its signing key, and neither LICENSE_SIGNING_KEY_FILE nor LICENSE_SIGNING_KEY is set',
      'Make one with "openssl genpkey -algorithm ed25519 -out signing-key.pem" and set LICENSE_SIGNING_KEY_FILE to that file',
    );
  }
  const source = file ? `LICENSE_SIGNING_KEY_FILE (${file})` : 'LICENSE_SIGNING_KEY';
  let pem: string;
  if (file) {
    try {
      pem = readFileSync(file, 'utf8');
      if ((statSync(file).mode & 0o077) !== 0)
        warn(`warning: ${file} (the signing key) is readable by others: chmod 600 it`);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
      throw invalid(`${source} cannot be read (${code})`, 'Set it to the file that holds the signing key');
    }
  } else {
    pem = inline!.replace(/\\n/g, '\n');
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    // Never the text: it is (or is near) the signing key.
    throw invalid(
      `${source} is not a private key in PEM form`,
      'Give an Ed25519 private key, PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----")',
    );
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw invalid(
      `${source} is an ${key.asymmetricKeyType ?? 'unknown'} key, not an Ed25519 one`,
      'Make one with "openssl genpkey -algorithm ed25519 -out signing-key.pem"',
    );
  }
  return key;
}

/** The public half of the signing key, PEM (SPKI): what MOCKDEV_LICENSE_PUBLIC_KEY takes. */
export const publicKeyPem = (signingKey: KeyObject): string =>
  createPublicKey(signingKey).export({ type: 'spki', format: 'pem' }).toString();

/** LICENSE_DB, required by every command. */
export function databasePath(env: Env): string {
  required(env, ['LICENSE_DB']);
  return value(env, 'LICENSE_DB')!;
}

/** Everything `serve` needs, checked. */
export function readConfig(env: Env, warn?: (line: string) => void): ServiceConfig {
  required(env, ['LICENSE_DB', 'SMTP_URL', 'SMTP_FROM']);
  return {
    port: integer(env, 'PORT', DEFAULT_PORT, 0, 65_535),
    host: value(env, 'HOST') ?? DEFAULT_HOST,
    dbPath: databasePath(env),
    signingKey: loadSigningKey(env, warn),
    smtpUrl: smtpUrl(env),
    smtpFrom: value(env, 'SMTP_FROM')!,
    publicUrl: httpUrl(env, 'LICENSE_PUBLIC_URL'),
    mailIntervalSeconds: integer(
      env,
      'LICENSE_MAIL_INTERVAL_SECONDS',
      DEFAULT_MAIL_INTERVAL_SECONDS,
      0,
      86_400,
    ),
  };
}
