/**
 * Delays and faults through the CLI (issue 26): endpoint and variation add/update take `--delay
 * 250 | 100..400 | lognormal:200,0.5`, `--fault`, `--fault-rate`, `--no-fault`; show them; bad
 * input exits 2 with one line and changes nothing; `requests show` prints the delay applied and
 * the fault sent; MCP update_endpoint and the admin API take the same fields.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startServer } from '../../src/app/server.js';
import type { Endpoint, Variation } from '../../src/core/model/endpoint.js';
import type { RequestRecord } from '../../src/core/model/request.js';
import { apiSandbox } from '../helpers/api.js';
import { assertCliError, assertCliOk, json } from '../helpers/cli.js';
import { cliSandbox, runCliInProcess } from '../helpers/cli-inprocess.js';
import { fails, ok as mcpOk, startInMemoryMcp } from '../helpers/mcp.js';
import { waitUntil } from '../helpers/wait.js';

describe('delays and faults on the command line', () => {
  it('endpoint and variation add/update set, show and remove them; bad input exits 2, one line', async (t) => {
    const { cli } = cliSandbox(t);
    const ok = async (args: string[]) => assertCliOk(await cli(args));
    await ok(['project', 'create', 'api']);
    const added = json<Endpoint>(
      await ok([
        'endpoint',
        'add',
        'api',
        '-p',
        '/slow',
        '--delay',
        '100..400',
        '--fault',
        'reset',
        '--fault-rate',
        '0.2',
        '--json',
      ]),
    );
    assert.deepEqual([added.delay, added.fault, added.faultRate], [{ uniform: [100, 400] }, 'reset', 0.2]);
    const shown = await ok(['endpoint', 'show', 'api', 'GET /slow']);
    assert.match(shown.stdout, /delay:\s+100\.\.400 ms/);
    assert.match(shown.stdout, /fault:\s+reset \(20 % of requests\)/);

    const updated = json<Endpoint>(
      await ok([
        'endpoint',
        'update',
        'api',
        'GET /slow',
        '--delay',
        'lognormal:200,0.5',
        '--fault',
        'drip:2048',
        '--json',
      ]),
    );
    assert.deepEqual(
      [updated.delay, updated.fault, updated.faultRate],
      [{ lognormal: { median: 200, sigma: 0.5 } }, 'drip:2048', 0.2],
    );
    const cleared = json<Endpoint>(
      await ok(['endpoint', 'update', 'api', 'GET /slow', '--no-fault', '--delay', '250', '--json']),
    );
    assert.deepEqual([cleared.delay, 'fault' in cleared, 'faultRate' in cleared], [250, false, false]);

    const variation = json<Variation>(
      await ok([
        'endpoint',
        'variation',
        'add',
        'api',
        'GET /slow',
        '-n',
        'broken',
        '--fault',
        'garbage',
        '--delay',
        '5..10',
        '--json',
      ]),
    );
    assert.deepEqual([variation.fault, variation.delay], ['garbage', { uniform: [5, 10] }]);
    const list = await ok(['endpoint', 'variation', 'list', 'api', 'GET /slow']);
    assert.match(list.stdout, /5\.\.10 ms\s+garbage/);
    const noFault = json<Variation>(
      await ok(['endpoint', 'variation', 'update', 'api', 'GET /slow', 'broken', '--no-fault', '--json']),
    );
    assert.equal('fault' in noFault, false);

    const before = (await ok(['endpoint', 'show', 'api', 'GET /slow', '--json'])).stdout;
    for (const [args, re] of [
      [
        ['--delay', 'soon'],
        /Invalid --delay "soon": use milliseconds \(250\), a range \(100\.\.400\) or lognormal/,
      ],
      [
        ['--delay', '400..100'],
        /Invalid --delay "400\.\.100": uniform: the minimum must not be above the maximum/,
      ],
      [['--delay', '1..700000'], /Invalid --delay "1\.\.700000": must be at most 600000 ms/],
      [['--delay', 'lognormal:200,9'], /Invalid --delay "lognormal:200,9": must be from 0 to 5/],
      [
        ['--fault', 'timeout'],
        /Invalid --fault "timeout": must be reset, empty, garbage or drip:<bytes-per-second>/,
      ],
      [['--fault', 'drip:0'], /Invalid --fault "drip:0": must be reset, empty, garbage or drip:/],
      [['--fault-rate', '1.5'], /Invalid --fault-rate "1\.5": must be a number from 0 to 1/],
      [['--fault-rate', 'half'], /Invalid --fault-rate "half"/],
      [['--no-fault', '--fault-rate', '0.5'], /Give --fault-rate with a fault, not with --no-fault/],
    ] as [string[], RegExp][]) {
      assertCliError(await cli(['endpoint', 'update', 'api', 'GET /slow', ...args]), 2, re);
      assertCliError(
        await cli(['endpoint', 'variation', 'add', 'api', 'GET /slow', '-n', 'x', ...args]),
        2,
        re,
      );
    }
    assertCliError(
      await cli(['endpoint', 'add', 'api', '-p', '/other', '--delay', '1..']),
      2,
      /Invalid --delay "1\.\."/,
    );
    assert.equal(
      (await ok(['endpoint', 'show', 'api', 'GET /slow', '--json'])).stdout,
      before,
      'nothing changed',
    );

    // An OpenAPI export leaves a distribution and a fault out; a fixed delay is written as before.
    await ok(['endpoint', 'add', 'api', '-p', '/fixed', '--delay', '75']);
    await ok(['endpoint', 'update', 'api', 'GET /slow', '--delay', '1..5', '--fault', 'reset']);
    const doc = JSON.parse((await ok(['export', 'api', '-f', 'json'])).stdout) as {
      paths: Record<string, { get: Record<string, unknown> }>;
    };
    assert.equal(doc.paths['/fixed']!.get['x-mockdev-delay'], 75);
    const slow = JSON.stringify(doc.paths['/slow']);
    assert.doesNotMatch(slow, /x-mockdev-delay|reset|uniform/, slow);
  });

  it('requests show prints the delay applied and the fault sent; MCP and the admin API take the fields', async (t) => {
    const api = apiSandbox(t);
    const cli = (args: string[]) => runCliInProcess(args, { dataDir: api.dataDir, cwd: api.dataDir });
    assert.equal((await cli(['project', 'create', 'shop'])).code, 0);
    assert.equal((await cli(['endpoint', 'add', 'shop', '-p', '/slow', '--delay', '20..30'])).code, 0);
    assert.equal((await cli(['endpoint', 'add', 'shop', '-p', '/gone', '--fault', 'empty'])).code, 0);
    const server = await startServer(api.ctx, { project: 'shop', port: 0 });
    t.after(() => server.stop());
    await (await fetch(`${server.url}/slow`)).text();
    await fetch(`${server.url}/gone`).catch(() => undefined);
    const list = async () =>
      (await api.call('GET', '/api/v1/projects/shop/requests')).json as RequestRecord[];
    await waitUntil(async () => (await list()).length === 2, 'both requests logged');
    const [gone, slow] = await list();
    const slowShown = await cli(['requests', 'show', slow!.id]);
    assert.match(slowShown.stdout, /delay:?\s+(2\d|30) ms/);
    assert.match(slowShown.stdout, /fault:?\s+none/);
    const goneShown = await cli(['requests', 'show', gone!.id]);
    assert.match(goneShown.stdout, /status:?\s+\(none: no HTTP answer was sent\)/);
    assert.match(goneShown.stdout, /fault:?\s+empty/);

    const mcp = await startInMemoryMcp(api.ctx);
    t.after(() => mcp.close());
    const changed = await mcpOk<Endpoint>(mcp.client, 'update_endpoint', {
      projectId: 'shop',
      endpointId: 'GET /slow',
      delay: { lognormal: { median: 50, sigma: 0.2 } },
      fault: 'drip:100',
      faultRate: 0.5,
    });
    assert.deepEqual(
      [changed.delay, changed.fault, changed.faultRate],
      [{ lognormal: { median: 50, sigma: 0.2 } }, 'drip:100', 0.5],
    );
    await fails(
      mcp.client,
      'update_endpoint',
      { projectId: 'shop', endpointId: 'GET /slow', fault: 'boom' },
      /fault/,
    );

    const patched = await api.call('PATCH', '/api/v1/projects/shop/endpoints/GET%20%2Fslow', {
      body: { delay: { uniform: [1, 2] }, fault: null },
    });
    assert.equal(patched.status, 200, patched.body);
    assert.deepEqual(
      [(patched.json as Endpoint).delay, 'fault' in (patched.json as Endpoint)],
      [{ uniform: [1, 2] }, false],
    );
    const refused = await api.call('PATCH', '/api/v1/projects/shop/endpoints/GET%20%2Fslow', {
      body: { faultRate: 2 },
    });
    assert.equal(refused.status, 400, refused.body);
    assert.match(refused.body, /faultRate.*from 0 to 1/);
  });
});
