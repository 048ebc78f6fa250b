/**
 * What the CLI shows of live contract verdicts (docs/server.md, "Live contract checking"):
 * `requests list --violations` and `requests show`, over records a server logged and verdicts
 * stored as a live check stores them; and what `serve --contract` refuses before it serves.
 * The check itself, end to end: contract-live.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createContext } from '../../src/app/context.js';
import { startServer } from '../../src/app/server.js';
import type { ContractViolation } from '../../src/core/model/contract.js';
import type { RequestRecord } from '../../src/core/model/request.js';
import { assertCliError, json } from '../helpers/cli.js';
import { cliSandbox, type AfterHook } from '../helpers/cli-inprocess.js';
import { proSandbox } from '../helpers/pro.js';
import { makeProject, waitUntil } from '../helpers/server.js';

const violation = (requestId: string, extra: Partial<ContractViolation> = {}): ContractViolation => ({
  requestId,
  method: 'GET',
  path: '/pets/1',
  operation: 'GET /pets/{petId}',
  in: 'response',
  location: 'body.id',
  rule: 'type',
  message: 'body.id must be integer',
  expected: 'integer',
  actual: 'string',
  schemaPath: '#/paths/~1pets~1{petId}/get/responses/200/content/application~1json/schema/properties/id/type',
  ...extra,
});

/** Project "pets" served in-process, three requests logged (newest first in `ids`), verdicts stored for two. */
async function checked(t: AfterHook) {
  const sandbox = cliSandbox(t);
  await makeProject(sandbox.dataDir, 'pets', [
    { path: '/pets/:id', body: '{"id":"x"}' },
    { path: '/health', body: 'ok' },
  ]);
  const ctx = createContext({ dataDir: sandbox.dataDir, cwd: sandbox.dir });
  const server = await startServer(ctx, { project: 'pets', port: 0 });
  sandbox.defer(async () => {
    await server.stop();
    ctx.close();
  });
  for (const path of ['/health', '/pets/1', '/pets/2'])
    await (await fetch(`${server.url}${path}`, { signal: AbortSignal.timeout(10_000) })).text();
  const list = async (...args: string[]) =>
    json<RequestRecord[]>(await sandbox.cli(['requests', 'list', 'pets', '--json', ...args]));
  const ids = await waitUntil(async () => {
    const records = await list();
    return records.length === 3 && records.map((r) => r.id);
  }, 'the 3 requests in the log');
  const failing = {
    ok: false,
    violations: [
      violation(ids[1]!),
      violation(ids[1]!, {
        in: 'response',
        location: 'header.x-rate-limit',
        rule: 'required',
        message: 'the response has no header x-rate-limit',
        schemaPath: '#/paths/~1pets~1{petId}/get/responses/200/headers/x-rate-limit/required',
      }),
    ],
  };
  await ctx.requests.setContractVerdicts([
    { id: ids[1]!, verdict: failing },
    { id: ids[0]!, verdict: { ok: true, violations: [] } },
  ]);
  return { ...sandbox, ids, list, failing };
}

describe('requests list --violations, requests show (live contract verdicts)', () => {
  it('lists only the failing requests, and says which were checked', async (t) => {
    const { cli, ids, list, failing } = await checked(t);
    const only = await list('--violations');
    assert.deepEqual(
      only.map((r) => [r.id, r.path, r.contract]),
      [[ids[1], '/pets/1', failing]],
    );
    assert.deepEqual(
      (await list('--violations', '-m', 'POST')).map((r) => r.id),
      [],
    );
    const table = await cli(['requests', 'list', 'pets']);
    assert.equal(table.code, 0, table.stderr);
    const rows = table.stdout.split('\n');
    assert.match(rows[0]!, /CONTRACT/);
    assert.match(
      rows.find((l) => l.includes('/pets/2'))!,
      /\bok\s*$/,
    );
    assert.match(
      rows.find((l) => l.includes('/pets/1'))!,
      /2 violations\s*$/,
    );
    assert.match(
      rows.find((l) => l.includes('/health'))!,
      /\/health\s+200\s+[\d.]+\s*$/,
      'not checked: blank',
    );
    const none = await cli(['requests', 'list', 'pets', '--violations', '--path', '/health']);
    assert.match(none.stdout, /No logged requests match these filters \(--path \/health, --violations\)/);
  });

  it('shows the violations of a request, and its verdict in --json', async (t) => {
    const { cli, ids, failing } = await checked(t);
    const shown = await cli(['requests', 'show', ids[1]!]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /contract:\s+failed: 2 violations/);
    assert.match(shown.stdout, /Contract violations \(GET \/pets\/\{petId\}\):/);
    assert.match(shown.stdout, /response body\.id: body\.id must be integer \[type\]/);
    assert.match(
      shown.stdout,
      /response header\.x-rate-limit: the response has no header x-rate-limit \[required\]/,
    );
    assert.match(shown.stdout, /at #\/paths\/~1pets~1\{petId\}\/get\/responses\/200\/content/);
    assert.deepEqual(
      json<RequestRecord>(await cli(['requests', 'show', ids[1]!, '--json'])).contract,
      failing,
    );
    assert.match((await cli(['requests', 'show', ids[0]!])).stdout, /contract:\s+passed/);
    const unchecked = await cli(['requests', 'show', ids[2]!]);
    assert.match(unchecked.stdout, /contract:\s+not checked/);
    assert.doesNotMatch(unchecked.stdout, /Contract violations/);
    assert.equal(
      'contract' in json<RequestRecord>(await cli(['requests', 'show', ids[2]!, '--json'])),
      false,
    );
  });
});

describe('serve --contract refusals', () => {
  it('needs Pro, and a contract to check against', async (t) => {
    const plain = cliSandbox(t);
    await makeProject(plain.dataDir, 'pets', []);
    assertCliError(
      await plain.cli(['serve', 'pets', '--contract', '-p', '0']),
      1,
      /"contract" needs a Pro license/,
    );
    const pro = await proSandbox(t);
    await makeProject(pro.dataDir, 'pets', []);
    assertCliError(
      await pro.cli(['serve', 'pets', '--contract', '-p', '0']),
      2,
      /"pets" has no contract to check requests against\. Give a document \(--contract FILE_OR_URL\), or store one with "mockdev contract import pets <URL>"/,
    );
  });
});
