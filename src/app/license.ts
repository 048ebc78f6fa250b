/**
 * License use cases and the Pro gate. Keys are verified offline (src/core/license.ts); e-mail
 * activation asks the license service (the LicenseService port) at MOCKDEV_LICENSE_URL
 * (docs/license.md). The key is a secret: no result, message or log here holds it, only its
 * masked form.
 */
import { MockdevError } from '../core/errors.js';
import {
  checkLicenseKey,
  decidePro,
  licensePublicKey,
  maskKey,
  overridesPublicKey,
  parseEmailAddress,
  verifyLicenseKey,
  type CheckedLicense,
  type LicenseState,
  type ProFeature,
} from '../core/license.js';
import { DEFAULT_LICENSE_URL, TRIAL_DAYS } from '../core/license-defaults.js';
import type { StoredLicense } from '../core/model/license.js';
import type { LicenseServiceOptions } from '../core/ports.js';
import type { AppContext } from './context.js';

export interface LicenseStatus {
  /** `pro` only while an activated license is active. */
  plan: 'pro' | 'free';
  state: 'none' | LicenseState;
  licensee: string | null;
  issuedAt: string | null;
  /** null: never expires (or no license). */
  expiresAt: string | null;
  activation: StoredLicense['activation'] | null;
  activatedAt: string | null;
  /** The key's masked form (its last characters), never the key. */
  key: string | null;
  /** Why the stored license is not active. */
  problem?: string;
  /** Whose public key verified the key's signature; absent when none did. */
  signedBy?: 'built-in' | 'MOCKDEV_LICENSE_PUBLIC_KEY';
}

type LicenseContext = Pick<AppContext, 'license' | 'env'>;

const iso = (unixSeconds: number | null) =>
  unixSeconds === null ? null : new Date(unixSeconds * 1000).toISOString();

/** The stored license, checked now; undefined when none is stored. */
async function checkedStored(
  ctx: LicenseContext,
): Promise<{ stored: StoredLicense; checked: CheckedLicense | undefined; problem?: string } | undefined> {
  const stored = await ctx.license.read();
  if (!stored) return undefined;
  const publicKey = licensePublicKey(ctx.env.MOCKDEV_LICENSE_PUBLIC_KEY);
  try {
    return { stored, checked: checkLicenseKey(stored.key, publicKey, Date.now()) };
  } catch (e) {
    if (e instanceof MockdevError) return { stored, checked: undefined, problem: e.message };
    throw e;
  }
}

export async function licenseStatus(ctx: LicenseContext): Promise<LicenseStatus> {
  const found = await checkedStored(ctx);
  if (!found) {
    return {
      plan: 'free',
      state: 'none',
      licensee: null,
      issuedAt: null,
      expiresAt: null,
      activation: null,
      activatedAt: null,
      key: null,
    };
  }
  const { stored, checked } = found;
  const problem = checked ? checked.problem : found.problem;
  // A signature that verified (the key active or expired) says whose key verified it, so an
  // override of the built-in key is never silent.
  const signedBy =
    checked && checked.state !== 'invalid'
      ? overridesPublicKey(ctx.env.MOCKDEV_LICENSE_PUBLIC_KEY)
        ? ('MOCKDEV_LICENSE_PUBLIC_KEY' as const)
        : ('built-in' as const)
      : undefined;
  return {
    plan: checked?.state === 'active' ? 'pro' : 'free',
    state: checked?.state ?? 'invalid',
    licensee: checked?.payload.sub ?? null,
    issuedAt: checked ? iso(checked.payload.iat) : null,
    expiresAt: checked ? iso(checked.payload.exp) : null,
    activation: stored.activation,
    activatedAt: stored.activatedAt,
    key: maskKey(stored.key),
    ...(problem ? { problem } : {}),
    ...(signedBy ? { signedBy } : {}),
  };
}

/** Verifies a key and stores it (replacing the license activated before). */
export async function activateLicenseKey(
  ctx: LicenseContext,
  key: string,
  activation: StoredLicense['activation'] = 'key',
): Promise<LicenseStatus> {
  const publicKey = licensePublicKey(ctx.env.MOCKDEV_LICENSE_PUBLIC_KEY);
  verifyLicenseKey(key, publicKey, Date.now());
  await ctx.license.write({ key: key.trim(), activation, activatedAt: new Date().toISOString() });
  return licenseStatus(ctx);
}

// ---------------------------------------------------------------- e-mail activation

/** What e-mail activation needs besides the license store: the license service (a port). */
type ServiceContext = LicenseContext & Pick<AppContext, 'licenseService'>;

