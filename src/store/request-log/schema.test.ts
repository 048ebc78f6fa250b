/**
 * The request log's schema versions (schema.ts): a log of an earlier schema is upgraded in place
 * keeping its records; one this mockdev cannot read is refused, untouched.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { after, describe, it } from 'node:test';
import { MockdevError } from '../../core/errors.js';
import { parseRequestFilters } from '../../core/model/request.js';
import type { NewRequestRecord } from '../../core/ports.js';
import { record } from '../../../test/helpers/records.js';
import { flowRun } from '../../../test/helpers/flow-runs.js';
import { FlowRunTable, toRunRow } from '../flow-runs/table.js';
import { RequestDatabase } from './database.js';
import { RecordBatch } from './frame.js';
import { spoolDirOf } from './local-request-log.js';
import { SCHEMA_VERSION } from './schema.js';
import { SpoolWriter } from './spool.js';
import { storeVerdicts } from './verdicts.js';

const dir = mkdtempSync(join(tmpdir(), 'mockdev-schema-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('request log schema versions', () => {
  /** The variation of the first record of project "p" in a log, read through RequestDatabase. */
  const db2Variation = (file: string) => {
    const db = new RequestDatabase(file, spoolDirOf(file));
    try {
      return db.list('p', parseRequestFilters({}))[0]!.variation;
    } finally {
      db.close();
    }
  };

  /** A log of an earlier schema: its `requests` table as that schema had it, then `sql`. */
  const oldLog = (version: number, sql: string): string => {
    const file = join(dir, `v${version}.db`);
    const old = new Database(file);
    old.exec(`
      CREATE TABLE requests (id INTEGER PRIMARY KEY AUTOINCREMENT, project_id TEXT NOT NULL, endpoint_id TEXT,
        ts INTEGER NOT NULL, method TEXT NOT NULL, target TEXT NOT NULL, headers TEXT NOT NULL, body BLOB,
        status INTEGER NOT NULL, duration_ms REAL NOT NULL, starred INTEGER NOT NULL DEFAULT 0,
        truncated INTEGER NOT NULL DEFAULT 0, res_id INTEGER, res_headers TEXT, res_body BLOB);
      ${sql}
    `);
    old.pragma(`user_version = ${version}`);
    old.close();
    return file;
  };

  /** The tables beside `requests` that schemas 5 and 6 had, and the start of an INSERT of a record. */
  const SCHEMA_5_TABLES = `CREATE TABLE responses (id INTEGER PRIMARY KEY, hash TEXT, headers TEXT NOT NULL, body BLOB);
      CREATE UNIQUE INDEX responses_hash ON responses (hash);
      CREATE TABLE spool (key TEXT PRIMARY KEY, offset INTEGER NOT NULL) WITHOUT ROWID;
      INSERT INTO requests (project_id, ts, method, target, headers, status, duration_ms, res_headers, res_body)`;

  /** A log of schema 6 or 7 (variations logged) holding one record: `values` of SCHEMA_5_TABLES' INSERT. */
  const variationsLog = (version: number, values: string): string =>
    oldLog(
      version,
      `ALTER TABLE requests ADD COLUMN variation_id TEXT; ALTER TABLE requests ADD COLUMN variation_name TEXT;
      ${SCHEMA_5_TABLES} VALUES ${values};`,
    );

  /** Logs records the way a server does (spool frame), and expands them into the database. */
  const logThroughSpool = (db: RequestDatabase, ...records: NewRequestRecord[]): void => {
    const writer = new SpoolWriter(db.spoolDir, 'p', { rotateAfter: 1e9 });
    const batch = new RecordBatch();
    for (const r of records) batch.add(r);
    writer.write(batch, 1000);
    writer.close();
    db.expand();
  };

  it('upgrades a schema 9 log keeping its records: no delay or fault for them, logged for new ones', () => {
    const file = variationsLog(
      9,
      `('p', 7, 'GET', '/before', '', 200, 1, '{}', 'old');
      ALTER TABLE requests ADD COLUMN protocol TEXT; ALTER TABLE requests ADD COLUMN client_address TEXT;
      ALTER TABLE requests ADD COLUMN contract TEXT; ALTER TABLE requests ADD COLUMN contract_ok INTEGER;`,
    );
    const db = new RequestDatabase(file, spoolDirOf(file));
    try {
      assert.equal(db.connection.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      const [old] = db.list('p', parseRequestFilters({}));
      assert.deepEqual([old!.path, 'delayMs' in old!, 'fault' in old!], ['/before', false, false]);
      logThroughSpool(db, record(1, { delayMs: 321 }), record(2, { fault: 'reset', status: 0 }));
      const [faulted, delayed] = db.list('p', parseRequestFilters({}));
      assert.deepEqual([delayed!.delayMs, delayed!.fault], [321, undefined]);
      assert.deepEqual([faulted!.delayMs, faulted!.fault, faulted!.status], [undefined, 'reset', 0]);
    } finally {
      db.close();
    }
  });

  it('upgrades a schema 8 log keeping its records: not checked against a contract, and verdicts stored from then on', () => {
    const file = variationsLog(
      8,
      `('p', 7, 'GET', '/pets/1', '', 200, 1, '{}', '{"id":"x"}'), ('p', 8, 'GET', '/pets/2', '', 200, 1, '{}', '{}');
      ALTER TABLE requests ADD COLUMN protocol TEXT; ALTER TABLE requests ADD COLUMN client_address TEXT;
      UPDATE requests SET protocol = 'h2', client_address = '192.0.2.1'`,
    );
    const db = new RequestDatabase(file, spoolDirOf(file));
    try {
      assert.equal(db.connection.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      const [second, first] = db.list('p', parseRequestFilters({}));
      assert.deepEqual(
        [first!.path, first!.response.body, first!.protocol, first!.clientAddress, 'contract' in first!],
        ['/pets/1', '{"id":"x"}', 'h2', '192.0.2.1', false],
      );
      const failing = { ok: false, violations: [] };
      storeVerdicts(db.connection, [{ id: first!.id, verdict: failing }]);
      assert.deepEqual(db.get(first!.id)?.contract, failing);
      assert.deepEqual(
        db.list('p', parseRequestFilters({ violations: true })).map((r) => r.id),
        [first!.id],
      );
      assert.equal(db.get(second!.id)?.contract, undefined);
    } finally {
      db.close();
    }
  });

  it('upgrades a schema 7 log keeping its records: protocol and client unknown for them, logged for new ones', () => {
    const file = variationsLog(7, "('p', 7, 'GET', '/before', '', 200, 1, '{}', 'old')");
    const db = new RequestDatabase(file, spoolDirOf(file));
    try {
      assert.equal(db.connection.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      const [old] = db.list('p', parseRequestFilters({}));
      assert.deepEqual(
        [old!.path, old!.response.body, old!.protocol, old!.clientAddress],
        ['/before', 'old', null, null],
      );
      logThroughSpool(
        db,
        record(1, {
          httpMajor: 2,
          remoteAddress: '127.0.0.1',
          rawHeaders: ['CF-Connecting-IP', '192.0.2.8'],
        }),
        record(2, { httpMajor: 1, remoteAddress: '127.0.0.1' }),
      );
      const [second, first] = db.list('p', parseRequestFilters({}));
      assert.deepEqual([first!.protocol, first!.clientAddress], ['h2', '192.0.2.8']);
      assert.deepEqual([second!.protocol, second!.clientAddress], ['http/1.1', '127.0.0.1']);
    } finally {
      db.close();
    }
  });

  it('upgrades a schema 6 log keeping its records: flow runs are kept beside them, and find them', () => {
    const file = variationsLog(6, "('p', 7, 'POST', '/orders', '', 202, 1, '{}', 'ok')");
    const db = new RequestDatabase(file, spoolDirOf(file));
    try {
      assert.equal(db.connection.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      const [r] = db.list('p', parseRequestFilters({}));
      assert.deepEqual([r!.path, r!.status, r!.response.body], ['/orders', 202, 'ok']);
      const runs = new FlowRunTable(db.connection);
      runs.save(
        [toRunRow(flowRun(1, { projectId: 'p', request: { method: 'POST', url: '/orders', ts: 7 } }))],
        10,
      );
      const [run] = runs.list('p', undefined, 10);
      runs.resolveRequests([run!]);
      assert.equal(run!.requestId, r!.id);
    } finally {
      db.close();
    }
  });

  it('upgrades a schema 5 log keeping its records: they answered with no variation logged', () => {
    const file = oldLog(
      5,
      `${SCHEMA_5_TABLES}
        VALUES ('p', 1, 'GET', '/old', '', 404, 1, '{}', 'gone');`,
    );
    const db = new RequestDatabase(file, spoolDirOf(file));
    try {
      const [r] = db.list('p', parseRequestFilters({}));
      assert.deepEqual([r!.path, r!.status, r!.response.body, r!.variation], ['/old', 404, 'gone', null]);
      logThroughSpool(db, record(1, { variation: { id: 'v', name: 'new' } }));
      assert.deepEqual(db.list('p', parseRequestFilters({}))[0]!.variation, { id: 'v', name: 'new' });
    } finally {
      db.close();
    }
  });

  it('upgrades a schema 4 log keeping its records, and refuses a log it cannot read, untouched', () => {
    const file = oldLog(
      4,
      `CREATE TABLE responses (id INTEGER PRIMARY KEY, headers TEXT NOT NULL, body BLOB);
      CREATE TABLE pending (id INTEGER PRIMARY KEY AUTOINCREMENT, project_id TEXT NOT NULL, n INTEGER NOT NULL,
        keep INTEGER NOT NULL, data TEXT NOT NULL);
      CREATE TABLE spool (key TEXT PRIMARY KEY, offset INTEGER NOT NULL) WITHOUT ROWID;
      INSERT INTO responses (id, headers, body) VALUES (1, '{"Y":"2"}', 'old body');
      INSERT INTO requests (project_id, ts, method, target, headers, status, duration_ms, res_id)
        VALUES ('p', 1, 'GET', '/old', '', 200, 1, 1);`,
    );
    const db = new RequestDatabase(file, spoolDirOf(file));
    try {
      assert.deepEqual(db.list('p', parseRequestFilters({}))[0]!.response, {
        status: 200,
        headers: { Y: '2' },
        body: 'old body',
      });
    } finally {
      db.close();
    }
    assert.equal(db2Variation(file), null, 'a record logged before variations were: none');
    for (const version of [2, 99]) {
      const other = join(dir, `v${version}.db`);
      const raw = new Database(other);
      raw.exec('CREATE TABLE requests (id INTEGER PRIMARY KEY, x TEXT)');
      raw.pragma(`user_version = ${version}`);
      raw.close();
      const before = readFileSync(other);
      assert.throws(
        () => new RequestDatabase(other, spoolDirOf(other)),
        (e: unknown) =>
          e instanceof MockdevError && e.code === 'UNSUPPORTED_VERSION' && /schema/.test(e.message),
      );
      assert.deepEqual(readFileSync(other), before, 'the file is untouched');
    }
  });
});
