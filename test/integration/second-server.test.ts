/**
 * Two servers of one project: the second says the first runs (its URL and pid) and that both log
 * to one request log, and goes on only on another port; on the first one's port it is
 * PORT_IN_USE (exit 4) naming the first.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertCliError } from '../helpers/cli.js';
import { cliSandbox } from '../helpers/cli-inprocess.js';
import { startServe, type ServeHandle } from '../helpers/server.js';

describe('a second server of one project', () => {
  it('on the same port: PORT_IN_USE naming the first; on another: runs, saying the first runs and that both log to one request log', async (t) => {
    const { cli, dataDir, defer } = cliSandbox(t);
    assert.equal((await cli(['project', 'create', 'Shop'])).code, 0);
    const servers: ServeHandle[] = [];
    defer(() => Promise.all(servers.map((s) => s.stop())));
    const first = await startServe(['Shop'], { dataDir });
    servers.push(first);
    const pid = first.child.pid!;
    assert.doesNotMatch(first.stderr(), /already served/, 'the first says nothing of the kind');

    const same = await cli(['serve', 'Shop', '-p', String(first.port)]);
    assertCliError(
      same,
      4,
      new RegExp(`"Shop" is already served at ${first.url} \\(pid ${pid}\\): port ${first.port} is in use`),
    );
    assert.match(same.stderr, /another port with -p, --port \(both log to one request log\)/);

    const second = await startServe(['Shop'], { dataDir });
    servers.push(second);
    assert.notEqual(second.port, first.port);
    assert.match(
      second.stderr(),
      new RegExp(
        `"Shop" is already served at ${first.url} \\(pid ${pid}\\); this second server at ${second.url} logs to the same request log`,
      ),
    );
    assert.equal((await fetch(`${second.url}/x`)).status, 404, 'and it serves');
  });
});
