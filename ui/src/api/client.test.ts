import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ApiError, get, prime } from './client';

/** fetch replaced by one that counts calls per URL and answers from `answers`. */
let calls: string[] = [];
let answers: Record<string, () => Response> = {};
const realFetch = globalThis.fetch;

describe('the UI client: primed GETs', () => {
  beforeEach(() => {
    calls = [];
    answers = {};
    globalThis.fetch = (async (url: string) => {
      calls.push(url);
      const answer = answers[url];
      if (!answer) throw new Error(`no answer for ${url}`);
      return answer();
    }) as typeof fetch;
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  const json =
    (value: unknown, status = 200) =>
    () =>
      new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });

  it('makes a primed call once: the first get takes its answer, the next one asks again', async () => {
    answers['/api/v1/projects'] = json([{ id: 'p1' }]);
    prime(['/projects']);
    assert.deepEqual(await get('/projects'), [{ id: 'p1' }]);
    assert.equal(calls.length, 1, 'the get took the primed answer');
    answers['/api/v1/projects'] = json([{ id: 'p1' }, { id: 'p2' }]);
    assert.deepEqual(await get('/projects'), [{ id: 'p1' }, { id: 'p2' }], 'a later get is fresh');
    assert.equal(calls.length, 2);
  });

  it('asks again when the primed call failed (a 401 before signing in), and reports a failure of its own', async () => {
    let signedIn = false;
    answers['/api/v1/settings'] = () =>
      signedIn
        ? json({ theme: 'dark' })()
        : json({ title: 'Unauthorized', detail: 'Sign in', code: 'UNAUTHORIZED' }, 401)();
    prime(['/settings']);
    signedIn = true;
    assert.deepEqual(await get('/settings'), { theme: 'dark' });
    assert.equal(calls.length, 2);
    signedIn = false;
    await assert.rejects(get('/settings'), (e: unknown) => e instanceof ApiError && e.status === 401);
  });
});
