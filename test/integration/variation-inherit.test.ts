/**
 * A variation's unset fields are the endpoint's (DECISIONS "Trust and data"), over HTTP against
 * `mockdev serve`: the README's `slow` example (a delay and a header) answers with the endpoint's
 * body, content type and headers; a body of its own, `--inherit` back; a variation stored with
 * an explicit empty body keeps it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { VariationView } from '../../src/core/model/variation-response.js';
import { assertCliError, json } from '../helpers/cli.js';
import { cliSandbox } from '../helpers/cli-inprocess.js';
import { makeProject, startServe, waitUntil } from '../helpers/server.js';

const USERS = 'GET /api/users/:id';

describe('a variation inherits what it does not set', () => {
  it("the README's slow variation answers with the endpoint's body, content type and headers", async (t) => {
    const sandbox = cliSandbox(t);
    const { cli } = sandbox;
    // A command as one line of words (`@users` stands for the endpoint), then words with spaces.
    const args = (line: string, ...rest: string[]) => [
      ...line.split(' ').map((w) => (w === '@users' ? USERS : w)),
      ...rest,
    ];
    const run = async (line: string, ...rest: string[]) => {
      const r = await cli(args(line, ...rest));
      assert.equal(r.code, 0, r.stderr);
      return r;
    };
    await run('project create api');
    await run('endpoint add api -p /api/users/:id -s 201 -b {"id":"any"} -H', 'X-Default: yes');
    await run('endpoint variation add api @users -n slow --delay 50 -H', 'Retry-After: 5');
    await run(
      'endpoint variation add api @users -n own -b',
      'plain text',
      '--content-type',
      'text/plain',
      '-H',
      'x-default: no',
    );
    const server = await startServe(['api'], { dataDir: sandbox.dataDir });
    sandbox.defer(() => server.stop());
    const call = async (variation: string) => {
      const r = await fetch(`${server.url}/api/users/1`, { headers: { 'X-Mockdev-Variation': variation } });
      return {
        status: r.status,
        body: await r.text(),
        type: r.headers.get('content-type'),
        def: r.headers.get('x-default'),
        retry: r.headers.get('retry-after'),
      };
    };

    assert.deepEqual(await call('slow'), {
      status: 201,
      body: '{"id":"any"}',
      type: 'application/json',
      def: 'yes',
      retry: '5',
    });
    // Its own body, content type and a header of the endpoint's name (any case) replace them.
    assert.deepEqual(await call('own'), {
      status: 201,
      body: 'plain text',
      type: 'text/plain',
      def: 'no',
      retry: null,
    });

    // The endpoint's body as it is now, not as it was when the variation was added.
    await run('endpoint update api @users -b {"id":"new"} --content-type application/vnd.x+json');
    await waitUntil(async () => (await call('slow')).body === '{"id":"new"}', 'the new body');
    assert.equal((await call('slow')).type, 'application/vnd.x+json');

    // Back to the endpoint's: --inherit.
    const back = await run(
      'endpoint variation update api @users own --inherit body --inherit content-type --json',
    );
    assert.equal(back.code, 0, back.stderr);
    const v = json<VariationView>(back);
    assert.deepEqual(
      [v.body, v.contentType, v.headers, v.inherits],
      [undefined, undefined, { 'x-default': 'no' }, ['body', 'contentType']],
    );
    await waitUntil(async () => (await call('own')).body === '{"id":"new"}', 'the inherited body');
    assertCliError(
      await cli(args('endpoint variation update api @users own --inherit status')),
      2,
      /Invalid --inherit "status": use body, content-type or headers/,
    );
    assertCliError(
      await cli(args('endpoint variation update api @users own --inherit body -b x')),
      2,
      /Give body a value or inherit it from the endpoint, not both/,
    );
  });

  it('a variation stored with an explicit empty body keeps it', async (t) => {
    const sandbox = cliSandbox(t);
    await makeProject(sandbox.dataDir, 'api', [
      {
        path: '/users',
        body: '[1,2]',
        headers: { 'X-Default': 'yes' },
        variations: [
          {
            id: 'v1',
            name: 'empty',
            status: 404,
            headers: {},
            body: '',
            contentType: 'text/plain',
            delay: 0,
          },
        ],
      },
    ]);
    const server = await startServe(['api'], { dataDir: sandbox.dataDir });
    sandbox.defer(() => server.stop());
    const r = await fetch(`${server.url}/users`, { headers: { 'X-Mockdev-Variation': 'empty' } });
    assert.equal(r.status, 404);
    assert.equal(await r.text(), '');
    assert.equal(r.headers.get('content-type'), 'text/plain');
    assert.equal(r.headers.get('x-default'), 'yes', "headers: the endpoint's (it sets none)");
  });
});