function checkEmail(email: string): string {
  const value = parseEmailAddress(email);
  if (value === undefined) {
    throw new MockdevError('INVALID_ARGUMENT', `"${email}" is not an e-mail address`, {
      hint: 'Give the address the license was bought with, e.g. you@example.com',
    });
  }
  return value;
}

/**
 * The license service's base URL, without a trailing slash: MOCKDEV_LICENSE_URL, or when that is
 * not set (or empty) the default the build names (DEFAULT_LICENSE_URL, docs/license.md).
 */
export function licenseServiceUrl(env: NodeJS.ProcessEnv): string {
  const raw = env.MOCKDEV_LICENSE_URL?.trim() || DEFAULT_LICENSE_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    url = new URL('invalid:');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new MockdevError('INVALID_ARGUMENT', `MOCKDEV_LICENSE_URL "${raw}" is not an http(s) URL`, {
      hint: 'Set it to the license service base URL, e.g. https://licenses.example.com',
    });
  }
  return raw.replace(/\/+$/, '');
}

/** Asks the license service to e-mail an activation link. */
export async function requestEmailActivation(
  ctx: ServiceContext,
  email: string,
  options: LicenseServiceOptions = {},
): Promise<{ email: string; service: string }> {
  const address = checkEmail(email);
  const service = licenseServiceUrl(ctx.env);
  await ctx.licenseService.requestActivation(service, address, options);
  return { email: address, service };
}

/**
 * Asks the license service for a trial (TRIAL_DAYS days of Pro, one per e-mail address): it
 * e-mails a confirmation link; once opened, `checkEmailActivation` stores the trial key.
 */
export async function requestTrial(
  ctx: ServiceContext,
  email: string,
  options: LicenseServiceOptions = {},
): Promise<{ email: string; service: string; days: number }> {
  const address = checkEmail(email);
  const service = licenseServiceUrl(ctx.env);
  await ctx.licenseService.requestTrial(service, address, options);
  return { email: address, service, days: TRIAL_DAYS };
}

export type EmailActivationCheck =
  { status: 'pending'; email: string } | { status: 'confirmed'; email: string; license: LicenseStatus };

/**
 * Asks the license service whether the e-mail activation was confirmed; once it is, verifies
 * the key like any key and stores it.
 */
export async function checkEmailActivation(
  ctx: ServiceContext,
  email: string,
  options: LicenseServiceOptions = {},
): Promise<EmailActivationCheck> {
  const address = checkEmail(email);
  const service = licenseServiceUrl(ctx.env);
  const answer = await ctx.licenseService.checkActivation(service, address, options);
  if (answer.status === 'pending') return { status: 'pending', email: address };
  try {
    return {
      status: 'confirmed',
      email: address,
      license: await activateLicenseKey(ctx, answer.key, 'email'),
    };
  } catch (e) {
    if (e instanceof MockdevError && (e.code === 'INVALID_ARGUMENT' || e.code === 'LICENSE_INVALID')) {
      // Not the user's argument: the service's key. Exit 1 either way.
      throw new MockdevError(
        'LICENSE_INVALID',
        `The license service at ${service} sent a key that is refused: ${e.message.replace(/^[^:]*: /, '')}`,
        {
          hint: 'Check MOCKDEV_LICENSE_URL and MOCKDEV_LICENSE_PUBLIC_KEY belong to the same license service',
        },
      );
    }
    throw e;
  }
}

// ---------------------------------------------------------------- the Pro gate

/**
 * The one gate for Pro features (SPEC 5.3): resolves when the activated license is active,
 * else throws LICENSE_REQUIRED saying what needs Pro and how to activate. Every adapter (CLI,
 * MCP, UI, admin API) calls it before running `environment`, `tunnel`, `tls generate` or
 * `contract`.
 */
export async function requirePro(ctx: LicenseContext, feature: ProFeature): Promise<void> {
  const found = await checkedStored(ctx);
  const decision = decidePro(found?.checked);
  if (decision.allowed) return;
  const why =
    decision.reason === 'none'
      ? found
        ? `the activated license is not valid (${found.problem ?? 'unreadable'})`
        : 'no license is activated'
      : decision.reason === 'expired'
        ? `the license ${decision.problem?.replace(/^it /, '') ?? 'expired'}`
        : `the activated license is not valid: ${decision.problem ?? 'its signature does not match'}`;
  throw new MockdevError('LICENSE_REQUIRED', `"${feature}" needs a Pro license, and ${why}`, {
    hint: (say) =>
      decision.reason === 'expired'
        ? `renew it, then ${say.action('activateLicense')}`
        : say.action('activateLicense'),
    details: { feature, reason: decision.reason },
  });
}
