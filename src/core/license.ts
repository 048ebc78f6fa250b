/**
 * License keys (DECISIONS "License keys and the license service") and the Pro gate's pure
 * check. A key is `<payload>.<signature>`: `payload` is base64url (no padding) of
 * `{ sub, plan: "pro", iat, exp }`, `signature` base64url of the Ed25519 signature over the
 * ASCII bytes of `payload`. Verified offline against the built-in public key, or the PEM (SPKI)
 * in MOCKDEV_LICENSE_PUBLIC_KEY.
 *
 * A key is a secret: nothing here puts it into a message; `maskKey` is the only form to show.
 */
import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import * as z from 'zod';
import { MockdevError } from './errors.js';

/**
 * The public half of mockdev's license signing key pair (Ed25519, SPKI PEM). Its private half
 * never enters this repository.
 */
export const BUILT_IN_LICENSE_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAAQA27xtcYZdojShLGGkDlrSJ3S/qBlGAyx2RxdsE5j0=
-----END PUBLIC KEY-----
`;

/** The features that need a Pro license (SPEC part 5.3). */
export const PRO_FEATURES = ['environment', 'tunnel', 'tls generate', 'contract'] as const;
export type ProFeature = (typeof PRO_FEATURES)[number];

export const LicensePayloadSchema = z.object({
  sub: z.string().min(1),
  plan: z.literal('pro'),
  iat: z.number().int().min(0),
  exp: z.number().int().min(0).nullable(),
});
export type LicensePayload = z.infer<typeof LicensePayloadSchema>;

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const ED25519_SIGNATURE_BYTES = 64;

const malformed = (why: string) =>
  new MockdevError('INVALID_ARGUMENT', `This is not a mockdev license key: ${why}`, {
    hint: 'Copy the whole key (two parts joined by a dot) from your license e-mail',
  });

/** A key split and decoded, its signature not yet checked. Not well-formed: INVALID_ARGUMENT (exit 2). */
export function parseLicenseKey(key: string): { payload: LicensePayload; signed: string; signature: Buffer } {
  const trimmed = key.trim();
  const parts = trimmed.split('.');
  if (parts.length !== 2) return fail('it must be two parts joined by one dot');
  const [signed, sig] = parts as [string, string];
  if (!BASE64URL.test(signed) || !BASE64URL.test(sig)) return fail('its parts must be base64url text');
  const signature = Buffer.from(sig, 'base64url');
  if (signature.length !== ED25519_SIGNATURE_BYTES) return fail('its signature has the wrong length');
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(signed, 'base64url').toString('utf8'));
  } catch {
    return fail('its first part is not JSON');
  }
  const parsed = LicensePayloadSchema.safeParse(json);
  if (!parsed.success) return fail('its content lacks the licensee, plan, issue or expiry date');
  return { payload: parsed.data, signed, signature };
}

const fail = (why: string): never => {
  throw malformed(why);
};

/** Whether `pem` (MOCKDEV_LICENSE_PUBLIC_KEY) overrides the built-in public key. */
export const overridesPublicKey = (pem: string | undefined): boolean =>
  pem !== undefined && pem.trim() !== '';

/** The public key to verify against: `pem` (MOCKDEV_LICENSE_PUBLIC_KEY) or the built-in one. */
export function licensePublicKey(pem: string | undefined): KeyObject {
  if (!overridesPublicKey(pem)) return createPublicKey(BUILT_IN_LICENSE_PUBLIC_KEY);
  let key: KeyObject;
  try {
    key = createPublicKey(pem!.replace(/\\n/g, '\n'));
  } catch {
    throw notEd25519();
  }
  if (key.asymmetricKeyType !== 'ed25519') throw notEd25519();
  return key;
}

const notEd25519 = () =>
  new MockdevError(
    'INVALID_ARGUMENT',
    'MOCKDEV_LICENSE_PUBLIC_KEY is not an Ed25519 public key in PEM (SPKI) form',
    {
      hint: 'Unset it to use the built-in key, or set it to the PEM your license service publishes',
    },
  );

export type LicenseState = 'active' | 'expired' | 'invalid';

export interface CheckedLicense {
  state: LicenseState;
  payload: LicensePayload;
  /** Why it is not active, in one sentence; undefined when active. */
  problem?: string;
}

/**
 * Checks a well-formed key's signature and expiry (`now` in ms). Never throws for a bad
 * signature or an expired key: says so in `state`. Not well-formed: INVALID_ARGUMENT.
 */
export function checkLicenseKey(key: string, publicKey: KeyObject, now: number): CheckedLicense {
  const { payload, signed, signature } = parseLicenseKey(key);
  if (!verify(null, Buffer.from(signed, 'ascii'), publicKey, signature)) {
    return {
      state: 'invalid',
      payload,
      problem: 'its signature does not match (the key was changed, or signed by another license service)',
    };
  }
  if (payload.exp !== null && payload.exp * 1000 <= now) {
    return {
      state: 'expired',
      payload,
      problem: `it expired on ${new Date(payload.exp * 1000).toISOString()}`,
    };
  }
  return { state: 'active', payload };
}

/**
 * Verifies a key the user gives: the payload of an active one, else LICENSE_INVALID (exit 1)
 * for a tampered or expired key, INVALID_ARGUMENT (exit 2) for one that is not well-formed.
 */
export function verifyLicenseKey(key: string, publicKey: KeyObject, now: number): LicensePayload {
  const checked = checkLicenseKey(key, publicKey, now);
  if (checked.state !== 'active') {
    throw new MockdevError('LICENSE_INVALID', `This license key is refused: ${checked.problem}`, {
      hint:
        checked.state === 'expired'
          ? 'Renew the license and activate the new key'
          : 'Copy the key again exactly as you received it',
    });
  }
  return checked.payload;
}

/** Signs a payload into a key (the license service's half of the format above). */
export function signLicenseKey(payload: LicensePayload, privateKey: KeyObject): string {
  const signed = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${signed}.${sign(null, Buffer.from(signed, 'ascii'), privateKey).toString('base64url')}`;
}

const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * An e-mail address as licenses name it (trimmed; lower case when `fold`, as the license
 * service keys its records), or undefined when the text is not one.
 */
export function parseEmailAddress(text: string, fold = false): string | undefined {
  const value = text.trim();
  if (value.length > 254 || !EMAIL_ADDRESS.test(value)) return undefined;
  return fold ? value.toLowerCase() : value;
}

/** What may be shown of a key: its last 6 characters. */
export function maskKey(key: string): string {
  const k = key.trim();
  return `…${k.slice(-6)}`;
}

/** The Pro gate's decision: a Pro feature may run only with an active license. */
export type ProDecision =
  { allowed: true } | { allowed: false; reason: 'none' | LicenseState; problem?: string };

export function decidePro(checked: CheckedLicense | undefined): ProDecision {
  if (!checked) return { allowed: false, reason: 'none' };
  if (checked.state === 'active') return { allowed: true };
  return { allowed: false, reason: checked.state, ...(checked.problem ? { problem: checked.problem } : {}) };
}
