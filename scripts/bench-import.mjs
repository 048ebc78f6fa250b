// The import measurement of `npm run bench`: `mockdev import` of GitHub's REST description
// (@octokit/openapi, fetched once with `npm pack` into .bench-cache/), median of
// BENCH_IMPORT_RUNS runs, each in a fresh data dir, process start included. BENCH_GITHUB_DOC
// names a copy of api.github.com.json at hand instead.
import { spawnSync } from 'node:child_process';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGunzip } from 'node:zlib';

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const OCTOKIT = '@octokit/openapi@23.0.2';
const GITHUB_ENTRY = 'package/generated/api.github.com.json';

/** Copies one file out of a .tgz, reading the archive as a stream (the package is 400 MB unpacked). */
async function extractFromTgz(tgz, wanted, dest) {
  let header = Buffer.alloc(0);
  let skip = 0;
  let take = -1;
  const out = [];
  const stream = createReadStream(tgz).pipe(createGunzip());
  for await (const chunk of stream) {
    let i = 0;
    while (i < chunk.length) {
      if (take > 0) {
        const n = Math.min(take, chunk.length - i);
        out.push(chunk.subarray(i, i + n));
        take -= n;
        i += n;
      } else if (skip > 0) {
        const n = Math.min(skip, chunk.length - i);
        skip -= n;
        i += n;
      } else {
        const n = Math.min(512 - header.length, chunk.length - i);
        header = Buffer.concat([header, chunk.subarray(i, i + n)]);
        i += n;
        if (header.length < 512) continue;
        const h = header;
        header = Buffer.alloc(0);
        if (h.every((b) => b === 0)) break;
        const field = (start, end) => h.toString('utf8', start, end).replace(/\0.*$/s, '');
        const name = field(345, 500) ? `${field(345, 500)}/${field(0, 100)}` : field(0, 100);
        const size = parseInt(field(124, 136).trim() || '0', 8);
        if (name === wanted) take = size;
        else skip = Math.ceil(size / 512) * 512;
      }
      if (take === 0) break;
    }
    if (take === 0) break;
  }
  stream.destroy();
  if (take !== 0) throw new Error(`${wanted} is not in ${tgz}`);
  writeFileSync(`${dest}.tmp`, Buffer.concat(out));
  renameSync(`${dest}.tmp`, dest);
}

/** The path of api.github.com.json, or why it cannot be had. */
async function githubDescription(root) {
  if (process.env.BENCH_GITHUB_DOC) {
    return existsSync(process.env.BENCH_GITHUB_DOC)
      ? { file: process.env.BENCH_GITHUB_DOC }
      : { skip: `BENCH_GITHUB_DOC=${process.env.BENCH_GITHUB_DOC} does not exist` };
  }
  const cache = join(root, '.bench-cache');
  const file = join(cache, 'octokit-openapi-23.0.2-api.github.com.json');
  if (existsSync(file)) return { file };
  mkdirSync(cache, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const packed = spawnSync(npm, ['pack', OCTOKIT, '--pack-destination', cache, '--loglevel=error'], {
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  const tgz = join(cache, (packed.stdout ?? '').trim().split('\n').pop() || 'octokit-openapi-23.0.2.tgz');
  if (packed.status !== 0 || !existsSync(tgz)) {
    const lines = (packed.stderr || packed.error?.message || `exit ${packed.status}`).trim().split('\n');
    const why = lines.find((l) => /error/i.test(l) && !/complete log/.test(l)) ?? lines[0];
    return { skip: `npm pack ${OCTOKIT} failed (${why})` };
  }
  try {
    await extractFromTgz(tgz, GITHUB_ENTRY, file);
  } catch (e) {
    return { skip: `could not extract ${GITHUB_ENTRY} from ${tgz}: ${e.message}` };
  } finally {
    rmSync(tgz, { force: true });
  }
  return { file };
}

const IMPORT_RUNS = Number(process.env.BENCH_IMPORT_RUNS ?? 5);

/** `mockdev import FILE` in a fresh data dir each run: wall ms, process start included. */
function importRuns(file, cli, env) {
  const times = [];
  let created = 0;
  for (let i = 0; i < IMPORT_RUNS; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'mockdev-bench-import-'));
    try {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, [cli, 'import', file], {
        env: { ...env, MOCKDEV_DATA_DIR: dir },
        encoding: 'utf8',
        maxBuffer: 1 << 28,
      });
      times.push(performance.now() - t0);
      if (r.status !== 0) throw new Error(`mockdev import failed (exit ${r.status}): ${r.stderr.trim()}`);
      created = Number(/: (\d+) created/.exec(r.stdout)?.[1] ?? 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { times, created };
}

/** The import line of the bench: the median time, or why it was skipped. */
export async function measureGithubImport({ root, cli, env }) {
  const doc = await githubDescription(root);
  if (doc.skip) return `import of GitHub's REST description: skipped: ${doc.skip}`;
  const { times, created } = importRuns(doc.file, cli, env);
  const mib = statSync(doc.file).size / 2 ** 20;
  const ms = median(times);
  return (
    `import of GitHub's REST description (${OCTOKIT}, ${mib.toFixed(1)} MiB, ${created.toLocaleString('en-US')} endpoints): ` +
    `median ${Math.round(ms).toLocaleString('en-US')} ms of ${times.length} runs (${times.map((t) => Math.round(t)).join(', ')}), ` +
    `process start included (target < 2,000) ${ms < 2000 ? 'OK' : 'ABOVE TARGET'}`
  );
}
