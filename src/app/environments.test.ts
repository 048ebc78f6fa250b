import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { testSigner } from '../../test/helpers/license.js';
import { createContext, type AppContext } from './context.js';
import {
  activateEnvironment,
  activeEnvironment,
  activeVariables,
  createEnvironment,
  deleteEnvironment,
  duplicateEnvironment,
  listEnvironments,
  SECRET_MASK,
  showEnvironment,
  updateEnvironment,
} from './environments.js';
import { activateLicenseKey } from './license.js';
import { createProject, deleteProject } from './projects.js';

const signer = testSigner();

async function setup(t: TestContext, licensed = true): Promise<AppContext> {
  const root = mkdtempSync(join(tmpdir(), 'mockdev-envs-'));
  const ctx = createContext({
    dataDir: join(root, 'data'),
    cwd: root,
    env: { MOCKDEV_LICENSE_PUBLIC_KEY: signer.publicKeyPem },
  });
  t.after(() => {
    ctx.close();
    rmSync(root, { recursive: true, force: true });
  });
  if (licensed) await activateLicenseKey(ctx, signer.key());
  return ctx;
}

describe('environments (app)', () => {
  it('activeVariables: the active global overlaid by the project active one, secrets real', async (t) => {
    const ctx = await setup(t);
    const p = await createProject(ctx, { name: 'shop' });
    assert.deepEqual(await activeVariables(ctx, p.id), {});
    await createEnvironment(ctx, {
      name: 'shared',
      variables: { HOST: 'global-host', ONLY_GLOBAL: 'g' },
      secrets: { TOKEN: 'global-token' },
    });
    await createEnvironment(ctx, {
      name: 'dev',
      project: 'shop',
      variables: { HOST: 'dev-host' },
      secrets: { TOKEN: 'dev-token' },
    });
    await activateEnvironment(ctx, 'shop', 'shared');
    assert.deepEqual(await activeVariables(ctx, p.id), {
      HOST: 'global-host',
      ONLY_GLOBAL: 'g',
      TOKEN: 'global-token',
    });
    const both = await activateEnvironment(ctx, 'shop', 'dev');
    assert.equal(both.projectEnvironment?.name, 'dev');
    assert.equal(both.globalEnvironment?.name, 'shared');
    assert.deepEqual(await activeVariables(ctx, p.id), {
      HOST: 'dev-host',
      ONLY_GLOBAL: 'g',
      TOKEN: 'dev-token',
    });
    assert.deepEqual(
      (await activeEnvironment(ctx, p.id)).secrets,
      ['dev-token'],
      "the secrets' values, for the log to mask",
    );
    // another project sees nothing of it
    const other = await createProject(ctx, { name: 'other', port: 3999 });
    assert.deepEqual(await activeVariables(ctx, other.id), {});
    await activateEnvironment(ctx, 'shop');
    assert.deepEqual(await activeVariables(ctx, p.id), {});
  });

  it('activeVariables answers {} without a license, never throwing; the use cases refuse', async (t) => {
    const ctx = await setup(t, false);
    const p = await createProject(ctx, { name: 'shop' });
    assert.deepEqual(await activeVariables(ctx, p.id), {});
    for (const run of [
      () => listEnvironments(ctx, 'shop'),
      () => createEnvironment(ctx, { name: 'x' }),
      () => showEnvironment(ctx, 'x'),
      () => updateEnvironment(ctx, 'x', { name: 'y' }),
      () => deleteEnvironment(ctx, 'x'),
      () => activateEnvironment(ctx, 'shop', 'x'),
      () => duplicateEnvironment(ctx, 'x'),
    ])
      await assert.rejects(run(), { code: 'LICENSE_REQUIRED', message: /"environment" needs a Pro license/ });
  });

  it('masks secrets unless revealed; update, duplicate, delete; project deletion removes its environments', async (t) => {
    const ctx = await setup(t);
    await createProject(ctx, { name: 'shop' });
    const env = await createEnvironment(ctx, {
      name: 'dev',
      project: 'shop',
      variables: { A: '1', B: 'x=y,z' },
      secretKeys: ['B'],
    });
    assert.deepEqual(env.variables, { A: '1', B: SECRET_MASK });
    assert.deepEqual((await showEnvironment(ctx, 'dev', { reveal: true })).variables, { A: '1', B: 'x=y,z' });
    assert.equal(JSON.stringify(await listEnvironments(ctx, 'shop')).includes('x=y,z'), false);
    const updated = await updateEnvironment(ctx, env.id, {
      name: 'dev2',
      unset: ['B', 'A'],
      variables: { B: 'plain' },
      secrets: { C: 'c' },
    });
    assert.deepEqual(updated.variables, { B: 'plain', C: SECRET_MASK });
    assert.deepEqual(updated.secretKeys, ['C']);
    const copy = await duplicateEnvironment(ctx, 'dev2');
    assert.equal(copy.name, 'dev2 copy');
    assert.equal((await duplicateEnvironment(ctx, 'dev2')).name, 'dev2 copy 2');
    assert.deepEqual((await showEnvironment(ctx, copy.id, { reveal: true })).variables, {
      B: 'plain',
      C: 'c',
    });
    await deleteEnvironment(ctx, copy.id);
    await assert.rejects(showEnvironment(ctx, copy.id), { code: 'NOT_FOUND' });
    await assert.rejects(createEnvironment(ctx, { name: 'bad', variables: { '1X': 'v' } }), {
      code: 'INVALID_ARGUMENT',
      message: /Invalid variable key "1X"/,
    });
    await assert.rejects(createEnvironment(ctx, { name: 'bad', secretKeys: ['S'] }), {
      code: 'INVALID_ARGUMENT',
      message: /Secret "S" has no value/,
    });
    await assert.rejects(createEnvironment(ctx, { name: 'x', project: 'nope' }), {
      code: 'PROJECT_NOT_FOUND',
    });
    await deleteProject(ctx, 'shop');
    assert.deepEqual(await ctx.environments.list(), []);
  });
});
