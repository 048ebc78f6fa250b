// Imports of other tools' files (issue 27) in `npm run bench`: `mockdev import` of a generated
// 5,000-entry HAR (three hosts, repeated routes with query strings, static assets) and of a
// generated 1,000-mapping WireMock folder (mappings/ with __files/), each the median of
// BENCH_IMPORT_FORMATS_RUNS runs (3) in a fresh data dir, process start included, against a 2 s
// target. An import that fails is reported as failed with its error (the bench then fails).
// BENCH_SKIP_IMPORT_FORMATS=1 skips it, BENCH_ONLY_IMPORT_FORMATS=1 runs only it.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TARGET_MS = 2000;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A HAR as a browser saves it: `count` entries over three hosts; every 10th a static asset. */
export function generateHar(count) {
  const hosts = [
    'api.example.com',
    'api.example.com',
    'api.example.com',
    'cdn.example.com',
    'auth.example.com',
  ];
  const entries = [];
  for (let i = 0; i < count; i++) {
    const host = hosts[i % hosts.length];
    const asset = i % 10 === 9;
    const route = i % 700;
    const url = asset
      ? `https://${host}/static/app-${i}.js`
      : `https://${host}/api/v1/things${route}/${route % 7 === 0 ? 'items' : 'detail'}?page=${i % 4}&sort=name`;
    const json = JSON.stringify({ id: route, page: i % 4, items: [{ n: i, name: `item ${i}` }] });
    entries.push({
      startedDateTime: new Date(1_700_000_000_000 + i * 10).toISOString(),
      time: 12.5,
      request: {
        method: i % 13 === 0 ? 'POST' : 'GET',
        url,
        httpVersion: 'http/2.0',
        headers: [
          { name: ':authority', value: host },
          { name: 'accept', value: 'application/json' },
        ],
        queryString: asset
          ? []
          : [
              { name: 'page', value: String(i % 4) },
              { name: 'sort', value: 'name' },
            ],
        cookies: [],
        headersSize: -1,
        bodySize: 0,
      },
      response: {
        status: i % 50 === 0 ? 404 : 200,
        statusText: '',
        httpVersion: 'http/2.0',
        headers: [
          {
            name: 'content-type',
            value: asset ? 'application/javascript' : 'application/json; charset=utf-8',
          },
          { name: 'content-encoding', value: 'br' },
          { name: 'content-length', value: String(json.length) },
          { name: 'x-request-id', value: `r-${i}` },
        ],
        cookies: [],
        content: {
          size: json.length,
          mimeType: asset ? 'application/javascript' : 'application/json',
          text: asset ? 'console.log(1)' : json,
        },
        redirectURL: '',
        headersSize: -1,
        bodySize: -1,
      },
      cache: {},
      timings: { send: 0.1, wait: 10, receive: 2.4 },
    });
  }
  return {
    log: { version: '1.2', creator: { name: 'WebInspector', version: '537.36' }, pages: [], entries },
  };
}

/** A WireMock root folder: `count` mapping files, every 5th sharing a path with query rules, every 10th a __files body. */
export function writeWireMockFolder(dir, count) {
  mkdirSync(join(dir, 'mappings'), { recursive: true });
  mkdirSync(join(dir, '__files'), { recursive: true });
  for (let i = 0; i < count; i++) {
    const shared = i % 5 === 0;
    const path = shared ? `/api/shared/${i % 50}` : `/api/resource${i}/items`;
    const response =
      i % 10 === 0
        ? { status: 200, bodyFileName: `body-${i}.json`, headers: { 'Content-Type': 'application/json' } }
        : {
            status: 200,
            jsonBody: { id: i, name: `thing ${i}` },
            headers: { 'Content-Type': 'application/json' },
          };
    if (i % 10 === 0)
      writeFileSync(join(dir, '__files', `body-${i}.json`), JSON.stringify({ id: i, from: 'file' }));
    const mapping = {
      id: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
      priority: 1 + (i % 3),
      request: shared
        ? { method: 'GET', urlPath: path, queryParameters: { v: { equalTo: String(i) } } }
        : { method: i % 7 === 0 ? 'POST' : 'GET', urlPath: path },
      response: i % 9 === 0 ? { ...response, fixedDelayMilliseconds: 20 } : response,
    };
    writeFileSync(join(dir, 'mappings', `mapping-${i}.json`), JSON.stringify(mapping));
  }
}

/** Runs `mockdev import <target>` in a fresh data dir; the time in ms, or the error. */
function importOnce(cli, env, target) {
  const dataDir = mkdtempSync(join(tmpdir(), 'mockdev-bench-import-formats-'));
  try {
    const started = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [cli, 'import', target, '--json'], {
      env: { ...env, MOCKDEV_DATA_DIR: dataDir },
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (r.status !== 0) return { error: `exit ${r.status}: ${(r.stderr || r.stdout).trim().split('\n')[0]}` };
    const report = JSON.parse(r.stdout);
    return { ms, endpoints: report.created.length, skipped: report.skipped.length };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Measures both imports; returns `{ ok, lines }` (ok: both imported, each under the target).
 */
export async function measureImportFormats({
  cli,
  env,
  runs = Number(process.env.BENCH_IMPORT_FORMATS_RUNS ?? 3),
}) {
  const dir = mkdtempSync(join(tmpdir(), 'mockdev-bench-formats-'));
  try {
    const har = join(dir, 'session.har');
    writeFileSync(har, JSON.stringify(generateHar(5000)));
    const wiremock = join(dir, 'wiremock');
    writeWireMockFolder(wiremock, 1000);
    const lines = [];
    let ok = true;
    for (const [what, target] of [
      ['HAR, 5,000 entries', har],
      ['WireMock folder, 1,000 mappings', wiremock],
    ]) {
      const times = [];
      let last;
      for (let i = 0; i < runs; i++) {
        last = importOnce(cli, env, target);
        if (last.error) break;
        times.push(last.ms);
      }
      if (last.error) {
        ok = false;
        lines.push(`import ${what}: FAILED (${last.error})`);
        continue;
      }
      const ms = median(times);
      const pass = ms < TARGET_MS;
      ok &&= pass;
      lines.push(
        `import ${what}: ${(ms / 1000).toFixed(2)} s median of ${runs} (${last.endpoints} endpoints, ${last.skipped} skipped; target < ${TARGET_MS / 1000} s: ${pass ? 'ok' : 'SLOW'})`,
      );
    }
    return { ok, lines };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
