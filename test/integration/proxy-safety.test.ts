/**
 * What a proxy endpoint may do (issue 20): a proxy aimed at its own server answers 508 Loop
 * Detected after a few hops instead of looping, each hop logged; only http: and https: targets
 * are saved (CLI, admin API, MCP, an import), and one stored anyway (a hand edit) sends nothing.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import type { RequestRecord } from '../../src/core/model/request.js';
import { apiSandbox } from '../helpers/api.js';
import { json } from '../helpers/cli.js';
import { cliSandbox } from '../helpers/cli-inprocess.js';
import { fails, ok, startInMemoryMcp } from '../helpers/mcp.js';
import { makeProject, startServe, waitUntil } from '../helpers/server.js';
import { within } from '../helpers/wait.js';

const BAD_TARGETS = [
  'file:///etc/passwd',
  'ftp://example.com/x',
  'data:text/plain,hello',
  'gopher://example.com/',
  'javascript:alert(1)',
];

describe('proxy endpoints', () => {
  it('a proxy aimed at its own server answers 508 after a few hops, each logged', async (t) => {
    const sandbox = cliSandbox(t);
    assert.equal((await sandbox.cli(['project', 'create', 'loop'])).code, 0);
    const server = await startServe(['loop'], { dataDir: sandbox.dataDir });
    sandbox.defer(() => server.stop());
    const added = await sandbox.cli([
      'endpoint',
      'add',
      'loop',
      '-n',
      'self',
      '-p',
      '/again',
      '--proxy',
      server.url,
    ]);
    assert.equal(added.code, 0, added.stderr);
    await waitUntil(
      async () => (await fetch(`${server.url}/again`, { method: 'HEAD' })).status !== 404,
      'the reload',
    );
    const before = json<RequestRecord[]>(await sandbox.cli(['requests', 'list', 'loop', '--json'])).length;

    const res = await within(fetch(`${server.url}/again`), 15_000, 'the looping request');
    assert.equal(res.status, 508);
    assert.equal(res.headers.get('content-type'), 'application/problem+json');
    const problem = (await res.json()) as Record<string, unknown>;
    assert.equal(problem.code, 'PROXY_LOOP');
    assert.equal(problem.title, 'Loop detected');
    assert.equal(problem.hops, 5);
    assert.equal(problem.endpoint, 'self');
    assert.match(
      String(problem.detail),
      /passed 5 mockdev proxies .*proxy endpoint "self" \(GET \/again\) forwards to http:\/\/127\.0\.0\.1:\d+/,
    );

    // The client's request and each of its 5 hops, every one answered 508 and logged.
    const logged = await waitUntil(async () => {
      const all = json<RequestRecord[]>(await sandbox.cli(['requests', 'list', 'loop', '--json']));
      return all.length - before >= 6 && all.slice(0, all.length - before);
    }, 'the hops in the log');
    assert.equal(logged.length, 6);
    assert.deepEqual(new Set(logged.map((r) => r.status)), new Set([508]));
    assert.deepEqual(
      logged.map((r) => (r.headers.Via ?? r.headers.via ?? '').split(',').filter(Boolean).length).sort(),
      [0, 1, 2, 3, 4, 5],
    );
  });

  it('only http: and https: targets are saved: CLI, admin API, MCP and an import refuse the others', async (t) => {
    const sandbox = cliSandbox(t);
    assert.equal((await sandbox.cli(['project', 'create', 'p'])).code, 0);
    for (const target of BAD_TARGETS) {
      const r = await sandbox.cli(['endpoint', 'add', 'p', '-p', '/x', '--proxy', target]);
      assert.equal(r.code, 2, `${target}: ${r.stderr}`);
      assert.match(
        r.stderr,
        /proxy\.target.*must be an http: or https: URL such as https:\/\/api\.example\.com, not [a-z]+:/,
      );
    }
    const templated = await sandbox.cli([
      'endpoint',
      'add',
      'p',
      '-p',
      '/t',
      '--proxy',
      'file://{{env.DIR}}',
    ]);
    assert.equal(templated.code, 2, 'a template that starts with another scheme');
    assert.equal(
      (await sandbox.cli(['endpoint', 'add', 'p', '-p', '/ok', '--proxy', 'https://api.example.com'])).code,
      0,
    );
    const upd = await sandbox.cli(['endpoint', 'update', 'p', 'GET /ok', '--proxy', 'gopher://example.com']);
    assert.equal(upd.code, 2, upd.stderr);

    const api = apiSandbox(t);
    const project = await api.call('POST', '/api/v1/projects', { body: { name: 'a' } });
    const id = (project.json as { id: string }).id;
    const r = await api.call('POST', `/api/v1/projects/${id}/endpoints`, {
      body: { path: '/x', kind: 'proxy', proxy: { target: 'file:///etc/passwd' } },
    });
    assert.equal(r.status, 400, r.body);
    assert.match(r.body, /must be an http: or https: URL.*not file:/);

    const mcp = await startInMemoryMcp();
    t.after(() => mcp.close());
    const created = await ok<{ id: string }>(mcp.client, 'create_project', { name: 'm' });
    await fails(
      mcp.client,
      'create_endpoint',
      { projectId: created.id, path: '/x', kind: 'proxy', proxy: { target: 'ftp://example.com' } },
      /must be an http: or https: URL.*not ftp:/,
    );

    const doc = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'T', version: '1' },
      paths: {
        '/x': {
          get: {
            'x-mockdev-proxy': { target: 'data:text/plain,hi' },
            responses: { 200: { description: 'ok' } },
          },
        },
      },
    });
    const imported = await sandbox.cli(['import', '-', '-p', 'p', '--json'], { input: doc });
    const endpoints = json<{ path: string }[]>(await sandbox.cli(['endpoint', 'list', 'p', '--json']));
    assert.equal(
      endpoints.filter((e) => e.path === '/x').length,
      0,
      `not imported: ${imported.stdout}${imported.stderr}`,
    );
    assert.match(imported.stdout + imported.stderr, /must be an http: or https: URL.*not data:/);
  });

  it('a bad target stored by a hand edit sends nothing: a clear 500', async (t) => {
    const sandbox = cliSandbox(t);
    // A stored ftp: target used to be asked over HTTP (port 80 when it gives none).
    let reached = false;
    const upstream = http.createServer((_req, res) => {
      reached = true;
      res.end('reached');
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    t.after(() => upstream.close());
    const port = (upstream.address() as AddressInfo).port;
    await makeProject(
      sandbox.dataDir,
      'hand',
      BAD_TARGETS.map((target, i) => ({
        path: `/p${i}`,
        kind: 'proxy',
        proxy: { target, record: false },
      })).concat([
        { path: '/local', kind: 'proxy', proxy: { target: `ftp://127.0.0.1:${port}`, record: false } },
      ]),
    );
    const server = await startServe(['hand'], { dataDir: sandbox.dataDir });
    sandbox.defer(() => server.stop());
    const targets = [...BAD_TARGETS, `ftp://127.0.0.1:${port}`];
    for (const [i, path] of [...BAD_TARGETS.map((_, i) => `/p${i}`), '/local'].entries()) {
      const res = await fetch(`${server.url}${path}`);
      assert.equal(res.status, 500, path);
      const problem = (await res.json()) as { title: string; detail: string; target: string };
      assert.equal(problem.title, 'Proxy target not supported');
      assert.equal(problem.target, targets[i], 'the target as stored, not quoted again');
      assert.match(problem.detail, /must be an http: or https: URL.*nothing was sent/);
    }
    assert.equal(reached, false, 'nothing was sent');
  });
});
