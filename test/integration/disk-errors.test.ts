/**
 * A failing disk is IO_ERROR naming the file and the cause in words, never "a bug in mockdev"
 * (docs/errors.md "Disk errors"). Real failures: the built CLI spawned under a file-size limit
 * (`ulimit -f`), which fails a write with EFBIG for any user, root included (permissions would
 * not bite when the tests run as root).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createContext } from '../../src/app/context.js';
import { createProject } from '../../src/app/projects.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { seedRequests } from '../helpers/mcp.js';

const LIMIT_BLOCKS = 64; // 32 KiB (sh's 512-byte blocks) or 64 KiB (1024-byte ones)

describe('disk errors are IO_ERROR naming the file and the cause', () => {
  it('a project file that cannot be written (file-size limit): exit 1, the file and the cause named, the file left whole', async (t) => {
    const { dir, cleanup } = tempDir('mockdev-disk-');
    t.after(cleanup);
    const dataDir = join(dir, 'data');
    const made = await runCli(['project', 'create', 'Big', '--json'], { dataDir });
    assert.equal(made.code, 0, made.stderr);
    const { id } = JSON.parse(made.stdout) as { id: string };
    const file = join(dataDir, 'projects', id, 'endpoints.json');
    const before = readFileSync(file, 'utf8');

    const r = await runCli(['endpoint', 'add', 'Big', '-p', '/big', '-b', 'x'.repeat(100_000)], {
      dataDir,
      fileSizeLimitBlocks: LIMIT_BLOCKS,
    });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /Could not write .*endpoints\.json: the file is larger than this system allows/);
    assert.match(r.stderr, /ulimit -f/, 'says what to do');
    assert.doesNotMatch(r.stderr, /bug in mockdev|EFBIG|\n\s+at /);
    assert.equal(readFileSync(file, 'utf8'), before, 'left whole');
    assert.deepEqual(
      readdirSync(join(dataDir, 'projects', id)).filter((n) => n.endsWith('.tmp')),
      [],
      'no temp file left behind',
    );
  });

  it('the request log cannot grow (file-size limit): `requests clear` is IO_ERROR naming requests.db, not INTERNAL, and loses nothing', async (t) => {
    const { dir, cleanup } = tempDir('mockdev-disk-');
    t.after(cleanup);
    const dataDir = join(dir, 'data');
    const ctx = createContext({ dataDir, cwd: dir });
    t.after(() => ctx.close());
    const project = await createProject(ctx, { name: 'Busy' });
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      method: 'GET',
      url: `/items/${i}?q=${'v'.repeat(200)}`,
      status: 200,
    }));
    await seedRequests(ctx, project.id, null, rows); // ~900 KB in requests.db
    ctx.close();

    // Deleting them writes every page to the write-ahead log: far beyond the limit.
    const r = await runCli(['requests', 'clear', 'Busy', '--force'], {
      dataDir,
      fileSizeLimitBlocks: LIMIT_BLOCKS,
    });
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      /Could not update the request log .*requests\.db: the disk refused a read or write/,
    );
    assert.doesNotMatch(r.stderr, /bug in mockdev|Unexpected error|\n\s+at /);

    const kept = await runCli(['requests', 'list', 'Busy', '--json', '-l', '5000'], { dataDir });
    assert.equal(kept.code, 0, kept.stderr);
    assert.equal((JSON.parse(kept.stdout) as unknown[]).length, rows.length, 'nothing lost');
  });
});
