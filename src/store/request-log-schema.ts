import type Database from 'better-sqlite3';
import { MockdevError } from '../core/errors.js';

/** The request log's tables and their versioning (PRAGMA user_version). */

export const SCHEMA_VERSION = 4;

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
  res_body    BLOB
);
-- Responses shared by many records (an endpoint's compiled response), stored once.
CREATE TABLE IF NOT EXISTS responses (
  id      INTEGER PRIMARY KEY,
  headers TEXT NOT NULL,
  body    BLOB
);
-- Batches written by servers of schema 3 and not yet expanded into requests: n records of a
-- project, the retention limit in force for it (keep), and the records as JSON. Servers now
-- spool batches to files (request-spool.ts); rows left here are still expanded.
CREATE TABLE IF NOT EXISTS pending (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id TEXT    NOT NULL,
  n          INTEGER NOT NULL,
  keep       INTEGER NOT NULL,
  data       TEXT    NOT NULL
);
-- How far each spool file (by name, without its extension) has been expanded, in bytes.
CREATE TABLE IF NOT EXISTS spool (
  key    TEXT PRIMARY KEY,
  offset INTEGER NOT NULL
) WITHOUT ROWID;
`;

/** Creates or upgrades the schema; refuses a log written by a newer mockdev. */
export function migrate(db: Database.Database, file: string): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    db.close();
    throw new MockdevError(
      'UNSUPPORTED_VERSION',
      `${file} was written by a newer mockdev (schema ${version})`,
      {
        hint: 'Upgrade mockdev, or move the file away to start a new request log',
      },
    );
  }
  if (version === SCHEMA_VERSION) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    const again = db.pragma('user_version', { simple: true }) as number;
    if (again < SCHEMA_VERSION) {
      // Schemas 1 and 2 only existed in pre-release builds: their rows are not carried over.
      if (again === 1 || again === 2)
        db.exec(
          'DROP TABLE IF EXISTS requests; DROP TABLE IF EXISTS responses; DROP TABLE IF EXISTS deletions;',
        );
      db.exec(SCHEMA);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    }
    db.exec('COMMIT');
  } catch (e) {
    db.exec('ROLLBACK');
    throw e;
  }
}
