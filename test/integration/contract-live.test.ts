/**
 * Live contract checking end to end (docs/server.md, "Live contract checking"): a real
 * `mockdev serve --contract SPEC` answers exactly as a plain `serve` does, checks each request
 * off the response path once requests stop arriving, and `requests list --violations` and
 * `requests show` give the verdicts; a stop checks what is left before it returns; a plain
 * `serve` follows project.json's `contract.live` as it is switched.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createContext } from '../../src/app/context.js';
import { importContract, setContractLive } from '../../src/app/contract.js';
import { startServer } from '../../src/app/server.js';
import { parseRequestFilters, type RequestRecord } from '../../src/core/model/request.js';
import { json } from '../helpers/cli.js';
import { PRO_ENV, proSandbox } from '../helpers/pro.js';
import { makeProject, startServe, waitUntil } from '../helpers/server.js';

/** OpenAPI 3.0: pets (a bounded `limit`), one pet, and owners whose `id` is an integer. */
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1.2.0' },
  paths: {
    '/pets': {
      get: {
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', maximum: 100 } }],
        responses: {
          200: {
            description: 'pets',
            content: {
              'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } },
            },
          },
        },
      },
    },
    '/pets/{petId}': {
      get: {
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          200: {
            description: 'a pet',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
          },
        },
      },
    },
    '/owners/{ownerId}': {
      get: {
        parameters: [{ name: 'ownerId', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          200: {
            description: 'an owner',
            content: {
              'application/json': {
                schema: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
              },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Pet: {
        type: 'object',
        required: ['id', 'name'],
        properties: { id: { type: 'integer' }, name: { type: 'string' } },
      },
    },
  },
};

const ENDPOINTS = [
  { path: '/pets', body: '[{"id":1,"name":"Rex"}]', headers: { 'X-Kind': 'list' } },
  { path: '/pets/:petId', body: '{"id":1,"name":"Rex"}' },
  { path: '/owners/:ownerId', body: '{"id":"not a number"}' },
];

/** The traffic: two requests that keep to the contract, three that do not. */
const TRAFFIC = ['/pets/1', '/pets?limit=5', '/pets?limit=500', '/owners/7', '/nothing'];

interface Answer {
  status: number;
  body: string;
  headers: [string, string][];
}

/** Sends the traffic in order; each answer without its Date header. */
async function send(url: string): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const path of TRAFFIC) {
    const res = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(10_000) });
    answers.push({
      status: res.status,
      body: await res.text(),
      headers: [...res.headers].filter(([k]) => k !== 'date' && k !== 'keep-alive' && k !== 'connection'),
    });
  }
  return answers;
}

const verdictsByPath = (records: RequestRecord[]) =>
  Object.fromEntries(
    records.map((r) => [
      `${r.path}${r.query.limit ? `?limit=${String(r.query.limit)}` : ''}`,
      r.contract && {
        ok: r.contract.ok,
        // where an unknown operation is said to be is the engine's to word
        found: r.contract.violations.map((v) =>
          v.rule === 'unknown-operation' ? `${v.in} ${v.rule}` : `${v.in} ${v.location} ${v.rule}`,
        ),
      },
    ]),
  );

const proEnv = { MOCKDEV_LICENSE_PUBLIC_KEY: PRO_ENV.MOCKDEV_LICENSE_PUBLIC_KEY };

