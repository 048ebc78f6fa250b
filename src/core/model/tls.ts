import * as z from 'zod';

/**
 * HTTPS with a local certificate authority (docs/tls.md): what `tls status` reports and `tls
 * trust` prints. The files live in `<data dir>/tls/` (ca.pem, ca-key.pem, cert.pem, key.pem).
 */

/** The systems `tls trust` prints instructions for. */
export const TRUST_TARGETS = ['macos', 'windows', 'linux', 'firefox', 'java', 'node'] as const;
export type TrustTarget = (typeof TRUST_TARGETS)[number];

/** The CA's lifetime and the leaf's (825 days: what browsers accept of a leaf). */
export const CA_VALID_DAYS = 3650;
export const LEAF_VALID_DAYS = 825;
/** A leaf this close to its end says to renew it. */
export const LEAF_RENEW_DAYS = 30;
export const CA_COMMON_NAME = 'mockdev development CA';
/** What every leaf names besides the `--host` names. */
export const LEAF_DEFAULT_HOSTS = ['localhost', '127.0.0.1', '::1'] as const;

export const CertificateInfoSchema = z.object({
  /** The PEM file. */
  path: z.string(),
  subject: z.string(),
  issuer: z.string(),
  /** Subject alternative names: DNS names and IP addresses as written. */
  sans: z.array(z.string()),
  notBefore: z.string(),
  notAfter: z.string(),
  /** Whole days until notAfter (negative once expired). */
  daysLeft: z.number(),
  /** SHA-256 of the DER, upper-case hex pairs joined by ":" (as browsers show it). */
  fingerprint256: z.string(),
});
export type CertificateInfo = z.infer<typeof CertificateInfoSchema>;

/** Whether the CA is in one trust store of this system. */
export const TrustCheckSchema = z.object({
  /** system (the Linux CA bundle / keychain), nss (a browser's database), node, java. */
  store: z.enum(['system', 'nss', 'node', 'java']),
  /** The bundle, database or variable looked at, for people. */
  location: z.string(),
  status: z.enum(['trusted', 'not-trusted', 'unknown']),
  /** Why unknown (the tool is missing, the file cannot be read), or what was found. */
  detail: z.string().optional(),
});
export type TrustCheck = z.infer<typeof TrustCheckSchema>;

export const TlsStatusSchema = z.object({
  /** The folder of the files. */
  dir: z.string(),
  ca: CertificateInfoSchema.nullable(),
  leaf: CertificateInfoSchema.nullable(),
  /** The leaf expires within LEAF_RENEW_DAYS (or has): `tls generate` renews it. */
  renew: z.boolean(),
  trust: z.array(TrustCheckSchema),
});
export type TlsStatus = z.infer<typeof TlsStatusSchema>;

/** What `tls trust` prints for one system: each step, its commands, never run by mockdev. */
export const TrustInstructionsSchema = z.object({
  target: z.enum(TRUST_TARGETS),
  /** The CA file the commands name. */
  caFile: z.string(),
  steps: z.array(z.object({ title: z.string(), commands: z.array(z.string()) })),
});
export type TrustInstructions = z.infer<typeof TrustInstructionsSchema>;
