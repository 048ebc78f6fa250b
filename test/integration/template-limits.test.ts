/**
 * A template cannot freeze a server (issue 20, part 1): over a spawned `mockdev serve` and a raw
 * client, requests whose templates the old code rendered for minutes (fake data of 100 million
 * characters, nested loops over the request body, a thousand large paragraphs) are answered 500
 * at once, naming the endpoint and the limit, while another client is answered meanwhile; a
 * rendered body past 10 MiB is the same 500. A literal over a limit is refused at save: exit 2,
 * 400, MCP isError.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiSandbox } from '../helpers/api.js';
import { assertCliError } from '../helpers/cli.js';
import { rawSocket, type SocketAnswer } from '../helpers/http.js';
import { cliSandbox } from '../helpers/cli-inprocess.js';
import { fails, startInMemoryMcp, ok as mcpOk } from '../helpers/mcp.js';
import { makeProject, startServe } from '../helpers/server.js';

/** One request over its own socket, as written (Connection: close). */
const raw = (port: number, method: string, path: string, body = ''): Promise<SocketAnswer> =>
  rawSocket(
    port,
    `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );

describe('templates cannot freeze a server', () => {
  it('answers 500 at once for a template over a limit, and serves another client meanwhile', async (t) => {
    const sandbox = cliSandbox(t);
    const paths: [string, string, string][] = [
      // [method, path, body template]: each took the old code minutes (or all its memory).
      ['GET', '/literal', `{{faker 'string.alpha' 100000000}}`], // written by hand: never saved through a check
      ['POST', '/alpha', `{{faker 'string.alpha' (body 'n')}}`],
      ['POST', '/paragraphs', `{{#repeat 1000}}{{faker 'lorem.paragraphs' (body 'n')}}{{/repeat}}`],
      ['POST', '/nested', '{{#each body}}{{#each ../body}}{{@index}}{{/each}}{{/each}}'],
      ['POST', '/big', '{{#repeat 1000}}{{bodyRaw}}{{/repeat}}'],
    ];
    await makeProject(sandbox.dataDir, 'api', [
      { method: 'GET', path: '/static', body: 'still here', contentType: 'text/plain' },
      ...paths.map(([method, path, body]) => ({ method, path, name: path.slice(1), body })),
    ]);
    const server = await startServe(['api'], { dataDir: sandbox.dataDir });
    sandbox.defer(() => server.stop());

    const bad: [string, string, string, RegExp][] = [
      ['GET', '/literal', '', /faker string\.alpha: a length of 100000000 is over the limit of 10000/],
      ['POST', '/alpha', '{"n":100000000}', /a length of 100000000 is over the limit of 10000/],
      ['POST', '/paragraphs', '{"n":1000}', /more than 100000 characters of fake data/],
      ['POST', '/nested', JSON.stringify(Array(100_000).fill(0)), /each: more than 100000 iterations/],
      ['POST', '/big', JSON.stringify('x'.repeat(100_000)), /larger than the limit of 10 MiB/],
    ];
    for (const [method, path, body, reason] of bad) {
      const [answer, other] = await Promise.all([
        raw(server.port, method, path, body),
        // Sent while the bad request is in flight, on another connection.
        new Promise<SocketAnswer>((resolve, reject) =>
          setImmediate(() => raw(server.port, 'GET', '/static').then(resolve, reject)),
        ),
      ]);
      assert.equal(answer.status, 500, `${path}: ${answer.body.slice(0, 200)}`);
      const problem = JSON.parse(answer.body) as { title: string; detail: string; templateError: string };
      assert.equal(problem.title, 'Template error');
      assert.match(
        problem.detail,
        new RegExp(`endpoint "${path.slice(1)}" \\(${method} \\${path}\\) failed`),
      );
      assert.match(problem.templateError, reason, path);
      assert.ok(answer.ms < 10_000, `${path} answered in ${Math.round(answer.ms)} ms`);
      assert.equal(other.status, 200);
      assert.equal(other.body, 'still here');
      assert.ok(other.ms < 10_000, `the other client answered in ${Math.round(other.ms)} ms`);
    }
  });

  it('refuses a literal over a limit at save: exit 2, 400, MCP error, with the reason', async (t) => {
    const { cli } = cliSandbox(t);
    assert.equal((await cli(['project', 'create', 'api'])).code, 0);
    assertCliError(
      await cli(['endpoint', 'add', 'api', '-p', '/x', '-b', `{{faker 'string.alpha' 100000000}}`]),
      2,
      /Invalid template in body at line 1, column 1: faker string\.alpha: a length of 100000000 is over the limit of 10000/,
    );
    assertCliError(
      await cli(['endpoint', 'add', 'api', '-p', '/x', '-b', '{{#repeat 5000}}x{{/repeat}}']),
      2,
      /repeat gives at most 1000 items, and 5000 were asked for/,
    );
    assertCliError(
      await cli(['endpoint', 'add', 'api', '-p', '/x', '-b', '{{log "hello"}}']),
      2,
      /Invalid template in body .*unknown helper log: a template cannot write to the server log/,
    );

    const api = apiSandbox(t);
    assert.equal((await api.call('POST', '/api/v1/projects', { body: { name: 'api' } })).status, 201);
    const refused = await api.call('POST', '/api/v1/projects/api/endpoints', {
      body: { path: '/x', body: `{{faker 'lorem.paragraphs' 5000}}` },
    });
    assert.equal(refused.status, 400, refused.body);
    assert.match((refused.json as { detail: string }).detail, /a count of 5000 is over the limit of 1000/);

    const mcp = await startInMemoryMcp();
    t.after(() => mcp.close());
    await mcpOk(mcp.client, 'create_project', { name: 'api' });
    await fails(
      mcp.client,
      'create_endpoint',
      { projectId: 'api', path: '/x', headers: { 'X-Log': '{{log 1}}' } },
      /unknown helper log/,
    );
  });
});