describe('serve --contract (live checking)', () => {
  it('answers as a plain serve does, checks each request once requests stop, and lists and shows the failing ones', async (t) => {
    const box = await proSandbox(t);
    await makeProject(box.dataDir, 'pets', ENDPOINTS);
    const spec = join(box.dir, 'openapi.json');
    writeFileSync(spec, JSON.stringify(SPEC));
    const list = async (...args: string[]) =>
      json<RequestRecord[]>(await box.cli(['requests', 'list', 'pets', '--json', ...args], { env: proEnv }));

    const plain = await startServe(['pets'], { dataDir: box.dataDir, cwd: box.dir, env: proEnv });
    box.defer(() => plain.stop());
    const plainAnswers = await send(plain.url);
    assert.equal(await plain.stop(), 0);

    const live = await startServe(['pets', '--contract', 'openapi.json'], {
      dataDir: box.dataDir,
      cwd: box.dir,
      env: proEnv,
    });
    box.defer(() => live.stop());
    // Said after the serving line, once the document is compiled: waited for, not read at once.
    await waitUntil(
      async () => /Checking each request against .*openapi\.json/.test(live.stdout()),
      'the checking line',
    );
    assert.deepEqual(await send(live.url), plainAnswers, 'the mock answers exactly as without checking');

    // While it serves: checked once requests stop arriving.
    const failing = await waitUntil(async () => {
      const r = await list('--violations');
      return r.length === 3 && r;
    }, 'the 3 failing requests to be listed');
    assert.deepEqual(verdictsByPath(failing), {
      '/nothing': { ok: false, found: ['request unknown-operation'] },
      '/owners/7': { ok: false, found: ['response body.id type'] },
      '/pets?limit=500': { ok: false, found: ['request query.limit maximum'] },
    });
    const all = await list();
    assert.equal(all.length, 10);
    assert.deepEqual(
      all.slice(5).map((r) => r.contract),
      [undefined, undefined, undefined, undefined, undefined],
      "the plain serve's requests, logged before checking started, are not checked",
    );
    assert.deepEqual(
      all.slice(0, 5).map((r) => r.contract?.ok),
      [false, false, false, true, true],
    );

    const owner = failing.find((r) => r.path === '/owners/7')!;
    const shown = await box.cli(['requests', 'show', owner.id], { env: proEnv });
    assert.match(shown.stdout, /contract:\s+failed: 1 violation/);
    assert.match(
      shown.stdout,
      /Contract violations \(GET \/owners\/\{ownerId\}\):\n {2}response body\.id: .+ \[type\]/,
    );
    assert.match(shown.stdout, /at #\/paths\/~1owners~1\{ownerId\}\/get\/responses\/200\//);
    assert.equal(await live.stop(), 0);
  });

  it("checks every request logged before a stop returns, and follows project.json's live setting", async (t) => {
    const box = await proSandbox(t);
    await makeProject(box.dataDir, 'pets', ENDPOINTS);
    const ctx = createContext({ dataDir: box.dataDir, cwd: box.dir, env: proEnv });
    box.defer(() => ctx.close());
    await importContract(ctx, 'pets', { text: JSON.stringify(SPEC) });

    // `--contract` with the stored contract: 60 requests, then a stop at once.
    let server = await startServer(ctx, { project: 'pets', port: 0, contract: true });
    box.defer(() => server.stop());
    for (let i = 0; i < 60; i++) await (await fetch(`${server.url}/pets/${i % 2 ? 'x' : i}`)).text();
    await server.stop();
    const stored = await ctx.requests.list(server.project.id, parseRequestFilters({ limit: 100 }));
    assert.equal(stored.length, 60);
    assert.equal(stored.filter((r) => r.contract).length, 60, 'every record checked when stop returns');
    assert.equal(stored.filter((r) => r.contract?.ok === false).length, 30, '/pets/x: petId is no integer');

    // A plain serve: checks only while project.json says live, switched while it runs.
    const infos: string[] = [];
    server = await startServer(ctx, { project: 'pets', port: 0, logger: { info: (m) => infos.push(m) } });
    assert.equal(server.contract(), undefined, 'live is off');
    await setContractLive(ctx, 'pets', true);
    await waitUntil(() => server.contract(), 'the server to check against the stored contract');
    assert.match(infos.join('\n'), /Checking requests against/);
    await (await fetch(`${server.url}/owners/1`)).text();
    await setContractLive(ctx, 'pets', false);
    await waitUntil(() => server.contract() === undefined, 'the server to stop checking');
    await (await fetch(`${server.url}/owners/2`)).text();
    await server.stop();
    const [second, first] = await ctx.requests.list(server.project.id, parseRequestFilters({ limit: 2 }));
    assert.equal(first!.path, '/owners/1');
    assert.equal(first!.contract?.ok, false, 'checked while live was on');
    assert.equal(second!.contract, undefined, 'not checked once it was off');
  });
});
