import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { after, describe, it } from 'node:test';
import { parseRequestFilters } from '../core/model/request.js';
import { PendingBatch } from './request-log-pending.js';
import type { NewRequestRecord } from './request-log-rows.js';
import { RequestLogWriter } from './request-log-writer.js';
import { RequestLog } from './request-log.js';
import { spoolDirOf, SpoolWriter } from './request-spool.js';
import { record } from '../../test/helpers/records.js';

const dir = mkdtempSync(join(tmpdir(), 'mockdev-spool-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const shared = { headersJson: '{"Content-Type":"application/json"}', body: Buffer.from('{"ok":true}') };
const rec = (projectId: string, n: number) => record(projectId, n, { shared });

const paths = (log: RequestLog, projectId: string) =>
  log.list(projectId, parseRequestFilters({ limit: 1000 })).map((r) => r.path);

/** A spool file as a writer that is gone would leave it: header, whole frames, a cut tail. */
function spoolFileOf(pid: number, projectId: string, frames: Buffer[]): Buffer {
  const json = Buffer.from(JSON.stringify({ projectId, pid }));
  const len = Buffer.alloc(4);
  len.writeUInt32LE(json.length);
  return Buffer.concat([Buffer.from('MDSPOOL1'), len, json, ...frames]);
}
const frameOf = (records: NewRequestRecord[], keep = 100): Buffer => {
  const batch = new PendingBatch();
  for (const r of records) batch.add(r);
  return Buffer.from(batch.frame(keep));
};
const deadPid = (): number => spawnSync(process.execPath, ['-e', '0']).pid!;

describe('request spool', () => {
  it('readers expand a running writer’s file as it grows, never twice; a stop leaves no file', () => {
    const file = join(dir, 'a.db');
    const server = new RequestLog(file);
    const cli = new RequestLog(file);
    try {
      const w = new RequestLogWriter(server, { projectId: 'p', limit: 100, idleExpandMs: 60_000 });
      for (let i = 0; i < 3; i++) w.push(rec('p', i));
      w.flushNow();
      const spool = spoolDirOf(file);
      assert.deepEqual(
        readdirSync(spool).map((n) => n.slice(n.lastIndexOf('.'))),
        ['.open'],
      );
      assert.deepEqual(paths(cli, 'p'), ['/r/2', '/r/1', '/r/0']);
      for (let i = 3; i < 5; i++) w.push(rec('p', i));
      w.flushNow();
      assert.equal(cli.pendingCount(), 2, 'only the new frame is pending');
      assert.deepEqual(paths(cli, 'p'), ['/r/4', '/r/3', '/r/2', '/r/1', '/r/0']);
      assert.equal(cli.expand(), 0, 'nothing expanded twice');
      assert.equal(readdirSync(spool).length, 1, 'the running writer’s file stays');
      w.push(rec('p', 5));
      w.close();
      assert.deepEqual(readdirSync(spool), [], 'a stopped writer’s file is deleted once read');
      assert.deepEqual(paths(cli, 'p'), ['/r/5', '/r/4', '/r/3', '/r/2', '/r/1', '/r/0']);
      const ids = cli.list('p', parseRequestFilters({ limit: 10 })).map((r) => Number(r.id));
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => b - a),
        'ids follow the write order',
      );
    } finally {
      server.close();
      cli.close();
    }
  });

  it('starts a new file after so many bytes; readers delete the finished files they read', () => {
    const file = join(dir, 'f.db');
    const log = new RequestLog(file);
    try {
      const writer = new SpoolWriter(spoolDirOf(file), 'p', { rotateAfter: 1e9, rotateAfterBytes: 1 });
      const batch = new PendingBatch();
      for (let i = 0; i < 3; i++) {
        batch.add(rec('p', i));
        writer.write(batch, 100);
      }
      assert.deepEqual(
        readdirSync(spoolDirOf(file)).map((n) => n.slice(n.lastIndexOf('.'))),
        ['.spool', '.spool', '.spool'],
      );
      assert.deepEqual(paths(log, 'p'), ['/r/2', '/r/1', '/r/0']);
      assert.deepEqual(readdirSync(spoolDirOf(file)), []);
      writer.close();
    } finally {
      log.close();
    }
  });

  it('keeps the order of each project when several servers spool at once', () => {
    const file = join(dir, 'b.db');
    const a = new RequestLog(file);
    const b = new RequestLog(file);
    const reader = new RequestLog(file);
    try {
      const wa = new RequestLogWriter(a, { projectId: 'pa', limit: 100, idleExpandMs: 60_000 });
      const wb = new RequestLogWriter(b, { projectId: 'pb', limit: 100, idleExpandMs: 60_000 });
      for (let i = 0; i < 6; i++) {
        wa.push(rec('pa', i));
        wb.push(rec('pb', 100 + i));
        if (i % 2) {
          wa.flushNow();
          wb.flushNow();
        }
        if (i === 3) assert.equal(reader.count('pa'), 4);
      }
      wa.close();
      wb.close();
      assert.deepEqual(paths(reader, 'pa'), ['/r/5', '/r/4', '/r/3', '/r/2', '/r/1', '/r/0']);
      assert.deepEqual(paths(reader, 'pb'), ['/r/105', '/r/104', '/r/103', '/r/102', '/r/101', '/r/100']);
    } finally {
      a.close();
      b.close();
      reader.close();
    }
  });

  it('reads the whole frames of a writer that died, drops its cut-off tail and deletes the file', () => {
    const file = join(dir, 'c.db');
    const spool = spoolDirOf(file);
    mkdirSync(spool, { recursive: true });
    const cut = frameOf([rec('p', 9)]);
    writeFileSync(
      join(spool, '000000001-1-000001.open'),
      spoolFileOf(deadPid(), 'p', [frameOf([rec('p', 0), rec('p', 1)]), cut.subarray(0, cut.length - 5)]),
    );
    const log = new RequestLog(file);
    try {
      assert.equal(log.pendingCount(), 2);
      assert.deepEqual(paths(log, 'p'), ['/r/1', '/r/0']);
      assert.deepEqual(readdirSync(spool), []);
      assert.equal(log.expand(), 0);
    } finally {
      log.close();
    }
  });

  it('a damaged spool file does not block the log: its whole frames are read, the rest dropped', () => {
    const file = join(dir, 'd.db');
    const spool = spoolDirOf(file);
    mkdirSync(spool, { recursive: true });
    writeFileSync(
      join(spool, '000000001-1-000001.spool'),
      spoolFileOf(process.pid, 'p', [frameOf([rec('p', 0)]), Buffer.alloc(40, 0xab)]),
    );
    writeFileSync(join(spool, '000000001-1-000002.spool'), 'not a spool file');
    const log = new RequestLog(file);
    try {
      assert.deepEqual(paths(log, 'p'), ['/r/0']);
      assert.equal(log.damagedBatches, 1);
      assert.deepEqual(readdirSync(spool), ['000000001-1-000002.spool'], 'a foreign file is left alone');
    } finally {
      log.close();
    }
  });

  it('upgrades a schema 3 log: its records and pending rows are kept', () => {
    const file = join(dir, 'e.db');
    const old = new Database(file);
    old.exec(`
      CREATE TABLE requests (id INTEGER PRIMARY KEY AUTOINCREMENT, project_id TEXT NOT NULL, endpoint_id TEXT,
        ts INTEGER NOT NULL, method TEXT NOT NULL, target TEXT NOT NULL, headers TEXT NOT NULL, body BLOB,
        status INTEGER NOT NULL, duration_ms REAL NOT NULL, starred INTEGER NOT NULL DEFAULT 0,
        truncated INTEGER NOT NULL DEFAULT 0, res_id INTEGER, res_headers TEXT, res_body BLOB);
      CREATE TABLE responses (id INTEGER PRIMARY KEY, headers TEXT NOT NULL, body BLOB);
      CREATE TABLE pending (id INTEGER PRIMARY KEY AUTOINCREMENT, project_id TEXT NOT NULL, n INTEGER NOT NULL,
        keep INTEGER NOT NULL, data TEXT NOT NULL);
      INSERT INTO requests (project_id, ts, method, target, headers, status, duration_ms, res_headers)
        VALUES ('p', 1, 'GET', '/old', '', 200, 1, '{}');
    `);
    old
      .prepare('INSERT INTO pending (project_id, n, keep, data) VALUES (?, ?, ?, ?)')
      .run(
        'p',
        1,
        100,
        JSON.stringify([[null, 2, 'GET', '/pending', [], null, 200, 1, 0, null, '{}', null]]),
      );
    old.pragma('user_version = 3');
    old.close();
    const log = new RequestLog(file);
    try {
      assert.deepEqual(paths(log, 'p'), ['/pending', '/old']);
    } finally {
      log.close();
    }
  });
});
