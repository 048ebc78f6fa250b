/**
 * What the license service does, apart from HTTP (http.ts words it): activations of licenses
 * the operator granted, trials (one per address), both confirmed by a link e-mailed to the
 * address; the key of a confirmed one is signed with the service's key and handed out for a
 * day (the protocol's `GET /v1/activations?email=` names only the address).
 *
 * The link's token is a secret of the e-mail's reader: only its SHA-256 is stored. Keys are not
 * stored at all: Ed25519 signs the same payload into the same key, so a key is signed when it is
 * fetched.
 */
import { createHash, randomBytes, type KeyObject } from 'node:crypto';
import { parseEmailAddress, signLicenseKey } from '../core/license.js';
import { TRIAL_DAYS } from '../core/license-defaults.js';
import type { Activation, ActivationKind, LicenseDatabase } from './database.js';
import { licenseLinkMessage, noLicenseMessage, trialLinkMessage, type Mailer } from './mail.js';

/** How long a link may be opened after it was sent, and a confirmed key fetched after that. */
export const LINK_VALID_HOURS = 24;
const LINK_VALID_S = LINK_VALID_HOURS * 3600;
const DAY_S = 86_400;

export interface DeskOptions {
  db: LicenseDatabase;
  mailer: Mailer;
  signingKey: KeyObject;
  /** The base URL of the links (no trailing slash). */
  publicUrl: () => string;
  mailIntervalSeconds: number;
  /** The clock, in ms (tests move it). */
  now?: () => number;
}

/** A refusal the HTTP side answers with its status. */
export class Refusal extends Error {
  constructor(
    readonly status: 400 | 409 | 429,
    message: string,
  ) {
    super(message);
    this.name = 'Refusal';
  }
}

export type CheckAnswer = { status: 'pending' } | { status: 'confirmed'; key: string };

export type Confirmation =
  | { outcome: 'confirmed'; email: string; kind: ActivationKind; exp: number | null }
  | { outcome: 'already'; email: string }
  | { outcome: 'expired' }
  | { outcome: 'unknown' }
  | { outcome: 'had-trial'; email: string }
  | { outcome: 'no-license'; email: string };

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export class LicenseDesk {
  constructor(private readonly o: DeskOptions) {}

  private nowS(): number {
    return Math.floor((this.o.now ?? Date.now)() / 1000);
  }

  private address(email: unknown): string {
    const address = typeof email === 'string' ? parseEmailAddress(email, true) : undefined;
    if (!address) throw new Refusal(400, 'Give an e-mail address: { "email": "you@example.com" }');
    return address;
  }

  /** Refuses a second e-mail to one address within the pause (429). */
  private pause(address: string): void {
    const last = this.o.db.lastMailAt(address);
    if (last !== undefined && this.nowS() - last < this.o.mailIntervalSeconds) {
      throw new Refusal(
        429,
        `An e-mail was sent to this address less than ${this.o.mailIntervalSeconds} s ago: wait, then ask again`,
      );
    }
  }

  private activeGrant(address: string): { active: boolean; exp: number | null; expiredOn?: string } {
    const grant = this.o.db.findGrant(address);
    if (!grant) return { active: false, exp: null };
    if (grant.expiresAt !== null && grant.expiresAt <= this.nowS()) {
      return {
        active: false,
        exp: grant.expiresAt,
        expiredOn: new Date(grant.expiresAt * 1000).toISOString().slice(0, 10),
      };
    }
    return { active: true, exp: grant.expiresAt };
  }

  /** A new pending activation and its link's e-mail; the activation is removed when the e-mail fails. */
  private async sendLink(address: string, kind: ActivationKind): Promise<void> {
    const token = randomBytes(32).toString('base64url');
    const activation: Activation = {
      email: address,
      kind,
      tokenHash: hash(token),
      requestedAt: this.nowS(),
      confirmedAt: null,
      iat: null,
      exp: null,
    };
    this.o.db.putActivation(activation);
    const link = `${this.o.publicUrl()}/v1/confirm?token=${token}`;
    const message =
      kind === 'trial'
        ? trialLinkMessage(address, link, LINK_VALID_HOURS)
        : licenseLinkMessage(address, link, LINK_VALID_HOURS);
    try {
      await this.o.mailer.send(message);
    } catch (e) {
      this.o.db.deleteActivation(address, activation.tokenHash);
      throw e;
    }
    this.o.db.noteMail(address, this.nowS());
  }

  /** `POST /v1/activations`: the link when the address has a license, else an e-mail saying so. */
  async requestActivation(email: unknown): Promise<string> {
    const address = this.address(email);
    this.pause(address);
    const grant = this.activeGrant(address);
    if (grant.active) await this.sendLink(address, 'license');
    else {
      await this.o.mailer.send(noLicenseMessage(address, grant.expiredOn));
      this.o.db.noteMail(address, this.nowS());
    }
    return address;
  }

  /** `POST /v1/trials`: the link that starts a trial; 409 when the address had its trial. */
  async requestTrial(email: unknown): Promise<string> {
    const address = this.address(email);
    if (this.o.db.hadTrial(address)) {
      throw new Refusal(409, 'This address had its trial: there is one per e-mail address');
    }
    this.pause(address);
    await this.sendLink(address, 'trial');
    return address;
  }

  /** `GET /v1/activations?email=`: undefined when nothing was asked (or it is over a day old). */
  check(email: unknown): CheckAnswer | undefined {
    const address = this.address(email);
    const a = this.o.db.activation(address);
    if (!a) return undefined;
    const now = this.nowS();
    if (a.confirmedAt === null) return now - a.requestedAt < LINK_VALID_S ? { status: 'pending' } : undefined;
    if (now - a.confirmedAt >= LINK_VALID_S) return undefined;
    const key = signLicenseKey({ sub: a.email, plan: 'pro', iat: a.iat!, exp: a.exp }, this.o.signingKey);
    return { status: 'confirmed', key };
  }

  /** `GET /v1/confirm?token=`: the link opened. */
  confirm(token: string | null): Confirmation {
    if (!token || !TOKEN.test(token)) return { outcome: 'unknown' };
    const a = this.o.db.activationByToken(hash(token));
    if (!a) return { outcome: 'unknown' };
    if (a.confirmedAt !== null) return { outcome: 'already', email: a.email };
    const now = this.nowS();
    if (now - a.requestedAt >= LINK_VALID_S) return { outcome: 'expired' };
    if (a.kind === 'trial') {
      const exp = now + TRIAL_DAYS * DAY_S;
      if (!this.o.db.confirmTrial(a.email, now, exp)) {
        this.o.db.deleteActivation(a.email, a.tokenHash);
        return { outcome: 'had-trial', email: a.email };
      }
      return { outcome: 'confirmed', email: a.email, kind: 'trial', exp };
    }
    const grant = this.activeGrant(a.email);
    if (!grant.active) {
      this.o.db.deleteActivation(a.email, a.tokenHash);
      return { outcome: 'no-license', email: a.email };
    }
    this.o.db.confirmLicense(a.email, now, grant.exp);
    return { outcome: 'confirmed', email: a.email, kind: 'license', exp: grant.exp };
  }
}
