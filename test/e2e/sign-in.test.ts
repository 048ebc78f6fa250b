import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertAccessible, openUiSession, type UiSession } from '../helpers/browser.js';

describe('web UI with a token (mockdev ui --token)', () => {
  let s: UiSession;
  before(async () => {
    s = await openUiSession({
      uiArgs: ['--token', 'tok-s3cret'],
      seed: async (cli) => {
        await cli(['project', 'create', 'Shop', '-p', '4100']);
      },
    });
  });
  after(() => s?.close());

  it('asks for the token, refuses a wrong one with a message, and passes axe', async () => {
    await s.open('/projects');
    await s.page.getByRole('heading', { name: 'Sign in to mockdev' }).waitFor();
    await assertAccessible(s.page, 'the sign-in screen');
    await s.page.getByLabel('Token').fill('wrong');
    await s.page.getByRole('button', { name: 'Sign in' }).click();
    await s.page
      .getByRole('alert')
      .getByText('That token is not the one mockdev ui was started with.')
      .waitFor();
    assert.equal(
      await s.page.getByRole('navigation', { name: 'Main' }).count(),
      0,
      'nothing of the UI shows',
    );
  });

  it('signs in with the right token into a session cookie (never the token), and live updates flow', async () => {
    await s.page.getByLabel('Token').fill('tok-s3cret');
    await s.page.getByRole('button', { name: 'Sign in' }).click();
    await s.page.getByRole('link', { name: 'Shop' }).waitFor();
    const cookies = await s.context.cookies();
    const session = cookies.find((c) => c.name === 'mockdev_session');
    assert.ok(session, 'a session cookie');
    assert.equal(session.httpOnly, true);
    assert.equal(session.sameSite, 'Strict');
    assert.ok(!cookies.some((c) => c.value.includes('tok-s3cret')), 'the token is not in a cookie');
    assert.equal(
      await s.page
        .evaluate(() => JSON.stringify(localStorage) + JSON.stringify(sessionStorage))
        .then((t) => t.includes('tok-s3cret')),
      false,
      'the token is not kept by the page',
    );
    // The event stream carries the cookie: a project made by the CLI shows without a reload.
    const r = await s.cli(['project', 'create', 'Payments', '-p', '4101']);
    assert.equal(r.code, 0, r.stderr);
    await s.page.getByRole('link', { name: 'Payments' }).waitFor({ timeout: 10_000 });
    // A reload stays signed in.
    await s.open('/projects');
    await s.page.getByRole('link', { name: 'Payments' }).waitFor();
  });
});
