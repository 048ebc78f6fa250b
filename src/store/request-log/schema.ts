import type Database from 'better-sqlite3';
import { MockdevError } from '../../core/errors.js';

/** The request log's tables (and the flow runs kept beside it) and their versioning (PRAGMA user_version). */

export const SCHEMA_VERSION = 10;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS requests (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id  TEXT    NOT NULL,
  endpoint_id TEXT,
  ts          INTEGER NOT NULL,
  method      TEXT    NOT NULL,
  target      TEXT    NOT NULL,
  headers     TEXT    NOT NULL,
  body        BLOB,
  status      INTEGER NOT NULL,
  duration_ms REAL    NOT NULL,
  starred     INTEGER NOT NULL DEFAULT 0,
  truncated   INTEGER NOT NULL DEFAULT 0,
  res_id      INTEGER,
  res_headers TEXT,
  res_body    BLOB,
  -- The variation that answered, as it was named then (NULL: the endpoint's own response, or none).
  variation_id   TEXT,
  variation_name TEXT,
  -- 'http/1.1' or 'h2', and who sent the request (NULL: logged before schema 8 recorded them).
  protocol       TEXT,
  client_address TEXT,
  -- A live contract check's verdict (JSON) and whether it passed (1), failed (0); NULL: not checked.
  contract       TEXT,
  contract_ok    INTEGER,
  -- The delay applied before answering, in ms (NULL: none), and the fault sent (NULL: none).
  delay_ms       INTEGER,
  fault          TEXT
);
-- Responses shared by many records (an endpoint's precompiled response), stored once.
CREATE TABLE IF NOT EXISTS responses (
  id      INTEGER PRIMARY KEY,
  hash    TEXT,
  headers TEXT NOT NULL,
  body    BLOB
);
CREATE UNIQUE INDEX IF NOT EXISTS responses_hash ON responses (hash);
-- How far each spool file (by name, without its extension) has been expanded, in bytes.
CREATE TABLE IF NOT EXISTS spool (
  key    TEXT PRIMARY KEY,
  offset INTEGER NOT NULL
) WITHOUT ROWID;
-- A flow run's triggering request is found by its time (then project, method and target).
CREATE INDEX IF NOT EXISTS requests_ts ON requests (ts);
-- The records a live contract check found violations in (requests list --violations): few.
CREATE INDEX IF NOT EXISTS requests_violations ON requests (project_id, id) WHERE contract_ok = 0;
-- The runs of flows (store/flow-runs): a run is replaced whole at each save, taking a new seq
-- (never reused: AUTOINCREMENT), which is what FlowRunStore.since() follows.
CREATE TABLE IF NOT EXISTS flow_runs (
  seq        INTEGER PRIMARY KEY AUTOINCREMENT,
  id         TEXT    NOT NULL UNIQUE,
  project_id TEXT    NOT NULL,
  flow_id    TEXT    NOT NULL,
  started_at INTEGER NOT NULL,
  data       TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS flow_runs_project ON flow_runs (project_id, started_at);
CREATE INDEX IF NOT EXISTS flow_runs_flow ON flow_runs (project_id, flow_id, started_at);
`;

/**
 * The step from each earlier schema mockdev released to the next; an upgrade runs every step
 * from the file's schema on. Schema 4 had a `pending` table that its readers always emptied
 * first, and stored responses without a hash; schema 5 did not log which variation answered;
 * schema 6 had no flow runs (SCHEMA's CREATE ... IF NOT EXISTS adds them and their indexes);
 * schema 7 did not log each request's protocol and client address; schema 8 did not store live
 * contract verdicts (SCHEMA adds their index); schema 9 did not log the delay applied or the
 * fault sent;
 * schemas below 4 were never released.
 */
const UPGRADES: Record<number, string> = {
  4: 'DROP TABLE IF EXISTS pending; ALTER TABLE responses ADD COLUMN hash TEXT;',
  5: 'ALTER TABLE requests ADD COLUMN variation_id TEXT; ALTER TABLE requests ADD COLUMN variation_name TEXT;',
  6: '',
  7: 'ALTER TABLE requests ADD COLUMN protocol TEXT; ALTER TABLE requests ADD COLUMN client_address TEXT;',
  8: 'ALTER TABLE requests ADD COLUMN contract TEXT; ALTER TABLE requests ADD COLUMN contract_ok INTEGER;',
  9: 'ALTER TABLE requests ADD COLUMN delay_ms INTEGER; ALTER TABLE requests ADD COLUMN fault TEXT;',
};

/** Refuses (closing it, changing nothing) a log this mockdev cannot read or upgrade. */
export function checkVersion(db: Database.Database, file: string): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (
    version > SCHEMA_VERSION ||
    (version !== 0 && version !== SCHEMA_VERSION && UPGRADES[version] === undefined)
  ) {
    db.close();
    throw new MockdevError(
      'UNSUPPORTED_VERSION',
      `${file} has request log schema ${version}, which this mockdev cannot read (it reads ${SCHEMA_VERSION})`,
      { hint: 'Use the mockdev that wrote it, or move the file away to start a new request log' },
    );
  }
}

/** Creates or upgrades the schema. */
export function migrate(db: Database.Database, file: string): void {
  checkVersion(db, file);
  if (db.pragma('user_version', { simple: true }) === SCHEMA_VERSION) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    const again = db.pragma('user_version', { simple: true }) as number;
    if (again !== SCHEMA_VERSION) {
      if (again !== 0) for (let v = again; v < SCHEMA_VERSION; v++) db.exec(UPGRADES[v]!);
      db.exec(SCHEMA);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    }
    db.exec('COMMIT');
  } catch (e) {
    db.exec('ROLLBACK');
    throw e;
  }
}
