/**
 * The data directory is private (DECISIONS "Trust and data"): created 0700, every file in it
 * 0600 and every folder 0700 (the request log's SQLite files and spool, project JSON, locks,
 * settings, the server registry); one an earlier mockdev left readable by others is made private
 * when opened, saying so once, and nothing but mockdev's own files is touched.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createContext } from '../../src/app/context.js';
import { createProject, initProject } from '../../src/app/projects.js';
import { addEndpoint } from '../../src/app/endpoints.js';
import { startServer } from '../../src/app/server.js';
import { updateSettings } from '../../src/app/settings.js';
import { parseRequestFilters } from '../../src/core/model/request.js';
import { withLock } from '../../src/store/fs/lock.js';
import { tempDir } from '../helpers/cli.js';
import { cliSandbox } from '../helpers/cli-inprocess.js';
import { waitUntil } from '../helpers/wait.js';

const modeOf = (path: string): number => statSync(path).mode & 0o777;
const octal = (mode: number) => `0${mode.toString(8)}`;

/** Every file and folder under `root` whose mode is not private: [path, mode]. */
function notPrivate(root: string): [string, string][] {
  const out: [string, string][] = [];
  for (const name of readdirSync(root, { recursive: true }) as string[]) {
    const path = join(root, name);
    const s = statSync(path);
    const want = s.isDirectory() ? 0o700 : 0o600;
    if ((s.mode & 0o777) !== want) out.push([name, octal(s.mode & 0o777)]);
  }
  return out;
}

describe('the data directory is private', () => {
  it('creates it 0700 and every file in it 0600: request log (database, -wal, -shm, spool), recordings, projects, locks, settings, servers', async (t) => {
    const { dir, cleanup } = tempDir('mockdev-private-');
    t.after(cleanup);
    const dataDir = join(dir, 'data');
    const ctx = createContext({ dataDir, cwd: dir });
    t.after(() => ctx.close());
    const project = await createProject(ctx, { name: 'Shop' });
    await addEndpoint(ctx, project.id, { method: 'GET', path: '/me', body: '{}' });
    await initProject(ctx, { path: join(dataDir, 'demo'), name: 'demo' });
    await updateSettings(ctx, { requestLogLimit: 500 });
    assert.equal(modeOf(dataDir), 0o700, 'the data directory');

    const server = await startServer(ctx, { project: project.id, port: 0 });
    t.after(() => server.stop());
    const res = await fetch(`${server.url}/me`, {
      headers: { Authorization: 'Bearer s3cret', Cookie: 'sid=1' },
    });
    assert.equal(res.status, 200);
    await res.text();
    const spool = join(dataDir, 'requests-spool');
    // The server's spool file is open (`.open`) as long as it runs.
    await waitUntil(() => readdirSync(spool).some((n) => n.endsWith('.open')), 'the spool file', 10_000);
    assert.equal(readdirSync(join(dataDir, 'servers')).length, 1, 'the server record');
    assert.deepEqual(notPrivate(dataDir), [], 'while serving: spool, server record');
    await waitUntil(
      async () => (await ctx.requests.list(project.id, parseRequestFilters({}))).length === 1,
      'the request logged',
      10_000,
    );
    await ctx.recordings.list('none');
    await withLock(join(dataDir, '.test.lock'), async () => {
      assert.equal(modeOf(join(dataDir, '.test.lock')), 0o600, 'a lock file');
    });
    for (const f of [
      'requests.db',
      'requests.db-wal',
      'requests.db-shm',
      'recordings.db',
      'recordings.db-wal',
    ])
      assert.equal(modeOf(join(dataDir, f)), 0o600, f);
    assert.deepEqual(notPrivate(dataDir), [], 'with the databases open');
    await server.stop();
    ctx.close();
    assert.deepEqual(notPrivate(dataDir), [], 'after the server stopped');
  });

  it('makes a data directory an earlier mockdev left readable by others private, saying so once; other files are left alone', async (t) => {
    const { cli, dataDir } = cliSandbox(t);
    assert.equal((await cli(['project', 'create', 'Shop'])).code, 0);
    assert.equal(modeOf(dataDir), 0o700, 'made 0700 by the CLI');
    // As an earlier mockdev left it.
    const id = readdirSync(join(dataDir, 'projects')).find((n) => !n.startsWith('.'))!;
    writeFileSync(join(dataDir, 'requests.db-wal'), '');
    writeFileSync(join(dataDir, 'notes.txt'), 'the user’s own file');
    mkdirSync(join(dataDir, 'requests-spool'), { recursive: true });
    writeFileSync(join(dataDir, 'requests-spool', 'old.spool'), '');
    for (const [path, mode] of [
      [dataDir, 0o755],
      [join(dataDir, 'projects'), 0o755],
      [join(dataDir, 'projects', id), 0o755],
      [join(dataDir, 'projects', id, 'project.json'), 0o644],
      [join(dataDir, 'requests-spool'), 0o755],
      [join(dataDir, 'requests-spool', 'old.spool'), 0o644],
      [join(dataDir, 'requests.db-wal'), 0o644],
      [join(dataDir, 'notes.txt'), 0o644],
    ] as const)
      chmodSync(path, mode);

    const r = await cli(['list']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /Made the data directory .* private \(0700, and 6 of its files and folders 0600\/0700\)/,
    );
    assert.equal(modeOf(dataDir), 0o700);
    assert.equal(modeOf(join(dataDir, 'projects', id, 'project.json')), 0o600);
    assert.equal(modeOf(join(dataDir, 'requests-spool', 'old.spool')), 0o600);
    assert.equal(modeOf(join(dataDir, 'requests.db-wal')), 0o600);
    assert.equal(modeOf(join(dataDir, 'notes.txt')), 0o644, 'not mockdev’s: left alone');
    const again = await cli(['list']);
    assert.doesNotMatch(again.stderr, /private/, 'said once');
  });

  it('files mockdev writes outside the data directory keep the user’s mode (a project folder, an export)', async (t) => {
    const { cli, dir } = cliSandbox(t);
    assert.equal((await cli(['init', 'api', '--name', 'Api'])).code, 0);
    assert.equal((await cli(['export', 'Api', '-o', 'api.yaml'])).code, 0);
    const umask = process.umask();
    for (const f of [
      join(dir, 'api', 'project.json'),
      join(dir, 'api', 'endpoints.json'),
      join(dir, 'api.yaml'),
    ])
      assert.equal(modeOf(f), 0o666 & ~umask, f);
  });
});
