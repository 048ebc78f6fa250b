/**
 * "Copy as code" runs: the curl, Node fetch and Python snippets that `mockdev endpoint code`
 * prints (the same text as the admin API's …/snippets) are executed against a live mock server
 * and must get the endpoint's answer; the server's log shows the headers and body they sent.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createContext } from '../../src/app/context.js';
import { addEndpoint } from '../../src/app/endpoints.js';
import { listRequests } from '../../src/app/requests.js';
import { startServer } from '../../src/app/server.js';
import { cliSandbox } from '../helpers/cli-inprocess.js';
import { waitUntil } from '../helpers/wait.js';

const run = promisify(execFile);

/** Runs a program; a missing one fails the test naming the package to install (never skipped). */
async function exec(file: string, args: string[], pkg: string): Promise<string> {
  try {
    const { stdout } = await run(file, args, { timeout: 20_000, encoding: 'utf8' });
    return stdout;
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stderr?: string };
    if (err.code === 'ENOENT')
      assert.fail(`${file} is not installed: install the "${pkg}" package to run this test`);
    throw new Error(`${file} ${args.join(' ')} failed: ${err.message}\n${err.stderr ?? ''}`);
  }
}

/** The status and body a snippet printed: fetch and Python print the status line, then the body. */
function statusThenBody(out: string): { status: number; body: string } {
  const nl = out.indexOf('\n');
  return { status: Number(out.slice(0, nl)), body: out.slice(nl + 1).replace(/\n$/, '') };
}

describe('copy as code: the snippets run', () => {
  it('curl, node fetch and python3 get the endpoint’s answer: path parameter, JSON POST, quoted header, error status', async (t) => {
    const sandbox = cliSandbox(t, 'mockdev-snippets-');
    assert.equal((await sandbox.cli(['project', 'create', 'Snips'])).code, 0);
    const ctx = createContext({ dataDir: sandbox.dataDir, cwd: sandbox.dir, env: {} });
    const quote = `it's a "quote"`;
    const postBody = `{"item":"it's \\"x\\"","n":1}`;
    await addEndpoint(ctx, 'Snips', { name: 'user', path: '/api/users/:id', body: '{"id":"{{params.id}}"}' });
    await addEndpoint(ctx, 'Snips', {
      name: 'order',
      method: 'POST',
      path: '/api/orders',
      status: 201,
      body: '{"created":true}',
      request: {
        headers: { 'X-Note': quote, 'Content-Type': 'application/json' },
        query: { source: 'snippet test' },
        body: postBody,
        auth: null,
      },
    });
    await addEndpoint(ctx, 'Snips', {
      name: 'gone',
      method: 'PUT',
      path: '/api/things/{thingId}',
      status: 410,
      body: '{"error":"gone"}',
    });
    const server = await startServer(ctx, { project: 'Snips', port: 0 });
    sandbox.defer(async () => {
      await server.stop();
      ctx.close();
    });

    const expected = {
      user: { status: 200, body: '{"id":"1"}' },
      order: { status: 201, body: '{"created":true}' },
      gone: { status: 410, body: '{"error":"gone"}' },
    };
    for (const [name, want] of Object.entries(expected)) {
      const code = async (lang: string) => {
        const r = await sandbox.cli(['endpoint', 'code', 'Snips', name, '--lang', lang]);
        assert.equal(r.code, 0, r.stderr);
        assert.ok(
          r.stdout.includes(server.url),
          `${lang} calls the running server ${server.url}:\n${r.stdout}`,
        );
        return r.stdout;
      };

      const curl = (await code('curl')).replace(/\n$/, '');
      const curlOut = await exec('sh', ['-c', `${curl} -sS -w '\\n%{http_code}'`], 'curl');
      const cut = curlOut.lastIndexOf('\n');
      assert.deepEqual(
        { status: Number(curlOut.slice(cut + 1)), body: curlOut.slice(0, cut) },
        want,
        `curl ${name}`,
      );

      const mjs = join(sandbox.dir, `${name}.mjs`);
      writeFileSync(mjs, await code('fetch'));
      assert.deepEqual(statusThenBody(await exec(process.execPath, [mjs], 'nodejs')), want, `fetch ${name}`);

      const py = join(sandbox.dir, `${name}.py`);
      writeFileSync(py, await code('python'));
      assert.deepEqual(statusThenBody(await exec('python3', [py], 'python3')), want, `python ${name}`);
    }

    // What they sent: the captured header (quotes intact), query and JSON body; {} for the PUT.
    const logged = await waitUntil(async () => {
      const all = await listRequests(ctx, 'Snips', { limit: 100 });
      return all.length === 9 && all;
    }, 'the 9 snippet requests in the log');
    const posts = logged.filter((r) => r.method === 'POST');
    assert.equal(posts.length, 3);
    const header = (h: Record<string, string>, name: string) =>
      Object.entries(h).find(([k]) => k.toLowerCase() === name)?.[1];
    for (const r of posts) {
      assert.equal(r.path, '/api/orders');
      assert.equal(header(r.headers, 'x-note'), quote);
      assert.deepEqual(r.query, { source: 'snippet test' });
      assert.equal(r.body, postBody);
    }
    const puts = logged.filter((r) => r.method === 'PUT');
    assert.deepEqual(
      puts.map((r) => [r.path, r.body, header(r.headers, 'content-type')]),
      Array(3).fill(['/api/things/1', '{}', 'application/json']),
    );
    assert.deepEqual(
      logged.filter((r) => r.method === 'GET').map((r) => r.path),
      Array(3).fill('/api/users/1'),
    );
  });
});
