import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiSandbox, type ApiSandbox } from '../helpers/api.js';
import type { AfterHook } from '../helpers/cli-inprocess.js';
import { testSigner } from '../helpers/license.js';

type Json = Record<string, unknown>;

const signer = testSigner();
const SECRET = 'sk_live_very-secret-value';

/** The API over a data dir that trusts this test's signing key; with `pro`, a license activated. */
async function envApi(t: AfterHook, pro = true): Promise<ApiSandbox> {
  const api = apiSandbox(t, { env: { MOCKDEV_LICENSE_PUBLIC_KEY: signer.publicKeyPem } });
  if (pro) {
    const r = await api.call('POST', '/api/v1/license/activate', { body: { key: signer.key() } });
    assert.equal(r.status, 200, r.body);
  }
  assert.equal((await api.call('POST', '/api/v1/projects', { body: { name: 'Shop' } })).status, 201);
  return api;
}

describe('admin API: environments', () => {
  it('creates project and global environments; lists them marked; secrets masked in every answer', async (t) => {
    const api = await envApi(t);
    const own = await api.call('POST', '/api/v1/projects/Shop/environments', {
      body: { name: 'dev', variables: { API_URL: 'http://localhost' }, secrets: { API_KEY: SECRET } },
    });
    assert.equal(own.status, 201, own.body);
    const dev = own.json as Json;
    assert.equal(dev.scope, 'project');
    assert.deepEqual(dev.variables, { API_URL: 'http://localhost', API_KEY: '********' });
    assert.deepEqual(dev.secretKeys, ['API_KEY']);

    const global = await api.call('POST', '/api/v1/environments', {
      body: { name: 'shared', variables: { REGION: 'eu', TOKEN: SECRET }, secretKeys: ['TOKEN'] },
    });
    assert.equal(global.status, 201, global.body);
    assert.equal((global.json as Json).scope, 'global');
    const viaBody = await api.call('POST', '/api/v1/environments', {
      body: { name: 'staging', project: 'Shop' },
    });
    assert.equal((viaBody.json as Json).scope, 'project');

    const activated = await api.call('PUT', '/api/v1/projects/Shop/environments/active', {
      body: { environment: 'dev' },
    });
    assert.equal(activated.status, 200, activated.body);
    assert.equal(((activated.json as Json).projectEnvironment as Json).id, dev.id);

    const list = await api.call('GET', '/api/v1/projects/Shop/environments');
    assert.equal(list.status, 200, list.body);
    const envs = (list.json as Json).environments as Json[];
    assert.deepEqual(
      envs.map((e) => [e.name, e.scope, e.active]),
      [
        ['dev', 'project', true],
        ['staging', 'project', false],
        ['shared', 'global', false],
      ],
    );
    for (const r of [own, global, list, activated]) assert.doesNotMatch(r.body, /very-secret/, r.body);
  });

  it('shows an environment masked, and revealed only with reveal=true', async (t) => {
    const api = await envApi(t);
    const id = (
      (
        await api.call('POST', '/api/v1/projects/Shop/environments', {
          body: { name: 'dev', secrets: { K: SECRET } },
        })
      ).json as Json
    ).id as string;
    const shown = await api.call('GET', `/api/v1/environments/${id}`);
    assert.equal(shown.status, 200);
    assert.deepEqual((shown.json as Json).variables, { K: '********' });
    assert.doesNotMatch(shown.body, /very-secret/);
    const notRevealed = await api.call('GET', `/api/v1/environments/${id}?reveal=false`);
    assert.doesNotMatch(notRevealed.body, /very-secret/);
    const revealed = await api.call('GET', `/api/v1/environments/dev?reveal=true`);
    assert.equal(revealed.status, 200, revealed.body);
    assert.deepEqual((revealed.json as Json).variables, { K: SECRET });
    const bad = await api.call('GET', `/api/v1/environments/${id}?reveal=perhaps`);
    assert.equal(bad.status, 400);
    assert.match((bad.json as Json).detail as string, /reveal/);
    const missing = await api.call('GET', '/api/v1/environments/nope');
    assert.equal(missing.status, 404);
    assert.equal((missing.json as Json).code, 'NOT_FOUND');
    // The hint speaks the API's words, not the CLI's.
    assert.match((missing.json as Json).detail as string, /call GET \/api\/v1\/projects\/.*\/environments/i);
    assert.doesNotMatch((missing.json as Json).detail as string, /mockdev environment/);
  });

  it('updates (rename, set, make secret, unset), duplicates, deactivates and deletes', async (t) => {
    const api = await envApi(t);
    const id = (
      (
        await api.call('POST', '/api/v1/projects/Shop/environments', {
          body: { name: 'dev', variables: { A: '1', B: '2' }, secrets: { K: SECRET } },
        })
      ).json as Json
    ).id as string;
    const updated = await api.call('PATCH', `/api/v1/environments/${id}`, {
      body: {
        name: 'develop',
        unset: ['A'],
        variables: { C: '3' },
        secrets: { K2: `${SECRET}-2` },
        secretKeys: ['B'],
      },
    });
    assert.equal(updated.status, 200, updated.body);
    const env = updated.json as Json;
    assert.equal(env.name, 'develop');
    assert.deepEqual(env.variables, { B: '********', K: '********', C: '3', K2: '********' });
    assert.doesNotMatch(updated.body, /very-secret/);

    const badKey = await api.call('PATCH', `/api/v1/environments/${id}`, {
      body: { variables: { '1X': 'a' } },
    });
    assert.equal(badKey.status, 400);
    const unsetMissing = await api.call('PATCH', `/api/v1/environments/${id}`, { body: { unset: ['NOPE'] } });
    assert.equal(unsetMissing.status, 400);
    assert.match((unsetMissing.json as Json).detail as string, /NOPE/);

    const copy = await api.call('POST', `/api/v1/environments/${id}/duplicate`, { body: {} });
    assert.equal(copy.status, 201, copy.body);
    assert.equal((copy.json as Json).name, 'develop copy');
    assert.doesNotMatch(copy.body, /very-secret/);
    const revealedCopy = await api.call(
      'GET',
      `/api/v1/environments/${(copy.json as Json).id as string}?reveal=true`,
    );
    assert.equal(((revealedCopy.json as Json).variables as Json).K, SECRET, 'secrets copied');
    const named = await api.call('POST', `/api/v1/environments/${id}/duplicate`, { body: { name: 'qa' } });
    assert.equal((named.json as Json).name, 'qa');

    await api.call('PUT', '/api/v1/projects/Shop/environments/active', { body: { environment: id } });
    const off = await api.call('DELETE', '/api/v1/projects/Shop/environments/active');
    assert.equal(off.status, 200, off.body);
    assert.equal((off.json as Json).projectEnvironment, null);
    assert.equal((off.json as Json).globalEnvironment, null);

    const deleted = await api.call('DELETE', `/api/v1/environments/${id}`);
    assert.equal(deleted.status, 200, deleted.body);
    assert.equal((deleted.json as Json).id, id);
    assert.doesNotMatch(deleted.body, /very-secret/);
    assert.equal((await api.call('DELETE', `/api/v1/environments/${id}`)).status, 404);
    const unknownEnv = await api.call('PUT', '/api/v1/projects/Shop/environments/active', {
      body: { environment: 'nope' },
    });
    assert.equal(unknownEnv.status, 404);
    const unknownProject = await api.call('GET', '/api/v1/projects/nope/environments');
    assert.equal(unknownProject.status, 404);
    assert.equal((unknownProject.json as Json).code, 'PROJECT_NOT_FOUND');
  });

  it('DELETE …/active?environment= deactivates that one only; the other stays', async (t) => {
    const api = await envApi(t);
    const own = (await api.call('POST', '/api/v1/projects/Shop/environments', { body: { name: 'own' } }))
      .json as Json;
    const shared = (await api.call('POST', '/api/v1/environments', { body: { name: 'shared' } }))
      .json as Json;
    for (const env of [own, shared])
      await api.call('PUT', '/api/v1/projects/Shop/environments/active', { body: { environment: env.id } });
    const off = await api.call('DELETE', '/api/v1/projects/Shop/environments/active?environment=shared');
    assert.equal(off.status, 200, off.body);
    assert.equal(((off.json as Json).projectEnvironment as Json).name, 'own');
    assert.equal((off.json as Json).globalEnvironment, null);
    // One that is not active changes nothing; an unknown one is 404.
    const again = await api.call(
      'DELETE',
      `/api/v1/projects/Shop/environments/active?environment=${shared.id}`,
    );
    assert.equal(((again.json as Json).projectEnvironment as Json).name, 'own');
    const unknown = await api.call('DELETE', '/api/v1/projects/Shop/environments/active?environment=nope');
    assert.equal(unknown.status, 404);
    const listed = (await api.call('GET', '/api/v1/projects/Shop/environments')).json as Json;
    assert.deepEqual(
      (listed.environments as Json[]).map((e) => [e.name, e.active]),
      [
        ['own', true],
        ['shared', false],
      ],
    );
  });

  it('refuses bad input: no name, a secret without a value', async (t) => {
    const api = await envApi(t);
    const noName = await api.call('POST', '/api/v1/environments', { body: { name: ' ' } });
    assert.equal(noName.status, 400);
    const missing = await api.call('POST', '/api/v1/environments', { body: {} });
    assert.equal(missing.status, 400);
    assert.match((missing.json as Json).detail as string, /name/);
    const noValue = await api.call('POST', '/api/v1/environments', {
      body: { name: 'x', secretKeys: ['K'] },
    });
    assert.equal(noValue.status, 400);
    assert.match((noValue.json as Json).detail as string, /K/);
  });

  it('without a license every environment route answers 403 LICENSE_REQUIRED saying how to activate', async (t) => {
    const api = await envApi(t, false);
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/v1/projects/Shop/environments'],
      ['POST', '/api/v1/projects/Shop/environments', { name: 'dev' }],
      ['POST', '/api/v1/environments', { name: 'dev' }],
      ['GET', '/api/v1/environments/dev?reveal=true'],
      ['PATCH', '/api/v1/environments/dev', { name: 'x' }],
      ['DELETE', '/api/v1/environments/dev'],
      ['POST', '/api/v1/environments/dev/duplicate', {}],
      ['PUT', '/api/v1/projects/Shop/environments/active', { environment: 'dev' }],
      ['DELETE', '/api/v1/projects/Shop/environments/active'],
    ];
    for (const [method, url, body] of calls) {
      const r = await api.call(method, url, body === undefined ? {} : { body });
      assert.equal(r.status, 403, `${method} ${url}: ${r.body}`);
      const problem = r.json as Json;
      assert.equal(problem.code, 'LICENSE_REQUIRED');
      assert.match(problem.detail as string, /needs a Pro license.*POST \/api\/v1\/license\/activate/);
    }
  });

  it('an environment named "active" is that environment, never the file of what is active', async (t) => {
    const api = await envApi(t);
    const made = await api.call('POST', '/api/v1/projects/Shop/environments', {
      body: { name: 'active', variables: { A: '1' } },
    });
    assert.equal(made.status, 201, made.body);
    const activated = await api.call('PUT', '/api/v1/projects/Shop/environments/active', {
      body: { environment: 'active' },
    });
    assert.equal(activated.status, 200, activated.body);
    // active.json (what each project uses, written now) sits beside the environments' <id>.json.
    const shown = await api.call('GET', '/api/v1/environments/active');
    assert.equal(shown.status, 200, shown.body);
    assert.equal((shown.json as Json).id, (made.json as Json).id);
    const deleted = await api.call('DELETE', '/api/v1/environments/active');
    assert.equal(deleted.status, 200, deleted.body);
    const gone = await api.call('GET', '/api/v1/environments/active');
    assert.equal(gone.status, 404, gone.body);
    assert.equal((gone.json as Json).code, 'NOT_FOUND');
  });
});
