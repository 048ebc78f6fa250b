import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseRequestFilters, parseStatusFilter } from '../core/model/request.js';
import { RequestLogWriter } from './request-log-writer.js';
import { record } from '../../test/helpers/records.js';
import { headersObject, parseQuery, RequestLog } from './request-log.js';

const dir = mkdtempSync(join(tmpdir(), 'mockdev-log-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const rec = record;

describe('request log store', () => {
  it('writes batches of any size and reads records back in the DECISIONS shape', () => {
    const log = new RequestLog(join(dir, 'a.db'));
    try {
      log.insert(Array.from({ length: 75 }, (_, i) => rec('p1', i))); // 64 + 8 + 1 + 1 + 1
      assert.equal(log.count('p1'), 75);
      const [newest] = log.list('p1', parseRequestFilters({ limit: 1 }));
      assert.equal(newest!.path, '/r/74');
      assert.deepEqual(newest!.query, { n: '74' });
      assert.deepEqual(newest!.headers, { Host: 'x', Accept: 'a, b' });
      assert.equal(newest!.timestamp, new Date(1_700_000_000_074).toISOString());
      assert.deepEqual(newest!.response, {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      assert.equal(log.get(newest!.id)!.id, newest!.id);
      assert.equal(log.get('0'), undefined);
      assert.equal(log.get('-1'), undefined);
    } finally {
      log.close();
    }
  });

  it('keeps the newest records per project, dropping the oldest unstarred first', () => {
    const log = new RequestLog(join(dir, 'b.db'));
    try {
      log.insert(Array.from({ length: 10 }, (_, i) => rec('p1', i)));
      log.insert([rec('other', 0)]);
      const oldest = log.list('p1', parseRequestFilters({ limit: 100 })).at(-1)!;
      log.setStarred(oldest.id, true);
      const w = new RequestLogWriter(log, { projectId: 'p1', limit: 5 });
      for (let i = 10; i < 14; i++) w.push(rec('p1', i));
      w.close();
      const left = log.list('p1', parseRequestFilters({ limit: 100 }));
      assert.equal(left.length, 5);
      assert.ok(
        left.some((r) => r.id === oldest.id && r.starred),
        'the starred record survives',
      );
      assert.deepEqual(
        left.filter((r) => !r.starred).map((r) => r.path),
        ['/r/13', '/r/12', '/r/11', '/r/10'],
      );
      assert.equal(log.count('other'), 1, 'other projects untouched');
    } finally {
      log.close();
    }
  });

  it('spools each batch and any reader expands it, with stable ids', () => {
    const file = join(dir, 'c.db');
    const server = new RequestLog(file);
    const cli = new RequestLog(file);
    try {
      const w = new RequestLogWriter(server, { projectId: 'p', limit: 100, idleExpandMs: 60_000 });
      for (let i = 0; i < 3; i++) w.push(rec('p', i));
      w.flushNow();
      for (let i = 3; i < 5; i++) w.push(rec('p', i));
      w.flushNow();
      assert.equal(server.pendingCount(), 5, 'two spooled batches, not yet records');
      const listed = cli.list('p', parseRequestFilters({ limit: 100 }));
      assert.deepEqual(
        listed.map((r) => r.path),
        ['/r/4', '/r/3', '/r/2', '/r/1', '/r/0'],
      );
      assert.equal(cli.pendingCount(), 0);
      const ids = listed.map((r) => Number(r.id));
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => b - a),
        'ids follow the write order',
      );
      assert.equal(server.get(listed[2]!.id)!.path, '/r/2', 'the same id from any connection');
      assert.equal(cli.clear('p'), 5);
      w.push(rec('p', 5));
      w.close();
      assert.equal(server.count('p'), 1);
    } finally {
      server.close();
      cli.close();
    }
  });

  it('applies retention when expanding; batches beyond the limit are dropped', () => {
    const log = new RequestLog(join(dir, 'e.db'));
    try {
      log.insert([rec('p', 0), rec('p', 1)]);
      const starred = log.list('p', parseRequestFilters({ limit: 100 })).at(-1)!;
      log.setStarred(starred.id, true);
      const w = new RequestLogWriter(log, { projectId: 'p', limit: 4, idleExpandMs: 60_000 });
      for (let batch = 0; batch < 5; batch++) {
        for (let i = 0; i < 3; i++) w.push(rec('p', 10 + batch * 3 + i));
        w.flushNow();
      }
      assert.equal(log.expand(), 6, 'only the two newest batches are decoded and inserted');
      const left = log.list('p', parseRequestFilters({ limit: 100 }));
      assert.deepEqual(
        left.map((r) => r.path),
        ['/r/24', '/r/23', '/r/22', '/r/0'],
      );
      assert.ok(left.at(-1)!.starred);
      w.close();
    } finally {
      log.close();
    }
  });

  it('expands when idle; under load deletes the spool files retention would drop', async () => {
    const log = new RequestLog(join(dir, 'f.db'));
    try {
      const idle = new RequestLogWriter(log, { projectId: 'p', limit: 100, idleExpandMs: 20 });
      idle.push(rec('p', 0));
      idle.flushNow();
      assert.equal(log.pendingCount(), 1);
      const deadline = Date.now() + 10_000;
      while (log.pendingCount() > 0 && Date.now() < deadline) await sleep(10);
      assert.equal(log.pendingCount(), 0, 'expanded once idle');
      idle.close();
      const busy = new RequestLogWriter(log, {
        projectId: 'q',
        limit: 4,
        idleExpandMs: 60_000,
        trimAfter: 3,
      });
      for (let batch = 0; batch < 3; batch++) {
        for (let i = 0; i < 3; i++) busy.push(rec('q', batch * 3 + i));
        busy.flushNow();
      }
      assert.equal(log.pendingCount(), 6, 'under load: the oldest spool file, beyond the limit, was deleted');
      busy.close();
      assert.deepEqual(
        log.list('q', parseRequestFilters({ limit: 100 })).map((r) => r.path),
        ['/r/8', '/r/7', '/r/6', '/r/5'],
      );
    } finally {
      log.close();
    }
  });

  it('keeps bodies byte for byte through a spooled batch; shared responses stay valid', () => {
    const file = join(dir, 'g.db');
    const server = new RequestLog(file);
    const other = new RequestLog(file);
    try {
      const shared = { headersJson: '{"X":"1"}', body: Buffer.from('{"shared":"é"}') };
      const w = new RequestLogWriter(server, { projectId: 'p', limit: 100, idleExpandMs: 60_000 });
      w.push(rec('p', 0, { body: Buffer.from('naïve \n "q" ✓'), resBody: 'ünïcode ✓', method: 'POST' }));
      w.push(rec('p', 1, { shared }));
      w.flushNow();
      const [second, first] = other.list('p', parseRequestFilters({ limit: 2 }));
      assert.equal(first!.body, 'naïve \n "q" ✓');
      assert.equal(first!.response.body, 'ünïcode ✓');
      assert.deepEqual(second!.response, { status: 200, headers: { X: '1' }, body: '{"shared":"é"}' });
      // Another server starting collects unreferenced responses; the cached id must not dangle.
      other.clear('p');
      other.collectResponses();
      w.push(rec('p', 2, { shared }));
      w.close();
      assert.equal(other.list('p', parseRequestFilters({ limit: 1 }))[0]!.response.body, '{"shared":"é"}');
    } finally {
      server.close();
      other.close();
    }
  });

  it('drops the tables of a pre-release schema (2) on open', () => {
    const file = join(dir, 'h.db');
    const old = new Database(file);
    old.exec('CREATE TABLE requests (id INTEGER PRIMARY KEY, x TEXT); CREATE TABLE deletions (p TEXT)');
    old.pragma('user_version = 2');
    old.close();
    const log = new RequestLog(file);
    try {
      log.insert([rec('p', 1)]);
      assert.equal(log.count('p'), 1);
      assert.equal(log.pendingCount(), 0);
    } finally {
      log.close();
    }
  });

  it('filters by method, status ranges and starred; deletes all-or-nothing', () => {
    const log = new RequestLog(join(dir, 'd.db'));
    try {
      log.insert([
        rec('p', 1, { status: 404 }),
        rec('p', 2, { method: 'POST', status: 201 }),
        rec('p', 3, { status: 503 }),
      ]);
      const f = (x: Parameters<typeof parseRequestFilters>[0]) =>
        log.list('p', parseRequestFilters(x)).map((r) => r.status);
      assert.deepEqual(f({ status: '4xx' }), [404]);
      assert.deepEqual(f({ status: '201,503' }), [503, 201]);
      assert.deepEqual(f({ method: 'post' }), [201]);
      assert.deepEqual(f({ starred: true }), []);
      const ids = log.list('p', parseRequestFilters({})).map((r) => r.id);
      assert.deepEqual(log.deleteIds([ids[0]!, '424242']), { deleted: [], missing: ['424242'] });
      assert.deepEqual(log.deleteIds([ids[0]!]), { deleted: [ids[0]], missing: [] });
    } finally {
      log.close();
    }
  });

  it('parses status filters and rejects bad ones', () => {
    assert.deepEqual(parseStatusFilter('404'), [{ min: 404, max: 404 }]);
    assert.deepEqual(parseStatusFilter('5XX'), [{ min: 500, max: 599 }]);
    assert.deepEqual(parseStatusFilter('200, 2xx'), [
      { min: 200, max: 200 },
      { min: 200, max: 299 },
    ]);
    for (const bad of ['', '99', '600', '4x', 'x', '200,,201'])
      assert.throws(() => parseStatusFilter(bad), /Invalid status filter/);
    assert.throws(() => parseRequestFilters({ method: 'FETCH' }), /Invalid method/);
    assert.throws(() => parseRequestFilters({ limit: 0 }), /Invalid limit/);
  });

  it('turns raw headers and queries into objects', () => {
    assert.deepEqual(parseQuery('a=1&b=2&a=3&c'), { a: ['1', '3'], b: '2', c: '' });
    assert.deepEqual(headersObject(['X', '1', 'x', '2']), { X: '1', x: '2' });
  });
});
