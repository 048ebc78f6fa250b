/**
 * The license service's records in SQLite (better-sqlite3), LICENSE_DB:
 *
 * - `licenses`: who may activate Pro by e-mail (granted by the operator: `grant`), until when;
 * - `activations`: the latest activation or trial asked for each address, pending (the hash of
 *   its link's token; the token itself is only in the e-mail) or confirmed (the key's dates:
 *   the key is signed again when it is fetched, never stored);
 * - `trials`: the addresses that had their trial (one each);
 * - `mails`: when each address was last e-mailed (the pause between two e-mails).
 *
 * Addresses are stored in lower case. Times are unix seconds.
 */
import Database from 'better-sqlite3';
import { MockdevError } from '../core/errors.js';

export type ActivationKind = 'license' | 'trial';

export interface Activation {
  email: string;
  kind: ActivationKind;
  tokenHash: string;
  requestedAt: number;
  confirmedAt: number | null;
  /** The key's `iat` and `exp` once confirmed. */
  iat: number | null;
  exp: number | null;
}

export interface Grant {
  email: string;
  /** null: never expires. */
  expiresAt: number | null;
  grantedAt: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS licenses (
  email TEXT PRIMARY KEY,
  expires_at INTEGER,
  granted_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS activations (
  email TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('license', 'trial')),
  token_hash TEXT NOT NULL UNIQUE,
  requested_at INTEGER NOT NULL,
  confirmed_at INTEGER,
  iat INTEGER,
  exp INTEGER
);
CREATE TABLE IF NOT EXISTS trials (
  email TEXT PRIMARY KEY,
  issued_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS mails (
  email TEXT PRIMARY KEY,
  last_sent_at INTEGER NOT NULL
);
`;

interface ActivationRow {
  email: string;
  kind: ActivationKind;
  token_hash: string;
  requested_at: number;
  confirmed_at: number | null;
  iat: number | null;
  exp: number | null;
}

const toActivation = (r: ActivationRow | undefined): Activation | undefined =>
  r && {
    email: r.email,
    kind: r.kind,
    tokenHash: r.token_hash,
    requestedAt: r.requested_at,
    confirmedAt: r.confirmed_at,
    iat: r.iat,
    exp: r.exp,
  };

export class LicenseDatabase {
  private readonly db: Database.Database;

  /** Opens (creating when new) the database at `path`; IO_ERROR naming LICENSE_DB when it cannot. */
  constructor(path: string) {
    try {
      this.db = new Database(path);
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('busy_timeout = 5000');
      this.db.exec(SCHEMA);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      throw new MockdevError('IO_ERROR', `LICENSE_DB ${path} cannot be opened as a database (${code})`, {
        hint: 'Set LICENSE_DB to a file in a folder the service may write',
      });
    }
  }

  close(): void {
    this.db.close();
  }

  grant(email: string, expiresAt: number | null, now: number): void {
    this.db
      .prepare(
        'INSERT INTO licenses (email, expires_at, granted_at) VALUES (?, ?, ?) ON CONFLICT (email) DO UPDATE SET expires_at = excluded.expires_at, granted_at = excluded.granted_at',
      )
      .run(email, expiresAt, now);
  }

  /** Whether there was a license to remove. */
  revoke(email: string): boolean {
    return this.db.prepare('DELETE FROM licenses WHERE email = ?').run(email).changes > 0;
  }

  findGrant(email: string): Grant | undefined {
    const r = this.db
      .prepare('SELECT email, expires_at, granted_at FROM licenses WHERE email = ?')
      .get(email) as { email: string; expires_at: number | null; granted_at: number } | undefined;
    return r && { email: r.email, expiresAt: r.expires_at, grantedAt: r.granted_at };
  }

  /** Stores a new pending activation for its address, replacing the one before. */
  putActivation(a: Activation): void {
    this.db
      .prepare(
        'INSERT OR REPLACE INTO activations (email, kind, token_hash, requested_at, confirmed_at, iat, exp) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(a.email, a.kind, a.tokenHash, a.requestedAt, a.confirmedAt, a.iat, a.exp);
  }

  activation(email: string): Activation | undefined {
    return toActivation(
      this.db.prepare('SELECT * FROM activations WHERE email = ?').get(email) as ActivationRow | undefined,
    );
  }

  activationByToken(tokenHash: string): Activation | undefined {
    return toActivation(
      this.db.prepare('SELECT * FROM activations WHERE token_hash = ?').get(tokenHash) as
        ActivationRow | undefined,
    );
  }

  deleteActivation(email: string, tokenHash: string): void {
    this.db.prepare('DELETE FROM activations WHERE email = ? AND token_hash = ?').run(email, tokenHash);
  }

  confirmLicense(email: string, confirmedAt: number, exp: number | null): void {
    this.db
      .prepare('UPDATE activations SET confirmed_at = ?, iat = ?, exp = ? WHERE email = ?')
      .run(confirmedAt, confirmedAt, exp, email);
  }

  /**
   * Records the address's trial and confirms its activation, in one transaction: false (and
   * nothing changed) when the address had its trial.
   */
  confirmTrial(email: string, now: number, exp: number): boolean {
    return this.db.transaction(() => {
      const had = this.db.prepare('SELECT 1 FROM trials WHERE email = ?').get(email);
      if (had) return false;
      this.db
        .prepare('INSERT INTO trials (email, issued_at, expires_at) VALUES (?, ?, ?)')
        .run(email, now, exp);
      this.confirmLicense(email, now, exp);
      return true;
    })();
  }

  hadTrial(email: string): boolean {
    return this.db.prepare('SELECT 1 FROM trials WHERE email = ?').get(email) !== undefined;
  }

  lastMailAt(email: string): number | undefined {
    const r = this.db.prepare('SELECT last_sent_at FROM mails WHERE email = ?').get(email) as
      { last_sent_at: number } | undefined;
    return r?.last_sent_at;
  }

  noteMail(email: string, at: number): void {
    this.db
      .prepare(
        'INSERT INTO mails (email, last_sent_at) VALUES (?, ?) ON CONFLICT (email) DO UPDATE SET last_sent_at = excluded.last_sent_at',
      )
      .run(email, at);
  }
}
