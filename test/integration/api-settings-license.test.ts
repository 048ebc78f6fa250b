import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiSandbox, type ApiResult } from '../helpers/api.js';
import { daysFromNow, startStandInService, tamper, testSigner } from '../helpers/license.js';

type Json = Record<string, unknown>;

const signer = testSigner();

/** No part of the key shows, except the masked form's last characters. */
function assertNoKey(r: ApiResult, key: string): void {
  const [payload, signature] = key.split('.') as [string, string];
  assert.ok(!r.body.includes(payload), `the key's payload is in ${r.body}`);
  assert.ok(!r.body.includes(signature.slice(0, 20)), `the key's signature is in ${r.body}`);
}

describe('admin API: settings', () => {
  it('reads the defaults, changes some settings (uiPort too) and keeps the others', async (t) => {
    const api = apiSandbox(t);
    const before = await api.call('GET', '/api/v1/settings');
    assert.equal(before.status, 200);
    assert.equal((before.json as Json).uiPort, 3200);
    assert.equal((before.json as Json).theme, 'system');

    const r = await api.call('PATCH', '/api/v1/settings', {
      body: {
        theme: 'dark',
        uiPort: 3300,
        mcpAutoStart: true,
        errorReportingUrl: 'https://errors.example.com',
      },
    });
    assert.equal(r.status, 200, r.body);
    const after = r.json as Json;
    assert.deepEqual(
      [after.theme, after.uiPort, after.mcpAutoStart, after.errorReportingUrl, after.defaultPort],
      ['dark', 3300, true, 'https://errors.example.com', 3001],
    );
    assert.deepEqual((await api.call('GET', '/api/v1/settings')).json, after);
    assert.equal((await api.ctx.settings.read()).uiPort, 3300);
    const cleared = await api.call('PATCH', '/api/v1/settings', { body: { errorReportingUrl: null } });
    assert.equal((cleared.json as Json).errorReportingUrl, null);
  });

  it('bad values answer 400 naming the setting and the allowed values, and change nothing', async (t) => {
    const api = apiSandbox(t);
    const cases: [Json, RegExp][] = [
      [{ theme: 'blue' }, /theme "blue": must be one of light, dark, system/],
      [{ uiPort: 80 }, /uiPort 80: must be from 1024 to 65535/],
      [{ defaultPort: '4000' }, /defaultPort "4000": must be a whole number from 1024 to 65535/],
      [{ mcpAutoStart: 'yes' }, /mcpAutoStart "yes": must be one of true, false/],
      [{ mcpLoggingMode: 'some' }, /mcpLoggingMode "some": must be one of off, errors, all/],
      [{ errorReportingUrl: 'ftp://x' }, /must be an http or https URL/],
      [{ requestLogLimit: 0 }, /requestLogLimit 0: must be a whole number of at least 1/],
      [{ requestBodyLimitBytes: 1.5 }, /must be a whole number of at least 0/],
      [{ colour: 'red' }, /unknown setting "colour": the settings are theme, defaultPort/],
      [{}, /Nothing to update/],
    ];
    for (const [body, message] of cases) {
      const r = await api.call('PATCH', '/api/v1/settings', { body });
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.body}`);
      assert.equal((r.json as Json).code, 'INVALID_ARGUMENT');
      assert.match((r.json as Json).detail as string, message);
    }
    const unchanged = await api.call('GET', '/api/v1/settings');
    assert.equal((unchanged.json as Json).theme, 'system');
    assert.equal((unchanged.json as Json).uiPort, 3200);
  });
});

describe('admin API: license', () => {
  it('status without a license, activation with a key, status with the key masked', async (t) => {
    const api = apiSandbox(t, { env: { MOCKDEV_LICENSE_PUBLIC_KEY: signer.publicKeyPem } });
    const none = await api.call('GET', '/api/v1/license');
    assert.equal(none.status, 200);
    assert.deepEqual(
      [(none.json as Json).plan, (none.json as Json).state, (none.json as Json).key],
      ['free', 'none', null],
    );

    const key = signer.key({ sub: 'ada@example.com', exp: daysFromNow(30) });
    const activated = await api.call('POST', '/api/v1/license/activate', { body: { key } });
    assert.equal(activated.status, 200, activated.body);
    const s = activated.json as Json;
    assert.deepEqual(
      [s.plan, s.state, s.licensee, s.activation],
      ['pro', 'active', 'ada@example.com', 'key'],
    );
    assert.equal(s.key, `…${key.slice(-6)}`);
    assertNoKey(activated, key);
    const status = await api.call('GET', '/api/v1/license');
    assert.equal((status.json as Json).plan, 'pro');
    assertNoKey(status, key);
  });

  it('refuses a malformed key (400), a tampered or expired one (403 LICENSE_INVALID), quoting none of it', async (t) => {
    const api = apiSandbox(t, { env: { MOCKDEV_LICENSE_PUBLIC_KEY: signer.publicKeyPem } });
    const malformed = await api.call('POST', '/api/v1/license/activate', { body: { key: 'not-a-key' } });
    assert.equal(malformed.status, 400, malformed.body);
    assert.equal((malformed.json as Json).code, 'INVALID_ARGUMENT');
    assert.doesNotMatch(malformed.body, /not-a-key/);
    const missing = await api.call('POST', '/api/v1/license/activate', { body: {} });
    assert.equal(missing.status, 400);

    const tampered = tamper(signer.key());
    const t1 = await api.call('POST', '/api/v1/license/activate', { body: { key: tampered } });
    assert.equal(t1.status, 403, t1.body);
    assert.equal((t1.json as Json).code, 'LICENSE_INVALID');
    assertNoKey(t1, tampered);
    const expired = signer.key({ exp: daysFromNow(-1) });
    const t2 = await api.call('POST', '/api/v1/license/activate', { body: { key: expired } });
    assert.equal(t2.status, 403, t2.body);
    assert.match((t2.json as Json).detail as string, /expired/i);
    assertNoKey(t2, expired);
    assert.equal(((await api.call('GET', '/api/v1/license')).json as Json).state, 'none');
  });

  it('e-mail activation asks the license service, and check stores the key once confirmed', async (t) => {
    const service = await startStandInService();
    t.after(() => service.close());
    const api = apiSandbox(t, {
      env: { MOCKDEV_LICENSE_PUBLIC_KEY: signer.publicKeyPem, MOCKDEV_LICENSE_URL: service.url },
    });
    const sent = await api.call('POST', '/api/v1/license/activate-email', {
      body: { email: 'ada@example.com' },
    });
    assert.equal(sent.status, 202, sent.body);
    assert.deepEqual(sent.json, { email: 'ada@example.com', service: service.url });
    assert.deepEqual(service.calls[0], {
      method: 'POST',
      url: '/v1/activations',
      body: { email: 'ada@example.com' },
    });

    const pending = await api.call('POST', '/api/v1/license/check', { body: { email: 'ada@example.com' } });
    assert.equal(pending.status, 200, pending.body);
    assert.deepEqual(pending.json, { status: 'pending', email: 'ada@example.com' });

    const key = signer.key({ sub: 'ada@example.com' });
    service.answer = { status: 200, body: JSON.stringify({ status: 'confirmed', key }) };
    const confirmed = await api.call('POST', '/api/v1/license/check', { body: { email: 'ada@example.com' } });
    assert.equal(confirmed.status, 200, confirmed.body);
    const license = (confirmed.json as Json).license as Json;
    assert.deepEqual([license.plan, license.activation], ['pro', 'email']);
    assertNoKey(confirmed, key);
    assert.equal(((await api.call('GET', '/api/v1/license')).json as Json).plan, 'pro');

    const badEmail = await api.call('POST', '/api/v1/license/check', { body: { email: 'nope' } });
    assert.equal(badEmail.status, 400);
    assert.match((badEmail.json as Json).detail as string, /not an e-mail address/);
  });

  it('e-mail activation with a MOCKDEV_LICENSE_URL not http(s) answers 400; a failing service 500', async (t) => {
    const api = apiSandbox(t, { env: { MOCKDEV_LICENSE_URL: 'ftp://licenses.example.com' } });
    const r = await api.call('POST', '/api/v1/license/activate-email', {
      body: { email: 'ada@example.com' },
    });
    assert.equal(r.status, 400);
    assert.match((r.json as Json).detail as string, /MOCKDEV_LICENSE_URL .* is not an http\(s\) URL/);

    const service = await startStandInService();
    t.after(() => service.close());
    service.postStatus = 503;
    const failing = apiSandbox(t, { env: { MOCKDEV_LICENSE_URL: service.url } });
    const down = await failing.call('POST', '/api/v1/license/activate-email', {
      body: { email: 'ada@example.com' },
    });
    assert.equal(down.status, 500);
    assert.equal((down.json as Json).code, 'IO_ERROR');
    assert.match((down.json as Json).detail as string, /HTTP 503/);
  });

  it('asks the license service for a trial: 202, then a second one 409 CONFLICT', async (t) => {
    const service = await startStandInService();
    t.after(() => service.close());
    const api = apiSandbox(t, {
      env: { MOCKDEV_LICENSE_PUBLIC_KEY: signer.publicKeyPem, MOCKDEV_LICENSE_URL: service.url },
    });
    const sent = await api.call('POST', '/api/v1/license/trial', { body: { email: 'ada@example.com' } });
    assert.equal(sent.status, 202, sent.body);
    assert.deepEqual(sent.json, { email: 'ada@example.com', service: service.url, days: 14 });
    assert.deepEqual(service.calls[0], {
      method: 'POST',
      url: '/v1/trials',
      body: { email: 'ada@example.com' },
    });
    service.postStatus = 409;
    const again = await api.call('POST', '/api/v1/license/trial', { body: { email: 'ada@example.com' } });
    assert.equal(again.status, 409, again.body);
    assert.equal((again.json as Json).code, 'CONFLICT');
    assert.match((again.json as Json).detail as string, /already had its trial/);

    // A key the override verified says so.
    const key = signer.key({ sub: 'ada@example.com' });
    assert.equal((await api.call('POST', '/api/v1/license/activate', { body: { key } })).status, 200);
    assert.equal(
      ((await api.call('GET', '/api/v1/license')).json as Json).signedBy,
      'MOCKDEV_LICENSE_PUBLIC_KEY',
    );
  });
});
