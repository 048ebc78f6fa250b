// Resources (issue 26) in `npm run bench`: requests/s of GET one item, GET a page of the list and
// POST a new item, on a resource seeded with 1,000 items, each beside the static endpoint of the
// same server (alternating turns, scripts/bench-measure.mjs measurePair). The POSTs keep adding
// items (and the state is written behind as they come), so that row includes the growth.
// BENCH_SKIP_RESOURCES=1 skips it, BENCH_ONLY_RESOURCES=1 runs only it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PATH = '/api/users/42';
const ITEMS = 1000;

/** A GET; a keep-alive connection left idle while the (blocking) load ran may have been closed: retried. */
async function fetchAgain(url, tries = 3) {
  try {
    return await fetch(url);
  } catch (e) {
    if (tries <= 1) throw e;
    return fetchAgain(url, tries - 1);
  }
}

/**
 * Measures the resource scenario. Takes the bench's measurer (scripts/bench-measure.mjs) and its
 * settings; returns the summary lines.
 */
export async function measureResources({ cli, dataDir, mockdev, measurer }) {
  const { startServer, stopServer, measurePair, freePort } = measurer;
  const dir = join(dataDir, 'resourced');
  mockdev('init', dir, '--name', 'resourced', '--with-examples');
  const seed = Array.from({ length: ITEMS }, (_, i) => ({
    id: i + 1,
    name: `Person ${i + 1}`,
    email: `person${i + 1}@example.test`,
    role: i % 10 === 0 ? 'admin' : 'user',
  }));
  const seedFile = join(dataDir, 'people.json');
  writeFileSync(seedFile, JSON.stringify(seed));
  mockdev('resource', 'add', dir, '/api/people', '--seed', seedFile);

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await startServer(
    [process.execPath, cli, 'serve', dir, '-p', String(port)],
    `${base}/api/people/500`,
  );
  const check = await fetch(`${base}/api/people?limit=1`);
  if (check.headers.get('x-total-count') !== String(ITEMS))
    throw new Error(`the resource answers ${check.status} with ${check.headers.get('x-total-count')} items`);
  const staticUrl = `${base}${PATH}`;
  const one = measurePair(server, staticUrl, `${base}/api/people/500`);
  const page = measurePair(server, staticUrl, `${base}/api/people?role=admin&limit=20&offset=40`);
  const post = measurePair(server, staticUrl, {
    url: `${base}/api/people`,
    post: { body: JSON.stringify({ name: 'New person', email: 'new@example.test', role: 'user' }) },
  });
  const total = Number((await fetchAgain(`${base}/api/people?limit=0`)).headers.get('x-total-count'));
  await stopServer(server);

  const f = (n, d = 0) => n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
  const line = (what, { a, b, rounds, secs }) =>
    `resource of ${f(ITEMS)} items, ${what} vs the static endpoint, same server, ${rounds} alternating ${secs}s turns each: ` +
    `${f(b.rps)} vs ${f(a.rps)} req/s = ${(b.rps / a.rps).toFixed(3)}x, CPU per request ${f(b.cpuUsPerReq, 1)} vs ${f(a.cpuUsPerReq, 1)} µs`;
  return {
    lines: [
      line('GET one item', one),
      line('GET a filtered page (role=admin, limit 20)', page),
      `${line('POST a new item', post)} (${f(total)} items at the end)`,
    ],
  };
}
