/**
 * The local CA and its leaf certificates, made with `selfsigned` (X.509 on @peculiar/x509 and
 * WebCrypto): ECDSA P-256 keys, SHA-256 signatures. Loaded when a certificate is made, never at
 * start. The keys are made here, on this machine, each time: none ships with mockdev.
 */
import type { SanEntry } from '../../core/tls.js';
import { CA_COMMON_NAME, CA_VALID_DAYS, LEAF_VALID_DAYS } from '../../core/model/tls.js';
import type { PemPair } from '../../core/ports.js';

const DAY_MS = 86_400_000;
/** A minute back: a clock a little behind this one still accepts a certificate made now. */
const SKEW_MS = 60_000;
const KEY = { keyType: 'ec', curve: 'P-256', algorithm: 'sha256' } as const;

/** selfsigned's generate, loaded on first use (a CommonJS module: bundled, it is the default export's). */
async function generator(): Promise<typeof import('selfsigned').generate> {
  const mod = await import('selfsigned');
  return (mod.default ?? mod).generate;
}

/** The CA: "mockdev development CA", valid CA_VALID_DAYS, for signing certificates only. */
export async function makeCa(now = Date.now()): Promise<PemPair> {
  const generate = await generator();
  const made = await generate(
    [
      { name: 'commonName', value: CA_COMMON_NAME },
      { name: 'organizationName', value: 'mockdev' },
    ],
    {
      ...KEY,
      notBeforeDate: new Date(now - SKEW_MS),
      notAfterDate: new Date(now + CA_VALID_DAYS * DAY_MS),
      extensions: [
        { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
      ],
    },
  );
  return { cert: made.cert, key: made.private };
}

/**
 * A leaf for `sans`, signed by `ca`, for TLS servers (serverAuth), valid LEAF_VALID_DAYS or
 * until the CA ends, whichever comes first.
 */
export async function makeLeaf(
  ca: PemPair,
  sans: SanEntry[],
  options: { now?: number; caNotAfter?: Date } = {},
): Promise<PemPair> {
  const generate = await generator();
  const now = options.now ?? Date.now();
  const end = now + LEAF_VALID_DAYS * DAY_MS;
  const first = sans.find((s) => s.type === 'dns') ?? sans[0];
  const made = await generate([{ name: 'commonName', value: first?.value ?? 'localhost' }], {
    ...KEY,
    ca,
    notBeforeDate: new Date(now - SKEW_MS),
    notAfterDate: new Date(Math.min(end, options.caNotAfter?.getTime() ?? end)),
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: sans.map((s) => (s.type === 'ip' ? { type: 7, ip: s.value } : { type: 2, value: s.value })),
      },
    ],
  });
  return { cert: made.cert, key: made.private };
}
