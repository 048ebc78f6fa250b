/**
 * The proxy options of `endpoint add` / `endpoint update` (--proxy, --record, --no-record,
 * --proxy-timeout, --mock) and the recording commands with nothing recorded: the CLI in-process,
 * no server (proxy.test.ts serves and records through a real upstream).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { json } from '../helpers/cli.js';
import { cliSandbox } from '../helpers/cli-inprocess.js';

describe('proxy options of endpoint add/update, and recording commands without recordings', () => {
  it('sets and changes kind, target, record and timeout; refuses what does not fit', async (t) => {
    const { cli } = cliSandbox(t, 'mockdev-proxy-cli-');
    assert.equal((await cli(['project', 'create', 'opts'])).code, 0);
    const added = await cli([
      'endpoint',
      'add',
      'opts',
      '-n',
      'gh',
      '-p',
      '/gh/*',
      '--proxy',
      'https://api.github.com',
    ]);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /proxy to https:\/\/api\.github\.com/);
    const show = async () =>
      json<{ kind: string; proxy: { target: string; record: boolean; timeoutMs?: number } }>(
        await cli(['endpoint', 'show', 'opts', 'gh', '--json']),
      );
    assert.deepEqual((await show()).proxy, { target: 'https://api.github.com', record: false });
    assert.equal(
      (await cli(['endpoint', 'update', 'opts', 'gh', '--record', '--proxy-timeout', '1500'])).code,
      0,
    );
    assert.deepEqual((await show()).proxy, {
      target: 'https://api.github.com',
      record: true,
      timeoutMs: 1500,
    });
    assert.equal((await cli(['endpoint', 'update', 'opts', 'gh', '--no-record'])).code, 0);
    assert.equal((await show()).proxy.record, false);

    // --mock: a proxy endpoint answers itself again, its settings kept for a later --proxy.
    const user = await cli([
      'endpoint',
      'add',
      'opts',
      '-n',
      'user',
      '-p',
      '/users/:id',
      '--proxy',
      'http://127.0.0.1:9',
      '--record',
      '--proxy-timeout',
      '700',
    ]);
    assert.equal(user.code, 0, user.stderr);
    const showUser = async () =>
      json<{ kind: string; proxy: { target: string; record: boolean; timeoutMs?: number } }>(
        await cli(['endpoint', 'show', 'opts', 'user', '--json']),
      );
    const mocked = await cli(['endpoint', 'update', 'opts', 'user', '--mock']);
    assert.equal(mocked.code, 0, mocked.stderr);
    assert.equal((await showUser()).kind, 'mock');
    assert.match(
      (await cli(['endpoint', 'show', 'opts', 'user'])).stdout,
      /proxy target: +http:\/\/127\.0\.0\.1:9 \(recording\) \(kept, not used: the endpoint answers itself\)/,
    );
    const onMock = await cli(['endpoint', 'update', 'opts', 'user', '--no-record']);
    assert.equal(onMock.code, 2, 'a mock endpoint has no recording to stop');
    assert.match(onMock.stderr, /--no-record applies to proxy endpoints only/);
    assert.equal(
      (await cli(['endpoint', 'update', 'opts', 'user', '--proxy', 'http://127.0.0.1:8'])).code,
      0,
    );
    const back = await showUser();
    assert.equal(back.kind, 'proxy');
    assert.deepEqual(back.proxy, { target: 'http://127.0.0.1:8', record: true, timeoutMs: 700 });
    const both = await cli(['endpoint', 'update', 'opts', 'user', '--mock', '--proxy', 'http://127.0.0.1:7']);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--mock and --proxy contradict each other/);
    assert.equal((await showUser()).proxy.target, 'http://127.0.0.1:8', 'unchanged');
    const wildMock = await cli(['endpoint', 'update', 'opts', 'gh', '--mock']);
    assert.equal(wildMock.code, 2, 'a wildcard path is for a proxy only');
    assert.equal((await show()).kind, 'proxy');
    assert.equal((await cli(['endpoint', 'remove', 'opts', 'user', '--force'])).code, 0);

    // Proxy options on a mock endpoint, a bad target, a wildcard on a mock: exit 2.
    assert.equal((await cli(['endpoint', 'add', 'opts', '-p', '/m'])).code, 0);
    const rec = await cli(['endpoint', 'update', 'opts', 'GET /m', '--record']);
    assert.equal(rec.code, 2);
    assert.match(rec.stderr, /--record applies to proxy endpoints only.*--proxy <URL>/);
    const badUrl = await cli(['endpoint', 'add', 'opts', '-p', '/x', '--proxy', 'not a url']);
    assert.equal(badUrl.code, 2);
    assert.match(badUrl.stderr, /proxy\.target.*absolute URL/);
    const wild = await cli(['endpoint', 'add', 'opts', '-p', '/files/*']);
    assert.equal(wild.code, 2);
    assert.match(wild.stderr, /wildcards are not supported/);
    const middle = await cli(['endpoint', 'add', 'opts', '-p', '/a/*/b', '--proxy', 'http://127.0.0.1:9']);
    assert.equal(middle.code, 2);
    const timeout = await cli(['endpoint', 'update', 'opts', 'gh', '--proxy-timeout', '0']);
    assert.equal(timeout.code, 2);

    // Counting and listing with nothing recorded.
    const count = json<{ endpoints: { name: string; count: number }[]; total: number }>(
      await cli(['recording', 'count', 'opts', '--json']),
    );
    assert.deepEqual(
      count.endpoints.map((e) => [e.name, e.count]),
      [['gh', 0]],
    );
    assert.equal(count.total, 0);
    const none = await cli(['recording', 'list', 'opts/gh']);
    assert.equal(none.code, 0);
    assert.match(none.stdout, /No recordings of "gh"/);
    const noProject = await cli(['recording', 'count', 'nope']);
    assert.equal(noProject.code, 3);
    const noId = await cli(['recording', 'list', 'zzzzzz']);
    assert.equal(noId.code, 1);
    assert.match(noId.stderr, /No endpoint has the id "zzzzzz"/);
    const toMock = await cli(['recording', 'to-mock', '999']);
    assert.equal(toMock.code, 1);
    assert.match(toMock.stderr, /Recording "999" not found/);
  });
});
