/**
 * The live contract check's timing (contract-live.ts): it counts on the request path and checks
 * only when requests stop arriving, in batches; stop() checks what is left. Over a log in memory
 * that records how it is called (the end-to-end test, test/integration/contract-live.test.ts,
 * runs it in a real server over the real log).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CompiledContract } from '../core/contract/index.js';
import type { ContractVerdict, RequestResult } from '../core/model/contract.js';
import type { RequestRecord } from '../core/model/request.js';
import type { NewRequestRecord } from '../core/ports.js';
import { waitUntil } from '../../test/helpers/wait.js';
import { LiveContractCheck } from './contract-live.js';
import type { Exchange } from './exchange.js';

/** A request log in memory: `log(n)` adds records as a writer would; calls are counted. */
function memoryLog() {
  const records: RequestRecord[] = [];
  const verdicts = new Map<string, ContractVerdict>();
  const calls = { after: 0, batches: [] as number[] };
  return {
    records,
    verdicts,
    calls,
    log(n: number, path = '/pets') {
      for (let i = 0; i < n; i++) {
        const id = String(records.length + 1);
        records.push({ id, projectId: 'p', path, method: 'GET' } as RequestRecord);
      }
    },
    after(projectId: string, cursor: string | undefined, limit: number) {
      calls.after++;
      if (cursor === undefined) return Promise.resolve({ records: [], cursor: String(records.length) });
      const batch = records.filter((r) => Number(r.id) > Number(cursor)).slice(0, limit);
      calls.batches.push(batch.length);
      return Promise.resolve({ records: batch, cursor: batch.at(-1)?.id ?? cursor });
    },
    setContractVerdicts(list: { id: string; verdict: ContractVerdict }[]) {
      for (const v of list) verdicts.set(v.id, v.verdict);
      return Promise.resolve();
    },
  };
}

/** A contract that fails requests to /bad, and throws for /boom. */
const contract = (name = 'a'): CompiledContract =>
  ({
    dialect: '3.0',
    title: name,
    version: '1',
    operations: [],
    check(record: RequestRecord): RequestResult {
      if (record.path === '/boom') throw new Error('the engine broke');
      const bad = record.path === '/bad';
      return {
        requestId: record.id,
        method: record.method,
        path: record.path,
        operation: `GET ${record.path} (${name})`,
        outcome: bad ? 'failed' : 'passed',
        violations: bad
          ? [
              {
                requestId: record.id,
                method: 'GET',
                path: '/bad',
                operation: null,
                in: 'request',
                location: 'path',
                rule: 'unknown-operation',
                message: 'no operation',
                schemaPath: '#/paths',
              },
            ]
          : [],
      };
    },
  }) as CompiledContract;

/** A response as the server reports it to the hook (the check reads neither). */
const respond = (check: LiveContractCheck) => check.afterResponse({} as Exchange, {} as NewRequestRecord);

describe('live contract check', () => {
  it('checks nothing while requests keep arriving, then everything in batches once they stop', async () => {
    const mem = memoryLog();
    mem.log(3, '/before'); // logged before checking started: never checked
    const check = new LiveContractCheck({ log: mem, projectId: 'p', idleMs: 1000, batch: 4 });
    await check.use(contract());
    const afterStart = mem.calls.after;
    for (let i = 0; i < 10; i++) {
      mem.log(1, i === 3 ? '/bad' : '/pets');
      respond(check);
      await new Promise((r) => setTimeout(r, 30));
    }
    assert.equal(mem.calls.after, afterStart, 'not one read while requests arrive');
    await waitUntil(() => mem.verdicts.size === 10, 'the 10 records to be checked');
    assert.deepEqual(mem.calls.batches.slice(0, 3), [4, 4, 2], 'read in batches');
    assert.equal(mem.verdicts.get('7')?.ok, false, 'the 4th request (/bad) failed');
    assert.equal(mem.verdicts.get('7')?.violations[0]?.rule, 'unknown-operation');
    assert.equal(mem.verdicts.get('8')?.ok, true);
    for (const id of ['1', '2', '3']) assert.equal(mem.verdicts.has(id), false, 'logged before: not checked');
    await check.stop();
  });

  it('checks what is left when it stops, without waiting for an idle moment', async () => {
    const mem = memoryLog();
    const check = new LiveContractCheck({ log: mem, projectId: 'p', idleMs: 60_000, batch: 7 });
    await check.use(contract());
    mem.log(20);
    for (let i = 0; i < 20; i++) respond(check);
    assert.equal(mem.verdicts.size, 0);
    await check.stop();
    assert.equal(mem.verdicts.size, 20);
    respond(check);
    mem.log(1);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(mem.verdicts.size, 20, 'stopped: checks no more');
  });

  it('follows the contract in force: none checks nothing, a new one checks from then on', async () => {
    const mem = memoryLog();
    const warnings: string[] = [];
    const check = new LiveContractCheck({
      log: mem,
      projectId: 'p',
      idleMs: 20,
      onWarning: (m) => warnings.push(m),
    });
    mem.log(2);
    respond(check); // no contract yet: not even counted
    await check.use(contract('a'));
    mem.log(1, '/boom');
    mem.log(1);
    respond(check);
    respond(check);
    await waitUntil(() => mem.verdicts.size === 1, 'the record after /boom to be checked');
    assert.match(warnings.join('\n'), /Could not check .*the engine broke/);
    assert.equal(mem.verdicts.has('3'), false, 'a record the engine cannot check stays unchecked');
    assert.equal(mem.verdicts.has('1'), false);
    await check.use(contract('b')); // another document: goes on from where it was
    mem.log(1);
    respond(check);
    await waitUntil(() => mem.verdicts.size === 2, 'the next record to be checked by the new contract');
    mem.log(1);
    respond(check);
    await check.use(undefined); // off: what was logged while on is checked first
    assert.equal(mem.verdicts.has('6'), true);
    mem.log(1);
    respond(check);
    await check.use(contract('c')); // back on: records logged while off are not checked
    mem.log(1);
    respond(check);
    await check.stop();
    assert.deepEqual([...mem.verdicts.keys()].sort(), ['4', '5', '6', '8']);
    assert.equal(check.current?.title, 'c');
  });
});
