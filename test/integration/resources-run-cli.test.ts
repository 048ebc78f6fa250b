/**
 * The resource commands reaching a running server without a restart: a resource added is served,
 * `resource data --set` replaces what it serves, `resource reset` goes back to the seed, and
 * `resource data` prints what the server wrote behind.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createContext } from '../../src/app/context.js';
import { startServer } from '../../src/app/server.js';
import { json } from '../helpers/cli.js';
import { cliSandbox, type AfterHook } from '../helpers/cli-inprocess.js';
import { ok } from '../helpers/flows.js';
import { call } from '../helpers/resources.js';
import { startServe } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';

describe('resource commands and a running server', () => {
  it('add, data --set, reset and data reach the server; the server state reaches data', async (t: AfterHook) => {
    const { cli, dir, dataDir, defer } = cliSandbox(t, 'mockdev-resources-run-');
    ok(await cli(['project', 'create', 'shop']));
    const ctx = createContext({ dataDir, cwd: dir });
    const server = await startServer(ctx, { project: 'shop', port: 0 });
    defer(() => ctx.close());
    defer(() => server.stop());
    const names = async () =>
      ((await call(server.url, 'GET', '/api/users')).json as { name: string }[] | undefined)?.map(
        (u) => u.name,
      );

    writeFileSync(join(dir, 'seed.json'), JSON.stringify([{ id: 1, name: 'Ada' }]));
    ok(await cli(['resource', 'add', 'shop', '/api/users', '--seed', 'seed.json']));
    assert.deepEqual(await names(), ['Ada']);

    assert.equal((await call(server.url, 'POST', '/api/users', { name: 'Grace' })).status, 201);
    await waitUntil(async () => {
      const items = json<{ name: string }[]>(ok(await cli(['resource', 'data', 'shop', 'users', '--json'])));
      return items.length === 2 && items[1]!.name === 'Grace';
    }, '`resource data` to show what the server wrote behind');

    writeFileSync(join(dir, 'data.json'), JSON.stringify([{ id: 7, name: 'Set' }]));
    ok(await cli(['resource', 'data', 'shop', 'users', '--set', 'data.json']));
    assert.deepEqual(await names(), ['Set']);

    ok(await cli(['resource', 'reset', 'shop', 'users']));
    assert.deepEqual(await names(), ['Ada']);
  });

  it('`mockdev serve` keeps the state: a POST answered just before SIGTERM is there after a restart', async (t: AfterHook) => {
    const { cli, dir, dataDir, defer } = cliSandbox(t, 'mockdev-resources-serve-');
    ok(await cli(['project', 'create', 'shop']));
    writeFileSync(join(dir, 'seed.json'), JSON.stringify([{ id: 1, name: 'Ada' }]));
    ok(await cli(['resource', 'add', 'shop', '/api/users', '--seed', 'seed.json']));
    const first = await startServe(['shop'], { dataDir, cwd: dir });
    defer(() => first.stop());
    const posted = await call(first.url, 'POST', '/api/users', { name: 'Grace' });
    assert.equal(posted.status, 201);
    // Stopped at once: the change is written by the stop, not by a batch that may not have run.
    assert.equal(await first.stop(), 0);
    const second = await startServe(['shop'], { dataDir, cwd: dir });
    defer(() => second.stop());
    assert.deepEqual((await call(second.url, 'GET', '/api/users')).json, [
      { id: 1, name: 'Ada' },
      { id: 2, name: 'Grace' },
    ]);
  });
});
