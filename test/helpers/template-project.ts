import assert from 'node:assert/strict';
import { cliSandbox } from './cli-inprocess.js';

/**
 * A project "api" for template tests through the CLI in-process: `add` saves a text/plain endpoint (GET
 * unless told) and must succeed; `refusedBody` tries a body that
 * must be refused and gives the CLI's answer.
 */
export async function templateProject(t: Parameters<typeof cliSandbox>[0]) {
  const sandbox = cliSandbox(t);
  const { cli } = sandbox;
  assert.equal((await cli(['project', 'create', 'api'])).code, 0);
  const add = async (path: string, body: string, method = 'GET') => {
    const r = await cli([
      'endpoint',
      'add',
      'api',
      '-p',
      path,
      '--content-type',
      'text/plain',
      '-m',
      method,
      '-b',
      body,
    ]);
    assert.equal(r.code, 0, r.stderr);
  };
  const refusedBody = (body: string) => cli(['endpoint', 'add', 'api', '-p', '/refused', '-b', body]);
  return { sandbox, add, refusedBody };
}
