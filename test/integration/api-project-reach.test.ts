/**
 * The admin API names a project by its id or name only (DECISIONS "Trust and data"): a
 * filesystem path in `{project}` is not found, tells nothing about the file system, registers
 * nothing, and no request writes or deletes outside the data directory.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, it } from 'node:test';
import { initProject } from '../../src/app/projects.js';
import { projectFile } from '../contract/project-store.contract.js';
import { apiSandbox } from '../helpers/api.js';
import { tempDir } from '../helpers/cli.js';

type Json = Record<string, unknown>;

/** Every file under a folder with its content and mtime: what must not change. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    const s = statSync(path);
    out[name] = s.isDirectory() ? 'dir' : `${s.mtimeMs}:${readFileSync(path, 'utf8')}`;
  }
  return out;
}

describe('admin API: {project} is an id or a name, never a path', () => {
  it('a folder holding project.json outside the data directory: not found by any spelling of its path, nothing read, written, registered or deleted', async (t) => {
    const api = apiSandbox(t);
    const outside = tempDir('mockdev-outside-');
    t.after(outside.cleanup);
    const folder = join(outside.dir, 'victim');
    mkdirSync(folder);
    const file = projectFile('Victim');
    writeFileSync(join(folder, 'project.json'), JSON.stringify(file));
    writeFileSync(join(folder, 'endpoints.json'), '[]');
    const before = snapshot(outside.dir);

    const refs = [
      folder, // absolute
      `${folder}/`,
      join('..', basename(outside.dir), 'victim'), // relative to the API's working folder (the data dir)
      `../../../../../../..${folder}`,
      '..',
      '.',
      '~',
    ];
    for (const ref of refs) {
      const path = `/api/v1/projects/${encodeURIComponent(ref)}`;
      for (const [method, url, body] of [
        ['GET', path, undefined],
        ['GET', `${path}/endpoints`, undefined],
        ['PATCH', path, { description: 'pwned' }],
        ['POST', `${path}/endpoints`, { method: 'GET', path: '/pwned' }],
        ['DELETE', `${path}/requests`, undefined],
        ['DELETE', path, undefined],
      ] as const) {
        const r = await api.call(method, url, body === undefined ? {} : { body });
        assert.equal(r.status, 404, `${method} ${url}: ${r.body}`);
        assert.equal((r.json as Json).code, 'PROJECT_NOT_FOUND', `${method} ${url}`);
      }
    }
    assert.deepEqual(snapshot(outside.dir), before, 'nothing outside the data directory changed');
    assert.equal(existsSync(join(api.dataDir, 'folders.json')), false, 'no folder was registered');
    const listed = (await api.call('GET', '/api/v1/projects')).json as Json[];
    assert.deepEqual(listed, [], 'the folder is not listed');
    assert.deepEqual(await api.ctx.projects.find(file.id), [], 'nor known to the store');
  });

  it('an existing and a missing file answer alike: the API is no oracle of the file system', async (t) => {
    const api = apiSandbox(t);
    const exists = await api.call('GET', `/api/v1/projects/${encodeURIComponent('/etc/passwd')}`);
    const missing = await api.call('GET', `/api/v1/projects/${encodeURIComponent('/etc/no-such-file')}`);
    const dir = await api.call('GET', `/api/v1/projects/${encodeURIComponent('/etc')}`);
    for (const r of [exists, missing, dir]) {
      assert.equal(r.status, 404, r.body);
      assert.equal((r.json as Json).code, 'PROJECT_NOT_FOUND');
      assert.match((r.json as Json).detail as string, /give a project id or name, not a folder/);
    }
    const shape = (r: typeof exists) => ((r.json as Json).detail as string).replace(/"[^"]*"/, '"…"');
    assert.equal(shape(exists), shape(missing));
    assert.equal(shape(dir), shape(missing));
  });

  it('a NUL or another control character in {project} is 400, whatever the route', async (t) => {
    const api = apiSandbox(t);
    for (const url of [
      '/api/v1/projects/a%00b',
      '/api/v1/projects/%00',
      `/api/v1/projects/${encodeURIComponent('/etc/passwd\0')}`,
      '/api/v1/projects/shop%0Aapi/endpoints',
    ]) {
      const r = await api.call('GET', url);
      assert.equal(r.status, 400, `${url}: ${r.body}`);
      assert.equal((r.json as Json).code, 'INVALID_ARGUMENT');
      assert.ok(!r.body.includes('\u0000') && !r.body.includes('\\u0000'), 'the NUL is not echoed');
    }
  });

  it('a folder project the CLI made known is reached by its id and name, never by its folder', async (t) => {
    const api = apiSandbox(t);
    const outside = tempDir('mockdev-outside-');
    t.after(outside.cleanup);
    const made = await initProject({ ...api.ctx, cwd: outside.dir }, { path: 'shop', name: 'Folder Shop' });
    const byId = await api.call('GET', `/api/v1/projects/${made.id}`);
    assert.equal(byId.status, 200, byId.body);
    assert.equal((byId.json as Json).dir, made.dir);
    assert.equal(
      (await api.call('GET', `/api/v1/projects/${encodeURIComponent('Folder Shop')}`)).status,
      200,
    );
    const byPath = await api.call('GET', `/api/v1/projects/${encodeURIComponent(made.dir)}`);
    assert.equal(byPath.status, 404, byPath.body);
    const patched = await api.call('PATCH', `/api/v1/projects/${made.id}`, { body: { description: 'ok' } });
    assert.equal(patched.status, 200, patched.body);
    assert.equal(
      (JSON.parse(readFileSync(join(made.dir, 'project.json'), 'utf8')) as Json).description,
      'ok',
    );
  });
});
