import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiSandbox } from '../helpers/api.js';

type Problem = { code: string; detail: string; details?: Record<string, unknown> };

/**
 * The admin API words hints for the web UI when it asks (`X-Mockdev-Wording: ui`): a screen or
 * a field to use, never an API path; other callers keep the API's words (fields and calls).
 */
describe('admin API: hints in the web UI’s words', () => {
  const UI = { 'X-Mockdev-Wording': 'ui' };

  it('says to activate a license in License, not which API call to make', async (t) => {
    const api = apiSandbox(t);
    assert.equal((await api.call('POST', '/api/v1/projects', { body: { name: 'Shop' } })).status, 201);
    const forUi = await api.call('GET', '/api/v1/projects/Shop/environments', { headers: UI });
    assert.equal(forUi.status, 403);
    const problem = forUi.json as Problem;
    assert.equal(problem.code, 'LICENSE_REQUIRED');
    assert.match(problem.detail, /needs a Pro license.*Activate a license in License/);
    assert.doesNotMatch(problem.detail, /\/api\/|POST|GET /);

    const forPrograms = await api.call('GET', '/api/v1/projects/Shop/environments');
    assert.match((forPrograms.json as Problem).detail, /POST \/api\/v1\/license\/activate/);
  });

  it('words a cURL command’s fix and a missing project for people too', async (t) => {
    const api = apiSandbox(t);
    const missing = await api.call('GET', '/api/v1/projects/Nope/endpoints', { headers: UI });
    assert.equal(missing.status, 404);
    const detail = (missing.json as Problem).detail;
    assert.match(detail, /Projects screen/);
    assert.doesNotMatch(detail, /\/api\//);
    const refused = await api.call('POST', '/api/v1/curl/preview', {
      headers: UI,
      body: { command: `curl 'https://api.example.com/x` },
    });
    assert.equal(refused.status, 400);
    assert.doesNotMatch(JSON.stringify(refused.json), /\/api\/v1|the "\w+" field/);
  });
});
