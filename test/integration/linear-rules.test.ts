/**
 * A single request never freezes the server (issue 20, part 1): variation rules' regexes and
 * path templates with several parameters in a segment run in linear time, over a spawned
 * `mockdev serve` and raw clients; a stored pattern the engine cannot run loads, never matches
 * and is reported; saving one is refused.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Endpoint } from '../../src/core/model/endpoint.js';
import { assertCliError, json } from '../helpers/cli.js';
import { cliSandbox } from '../helpers/cli-inprocess.js';
import { rawSocket as raw } from '../helpers/http.js';
import { makeProject, startServe, waitUntil } from '../helpers/server.js';
import { within } from '../helpers/wait.js';

const get = (path: string, headers = '') =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}Connection: close\r\n\r\n`;

describe('a single request never freezes the server', () => {
  it('a backtracking regex rule and a many-parameter path: answered, others answered meanwhile', async (t) => {
    const sandbox = cliSandbox(t);
    await makeProject(sandbox.dataDir, 'api', [
      {
        path: '/slow',
        body: '{"default":true}',
        // In flight for a second after the rules were evaluated: time for another client.
        delay: 1000,
        variations: [
          {
            id: 'v1',
            name: 'catastrophic',
            status: 401,
            body: '{}',
            rules: [{ source: 'header', key: 'x-r', op: 'regex', value: '(a+)+$' }],
          },
        ],
      },
      { path: '/files/{a}-{b}-{c}x', body: '{"file":true}' },
      { path: '/quick', body: '{"quick":true}' },
    ]);
    const server = await startServe(['api'], { dataDir: sandbox.dataDir });
    sandbox.defer(() => server.stop());

    // 2^5000 backtracking steps: the old engine would never have answered.
    const bad = raw(server.port, get('/slow', `X-R: ${'a'.repeat(5000)}!\r\n`));
    await new Promise((r) => setTimeout(r, 100));
    const other = await within(raw(server.port, get('/quick')), 5_000, 'another client');
    assert.equal(other.status, 200);
    const slow = await within(bad, 10_000, 'the request with the catastrophic header');
    assert.equal(slow.status, 200, 'the rule does not match: the default answers');
    assert.equal(slow.body, '{"default":true}');
    assert.ok(other.ms < slow.ms, `the other client (${other.ms} ms) was answered before it (${slow.ms} ms)`);
    assert.equal((await raw(server.port, get('/slow', 'X-R: aaaa\r\n'))).status, 401, 'the rule matches');

    // `^(.+?)-(.+?)-(.+)x$` over `a-a-a-…`: every pair of splits, minutes with a backtracking engine.
    const path = raw(server.port, get(`/files/${'a-'.repeat(4000)}`));
    const meanwhile = await within(raw(server.port, get('/quick')), 5_000, 'another client');
    assert.equal(meanwhile.status, 200);
    assert.equal((await within(path, 10_000, 'the long path')).status, 404);
    assert.equal((await raw(server.port, get('/files/1-2-3x'))).status, 200);
  });

  it('a stored pattern the engine cannot run loads, never matches, is reported; saving one is refused', async (t) => {
    const sandbox = cliSandbox(t);
    const look = { source: 'header', key: 'x-role', op: 'regex', value: '^(?!adm)' };
    await makeProject(sandbox.dataDir, 'api', [
      {
        path: '/users',
        body: '[]',
        variations: [{ id: 'v1', name: 'others', status: 403, body: '{}', rules: [look] }],
      },
    ]);
    const server = await startServe(['api'], { dataDir: sandbox.dataDir });
    sandbox.defer(() => server.stop());
    await waitUntil(
      () => /variation "others": the rule header\.x-role~\^\(\?!adm\) never matches/.test(server.stderr()),
      'the warning',
    );
    assert.match(server.stderr(), /lookahead or lookbehind/);
    assert.equal((await raw(server.port, get('/users', 'X-Role: user\r\n'))).status, 200);

    // Other changes to the endpoint still save; the stored rule stays as it was.
    const listed = await sandbox.cli(['endpoint', 'variation', 'list', 'api', 'GET /users', '--json']);
    assert.equal(listed.code, 0, listed.stderr);
    const renamed = await sandbox.cli([
      'endpoint',
      'variation',
      'update',
      'api',
      'GET /users',
      'others',
      '-s',
      '401',
      '--json',
    ]);
    assert.equal(renamed.code, 0, renamed.stderr);
    assert.deepEqual(json<Endpoint['variations'][number]>(renamed).rules, [look]);
    // A new pattern like it is refused, with what to write instead.
    assertCliError(
      await sandbox.cli([
        'endpoint',
        'variation',
        'add',
        'api',
        'GET /users',
        '-n',
        'x',
        '--when',
        'header.x~(?<=a)b',
      ]),
      2,
      /lookahead or lookbehind .*cannot run in linear time/,
    );
  });
});
