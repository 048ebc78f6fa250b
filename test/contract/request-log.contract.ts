import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { parseRequestFilters, type RequestFilters } from '../../src/core/model/request.js';
import type { RequestLogStore } from '../../src/core/ports.js';
import { loggedResponse, record } from '../helpers/records.js';
import { waitUntil } from '../helpers/wait.js';
import type { StoreImplementation } from './implementations.js';
import { requestLogSandbox } from './request-log-sandbox.js';

/** The RequestLogStore contract: what every implementation of the interface does. */
export function requestLogContract(impl: StoreImplementation): void {
  describe(`RequestLogStore contract: ${impl.name}`, () => {
    const box = requestLogSandbox(impl);
    let log: RequestLogStore;
    beforeEach(() => {
      log = box.log;
    });
    const again = () => box.again();
    const logged = box.logged;

    const list = (projectId: string, filters: RequestFilters = {}) =>
      log.list(projectId, parseRequestFilters({ limit: 1000, ...filters }));

    it('tells a watcher what was logged after its cursor, in every project, in brief', async () => {
      const start = await log.since(undefined, 100);
      assert.deepEqual(start.records, [], 'no history: from now on');
      const a = await logged([record(1), record(2)]);
      const b = await logged([record(3, { method: 'POST', status: 201 })]);
      const seen = await again().requests.since(start.cursor, 100);
      assert.deepEqual(
        seen.records.map((r) => [r.projectId, r.method, r.path, r.status]),
        [
          [a, 'GET', '/r/1', 200],
          [a, 'GET', '/r/2', 200],
          [b, 'POST', '/r/3', 201],
        ],
      );
      assert.deepEqual(Object.keys(seen.records[0]!).sort(), [
        'durationMs',
        'endpointId',
        'id',
        'method',
        'path',
        'projectId',
        'status',
        'timestamp',
      ]);
      const limited = await log.since(start.cursor, 2);
      assert.equal(limited.records.length, 2);
      assert.deepEqual(
        (await log.since(limited.cursor, 100)).records.map((r) => r.path),
        ['/r/3'],
      );
      assert.deepEqual((await log.since(seen.cursor, 100)).records, [], 'nothing new');
      await log.clear(a);
      await logged([record(4)]);
      assert.deepEqual(
        (await log.since(seen.cursor, 100)).records.map((r) => r.path),
        ['/r/4'],
        'ids keep growing after a clear',
      );
    });

    it('reads back what a writer wrote, newest first, in the DECISIONS shape', async () => {
      const projectId = await logged(Array.from({ length: 75 }, (_, i) => record(i)));
      const records = await list(projectId);
      assert.equal(records.length, 75);
      const newest = records[0]!;
      assert.equal(newest.path, '/r/74');
      assert.deepEqual(newest.query, { n: '74' });
      assert.deepEqual(newest.headers, { Host: 'x', Accept: 'a, b' });
      assert.equal(newest.timestamp, new Date(1_700_000_000_074).toISOString());
      assert.equal(newest.projectId, projectId);
      assert.equal(newest.endpointId, 'e1');
      assert.equal(newest.method, 'GET');
      assert.equal(newest.status, 200);
      assert.equal(newest.starred, false);
      assert.equal(newest.truncated, false);
      assert.deepEqual(newest.response, {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      const ids = records.map((r) => Number(r.id));
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => b - a),
        'ids grow in the order records were written',
      );
      assert.equal((await log.get(newest.id))?.path, '/r/74');
      for (const missing of ['0', '-1', 'abc', '999999999']) assert.equal(await log.get(missing), undefined);
    });

    it('keeps bodies byte for byte, says when one was cut short, and stores each response as given', async () => {
      const binary = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      const projectId = await logged([
        record(0, {
          method: 'POST',
          body: Buffer.from('{"name":"ü✓"}'),
          response: loggedResponse({ 'X-A': '1' }, 'created ✓', false),
        }),
        record(1, { body: binary, truncated: true, endpointId: null, status: 404 }),
        record(2, { method: 'HEAD', response: loggedResponse({ 'Content-Length': '2' }, null) }),
        record(3, { response: { ...loggedResponse({ 'X-B': '2' }, 'abc'), truncated: true } }),
      ]);
      const [head, bin, post] = (await list(projectId)).slice(1);
      const [cut] = await list(projectId, { limit: 1 });
      assert.equal(post!.body, '{"name":"ü✓"}');
      assert.deepEqual(post!.response, { status: 200, headers: { 'X-A': '1' }, body: 'created ✓' });
      assert.equal(bin!.truncated, true);
      assert.equal(bin!.endpointId, null);
      assert.equal(bin!.status, 404);
      assert.equal(bin!.body, binary.toString('utf8'));
      assert.equal(head!.response.body, '');
      assert.deepEqual(head!.response.headers, { 'Content-Length': '2' });
      assert.equal(cut!.truncated, true, 'a response cut short marks the record');
    });

    it('keeps which variation answered, with its name as it was; none for the rest', async () => {
      const missing = { id: 'v404', name: 'missing ✓' };
      const projectId = await logged([
        record(0, { status: 404, variation: missing }),
        record(1, { status: 404, endpointId: null, variation: null }),
        record(2),
        record(3, { variation: missing, method: 'HEAD', response: loggedResponse({}, null) }),
      ]);
      const records = await list(projectId);
      assert.deepEqual(
        records.map((r) => r.variation),
        [missing, null, null, missing],
      );
      assert.deepEqual((await again().requests.get(records[3]!.id))?.variation, missing);
    });

    it('shows records to readers elsewhere while the writer is still open', async () => {
      const projectId = box.newProjectId();
      const writer = log.openWriter({ projectId, limit: 1000 });
      try {
        for (let i = 0; i < 5; i++) writer.push(record(i));
        const reader = again().requests;
        await waitUntil(
          async () => (await reader.list(projectId, parseRequestFilters({ limit: 10 }))).length === 5,
          'the records to be readable',
        );
        writer.push(record(5));
        await waitUntil(
          async () => (await reader.list(projectId, parseRequestFilters({ limit: 10 }))).length === 6,
          'the next record to be readable',
        );
      } finally {
        await writer.close();
      }
      assert.equal((await list(projectId)).length, 6, 'nothing twice');
    });

    it('keeps the newest records of a project up to its limit; starred ones outlive the others', async () => {
      const projectId = await logged(Array.from({ length: 10 }, (_, i) => record(i)));
      const oldest = (await list(projectId)).at(-1)!;
      assert.equal((await log.setStarred(oldest.id, true))?.starred, true);
      const writer = log.openWriter({ projectId, limit: 5 });
      for (let i = 10; i < 14; i++) writer.push(record(i));
      await writer.close();
      const left = await list(projectId);
      assert.equal(left.length, 5);
      assert.ok(left.some((r) => r.id === oldest.id && r.starred));
      assert.deepEqual(
        left.filter((r) => !r.starred).map((r) => r.path),
        ['/r/13', '/r/12', '/r/11', '/r/10'],
      );
    });

    it('filters by method, status (exact, class, list), starred and limit', async () => {
      const projectId = await logged([
        record(0, { method: 'POST', status: 201 }),
        record(1, { status: 404 }),
        record(2, { status: 500 }),
        record(3),
      ]);
      const paths = async (f: RequestFilters) => (await list(projectId, f)).map((r) => r.path);
      assert.deepEqual(await paths({ method: 'post' }), ['/r/0']);
      assert.deepEqual(await paths({ status: '4xx' }), ['/r/1']);
      assert.deepEqual(await paths({ status: '201,5xx' }), ['/r/2', '/r/0']);
      assert.deepEqual(await paths({ limit: 2 }), ['/r/3', '/r/2']);
      const [r3] = await list(projectId, { limit: 1 });
      await log.setStarred(r3!.id, true);
      assert.deepEqual(await paths({ starred: true }), ['/r/3']);
      assert.deepEqual(await paths({ starred: false }), ['/r/2', '/r/1', '/r/0']);
      assert.equal((await log.setStarred(r3!.id, false))?.starred, false);
      assert.equal(await log.setStarred('999999999', true), undefined);
    });

    it('filters by a text the path contains, case-sensitive, never by the query', async () => {
      const projectId = await logged([
        record(0, { url: '/api/users/7?tab=orders' }),
        record(1, { url: '/api/orders?user=7' }),
        record(2, { url: '/API/Users' }),
        record(3, { url: '/health' }),
        record(4, { url: '/api/users/%C3%A9' }),
      ]);
      const paths = async (f: RequestFilters) => (await list(projectId, f)).map((r) => r.path);
      assert.deepEqual(await paths({ path: '/api/users' }), ['/api/users/%C3%A9', '/api/users/7']);
      assert.deepEqual(await paths({ path: 'orders' }), ['/api/orders'], 'not the query of /api/users/7');
      assert.deepEqual(await paths({ path: 'Users' }), ['/API/Users']);
      assert.deepEqual(await paths({ path: '%C3%A9' }), ['/api/users/%C3%A9'], 'as logged');
      assert.deepEqual(await paths({ path: 'user', method: 'POST' }), []);
      assert.deepEqual(await paths({ path: '' }), await paths({}), 'empty: any path');
      assert.deepEqual(await paths({ path: "'; DROP TABLE requests; --" }), []);
      assert.equal((await list(projectId)).length, 5);
    });

    it('deletes ids all or nothing, and clears one project only', async () => {
      const a = await logged([record(0), record(1), record(2)]);
      const b = await logged([record(0)]);
      const [r2, r1] = await list(a);
      assert.deepEqual(await log.deleteIds([r2!.id, '999999999']), { deleted: [], missing: ['999999999'] });
      assert.equal((await list(a)).length, 3);
      assert.deepEqual(await log.deleteIds([r2!.id, r1!.id]), { deleted: [r2!.id, r1!.id], missing: [] });
      assert.deepEqual(
        (await list(a)).map((r) => r.path),
        ['/r/0'],
      );
      assert.equal(await log.clear(a), 1);
      assert.equal((await list(a)).length, 0);
      assert.equal((await list(b)).length, 1);
    });

    it('keeps each project in order when several writers write at once', async () => {
      const ids = [box.newProjectId('x'), box.newProjectId('y')];
      const writers = ids.map((projectId) => log.openWriter({ projectId, limit: 1000 }));
      for (let i = 0; i < 50; i++) for (const w of writers) w.push(record(i));
      await Promise.all(writers.map((w) => w.close()));
      for (const p of ids) {
        assert.deepEqual(
          (await list(p)).map((r) => r.path),
          Array.from({ length: 50 }, (_, i) => `/r/${49 - i}`),
        );
      }
    });

    it('gives a live check the records of one project after its cursor, whole, oldest first', async () => {
      const start = await log.after('nobody', undefined, 100);
      assert.deepEqual(start.records, [], 'no cursor: nothing, and the cursor of now');
      const a = await logged([
        record(0, { method: 'POST', body: Buffer.from('{"a":1}') }),
        record(1, { truncated: true }),
        record(2),
      ]);
      const b = await logged([record(3)]);
      const first = await log.after(a, start.cursor, 2);
      assert.deepEqual(
        first.records.map((r) => [r.projectId, r.method, r.path, r.body, r.truncated]),
        [
          [a, 'POST', '/r/0', '{"a":1}', false],
          [a, 'GET', '/r/1', '', true],
        ],
      );
      assert.deepEqual(first.records[0]!.response, {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      assert.deepEqual(first.records[0]!.query, { n: '0' });
      const rest = await again().requests.after(a, first.cursor, 2);
      assert.deepEqual(
        rest.records.map((r) => r.path),
        ['/r/2'],
        'the next call goes on where the last one stopped, in any process',
      );
      assert.deepEqual((await log.after(a, rest.cursor, 2)).records, [], 'nothing new');
      assert.deepEqual(
        (await log.after(b, start.cursor, 10)).records.map((r) => [r.projectId, r.path]),
        [[b, '/r/3']],
        "another project's records are not given",
      );
      const c = box.newProjectId();
      const now = await log.after(c, undefined, 10);
      const writer = log.openWriter({ projectId: c, limit: 1000 });
      writer.push(record(4));
      await writer.close();
      assert.deepEqual(
        (await log.after(c, now.cursor, 10)).records.map((r) => r.path),
        ['/r/4'],
        'a cursor taken before a record was logged gives it',
      );
    });

    it('stores live contract verdicts with their records and lists the failing ones', async () => {
      const projectId = await logged([record(0), record(1), record(2), record(3)]);
      const [r3, r2, r1] = await list(projectId);
      const violation = {
        requestId: r2!.id,
        method: 'GET',
        path: '/r/2',
        operation: 'GET /r/{n}',
        in: 'response' as const,
        location: 'body.id',
        rule: 'type',
        message: 'body.id must be integer',
        expected: 'integer',
        actual: 'string',
        schemaPath: '#/paths/~1r~1{n}/get/responses/200/content/application~1json/schema/properties/id/type',
      };
      const failing = { ok: false, violations: [violation] };
      const passing = { ok: true, violations: [] };
      await log.setContractVerdicts([
        { id: r2!.id, verdict: failing },
        { id: r1!.id, verdict: { ...passing, notChecked: 'the request body was cut short' } },
        { id: r3!.id, verdict: failing },
        { id: '999999999', verdict: failing },
        { id: 'not-an-id', verdict: failing },
      ]);
      await log.setContractVerdicts([{ id: r3!.id, verdict: passing }]);
      await log.setContractVerdicts([]);
      const reader = again().requests;
      assert.deepEqual((await reader.get(r2!.id))?.contract, failing);
      assert.deepEqual((await reader.get(r1!.id))?.contract, {
        ok: true,
        violations: [],
        notChecked: 'the request body was cut short',
      });
      assert.deepEqual((await reader.get(r3!.id))?.contract, passing, 'a later verdict replaces one');
      const unchecked = (await list(projectId)).at(-1)!;
      assert.equal(unchecked.path, '/r/0');
      assert.equal('contract' in unchecked, false, 'not checked: no verdict');
      const paths = async (f: RequestFilters) => (await list(projectId, f)).map((r) => r.path);
      assert.deepEqual(await paths({ violations: true }), ['/r/2']);
      assert.deepEqual(await paths({ violations: false }), ['/r/3', '/r/1', '/r/0']);
      assert.deepEqual(await paths({ violations: true, method: 'POST' }), []);
      assert.deepEqual(await paths({ violations: true, limit: 1, path: '/r/2' }), ['/r/2']);
      const other = await logged([record(9)]);
      const [o] = await list(other);
      await log.setContractVerdicts([{ id: o!.id, verdict: failing }]);
      assert.deepEqual(await paths({ violations: true }), ['/r/2'], "another project's stay its own");
    });

    it('counts and reports a record that reaches a closed writer, never drops it silently', async () => {
      const warnings: string[] = [];
      const writer = log.openWriter({
        projectId: box.newProjectId(),
        limit: 10,
        onWarning: (m) => warnings.push(m),
      });
      writer.push(record(0));
      await writer.close();
      writer.push(record(1));
      assert.equal(writer.lost, 1);
      assert.match(warnings.join('\n'), /Lost 1 request log record/);
    });
  });
}
