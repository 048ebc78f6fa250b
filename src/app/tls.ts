/**
 * HTTPS with a local CA (docs/tls.md): the use cases the CLI, the admin API and the UI call.
 * The CA is made once per machine (per data directory) and signs a new leaf at each `tls
 * generate`; the files are the TlsFiles store's (`<data>/tls/`, keys 0600).
 */
import { MockdevError } from '../core/errors.js';
import type { PemPair } from '../core/ports.js';
import type { TlsStatus, TrustInstructions, TrustTarget } from '../core/model/tls.js';
import {
  certificateInfo,
  keyMatches,
  leafSans,
  needsRenewal,
  parseCertificate,
  privateKeyOf,
} from '../core/tls.js';
import { defaultTrustTarget, toTrustTarget, trustInstructions } from '../core/tls-trust.js';
import { checkTrustStores } from '../store/tls/trust-stores.js';
import { makeCa, makeLeaf } from '../store/tls/x509.js';
import type { AppContext } from './context.js';
import { requirePro } from './license.js';

type TlsContext = Pick<AppContext, 'tls' | 'env'>;

/** The CA and the leaf (when made), and whether this system's trust stores hold the CA. */
export async function tlsStatus(ctx: TlsContext): Promise<TlsStatus> {
  const paths = ctx.tls.paths;
  const [ca, leaf] = await Promise.all([ctx.tls.readCa(), ctx.tls.readLeaf()]);
  const now = Date.now();
  const caInfo = ca ? certificateInfo(ca.cert, paths.ca, now) : null;
  const leafInfo = leaf ? certificateInfo(leaf.cert, paths.cert, now) : null;
  return {
    dir: paths.dir,
    ca: caInfo,
    leaf: leafInfo,
    renew: leafInfo !== null && needsRenewal(leafInfo),
    trust:
      ca && caInfo
        ? await checkTrustStores({ pem: ca.cert, fingerprint256: caInfo.fingerprint256 }, { env: ctx.env })
        : [],
  };
}

/** The stored CA when it can sign (its key matches, it has not ended); undefined when there is none or it ended. */
async function usableCa(ctx: TlsContext): Promise<{ pair: PemPair; notAfter: Date } | undefined> {
  const paths = ctx.tls.paths;
  const remake = (message: string, file: string) =>
    new MockdevError('CORRUPT_FILE', message, {
      hint: 'Run "mockdev tls generate --new-ca" to make a new CA (then trust it again)',
      details: { file },
    });
  let pair: PemPair | undefined;
  try {
    pair = await ctx.tls.readCa();
  } catch (e) {
    if (e instanceof MockdevError && e.code === 'CORRUPT_FILE') throw remake(e.message, paths.ca);
    throw e;
  }
  if (!pair) return undefined;
  const cert = parseCertificate(pair.cert, paths.ca);
  const key = privateKeyOf(pair.key);
  if (!key || !keyMatches(cert, key))
    throw remake(`${paths.caKey} is not the key of ${paths.ca}`, paths.caKey);
  const notAfter = new Date(cert.validTo);
  return notAfter.getTime() > Date.now() ? { pair, notAfter } : undefined;
}

/**
 * (Pro) Makes the CA once (again with `newCa`, or when it ended) and a new leaf for localhost,
 * 127.0.0.1, ::1 and `hosts`; returns the status after, and whether a CA was made.
 */
export async function generateTls(
  ctx: AppContext,
  input: { hosts?: string[]; newCa?: boolean } = {},
): Promise<{ status: TlsStatus; caCreated: boolean }> {
  await requirePro(ctx, 'tls generate');
  const sans = leafSans(input.hosts ?? []);
  let ca = input.newCa ? undefined : await usableCa(ctx);
  const caCreated = ca === undefined;
  if (!ca) {
    const pair = await makeCa();
    await ctx.tls.writeCa(pair);
    ca = { pair, notAfter: new Date(parseCertificate(pair.cert, ctx.tls.paths.ca).validTo) };
  }
  await ctx.tls.writeLeaf(await makeLeaf(ca.pair, sans, { caNotAfter: ca.notAfter }));
  return { status: await tlsStatus(ctx), caCreated };
}

/** The commands that trust the CA on a system (default: this one); never run. */
export async function tlsTrustInstructions(
  ctx: Pick<AppContext, 'tls'>,
  input: { target?: TrustTarget } = {},
): Promise<TrustInstructions> {
  const target =
    input.target === undefined ? defaultTrustTarget(process.platform) : toTrustTarget(input.target);
  return trustInstructions(target, ctx.tls.paths.ca);
}

const invalidFile = (file: string, message: string, hint: string) =>
  new MockdevError('INVALID_ARGUMENT', message, { hint, details: { file } });

/**
 * What a server serves HTTPS with: the generated leaf (`tls: true`; none: an error naming `tls
 * generate`), or the user's own PEM files (`cert` and `key`, relative to ctx.cwd; unreadable or
 * not a matching pair: INVALID_ARGUMENT naming the file).
 */
export async function serverCredentials(
  ctx: Pick<AppContext, 'tls' | 'files'>,
  input: { cert?: string; key?: string },
): Promise<{ cert: string; key: string; source: 'generated' | 'files' }> {
  if (input.cert === undefined && input.key === undefined) {
    const leaf = await ctx.tls.readLeaf();
    if (!leaf)
      throw new MockdevError('NOT_FOUND', `No certificate has been generated yet (${ctx.tls.paths.cert})`, {
        hint: 'Run "mockdev tls generate" (Pro) first, or serve your own files with --cert and --key',
      });
    return { ...leaf, source: 'generated' };
  }
  if (input.cert === undefined || input.key === undefined)
    throw new MockdevError('INVALID_ARGUMENT', `A certificate needs its key: give both --cert and --key`, {
      hint: 'Example: --cert cert.pem --key key.pem',
    });
  // Relative to ctx.cwd; a missing or unreadable file is INVALID_ARGUMENT naming it.
  const [certText, keyText] = (
    await Promise.all([ctx.files.read(input.cert), ctx.files.read(input.key)])
  ).map((b) => b.toString('utf8')) as [string, string];
  let cert;
  try {
    if (!certText.includes('-----BEGIN CERTIFICATE-----')) throw new Error('no PEM certificate');
    cert = parseCertificate(certText, input.cert);
  } catch {
    throw invalidFile(
      input.cert,
      `${input.cert} is not a PEM certificate`,
      'Give a file holding -----BEGIN CERTIFICATE----- (openssl x509 -in cert.der -inform der -out cert.pem converts DER)',
    );
  }
  const key = privateKeyOf(keyText);
  if (!key)
    throw invalidFile(
      input.key,
      `${input.key} is not an unencrypted PEM private key`,
      'Give a file holding -----BEGIN PRIVATE KEY----- (openssl pkey -in key.pem -out plain-key.pem removes a passphrase)',
    );
  if (!keyMatches(cert, key))
    throw invalidFile(
      input.key,
      `${input.key} is not the private key of ${input.cert}`,
      'Give the key the certificate was made for',
    );
  return { cert: certText, key: keyText, source: 'files' };
}
