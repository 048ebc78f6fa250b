// Templated responses in `npm run bench` (issues 12 and 25): the demo project's GET
// /api/users/:id twice more on one server, once with a template reading a path parameter, a
// variable of the active environment and one fake first name, once with a body using twelve of
// the Mockoon/WireMock helpers added for template parity; each measured in alternating turns
// with the static endpoint of the same server (scripts/bench-measure.mjs measurePair).
// BENCH_SKIP_TEMPLATES=1 skips it. The environment (a Pro feature) is made by bench.mjs.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const TEMPLATED_PATH = '/api/templated/users/42';
const PARITY_PATH = '/api/parity/users/42';
// Issue 25: a body using twelve of the Mockoon/WireMock helpers added for template parity.
const PARITY_HELPERS = [
  'add',
  'subtract',
  'gt',
  'padStart',
  'toFixed',
  'concat',
  'base64',
  'guid',
  'randomInt',
  'now',
  'regexExtract',
  'eq',
];
const PARITY_BODY =
  `{"id":"{{params.id}}","next":{{add params.id 1}},"prev":{{subtract params.id 1}},"big":{{gt params.id 10}},` +
  `"code":"{{padStart params.id 6 '0'}}","price":"{{toFixed 3.14159 2}}","tag":"{{concat 'u-' params.id}}",` +
  `"b64":"{{base64 params.id}}","uuid":"{{guid}}","n":{{randomInt lower=1 upper=9}},"day":"{{now format='yyyy-MM-dd'}}",` +
  `"first":"{{regexExtract request.path '[a-z]+'}}","same":{{eq params.id '42'}}}`;

const f = (n, d = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d })
    : 'n/a';

/** The demo project with the static endpoint and its two templated copies; its folder. */
export function prepareTemplated({ dataDir, mockdev }) {
  const templatedDir = join(dataDir, 'templated');
  mockdev('init', templatedDir, '--name', 'templated', '--with-examples');
  const endpoints = JSON.parse(readFileSync(join(templatedDir, 'endpoints.json'), 'utf8'));
  const staticUser = endpoints.find((e) => e.method === 'GET' && /^\/api\/users\/[:{]/.test(e.path));
  const copy = (suffix, name, folder, body) => ({
    ...staticUser,
    id: `${staticUser.id}-${suffix}`,
    name: `${staticUser.name} (${name})`,
    path: staticUser.path.replace('/api/users/', `/api/${folder}/users/`),
    body,
  });
  endpoints.push(
    copy(
      'templated',
      'templated',
      'templated',
      `{"id":"{{params.id}}","api":"{{env.API}}","name":"{{faker 'person.firstName'}}"}`,
    ),
    copy('parity', 'parity helpers', 'parity', PARITY_BODY),
  );
  writeFileSync(join(templatedDir, 'endpoints.json'), JSON.stringify(endpoints, null, 2));
  return templatedDir;
}

/** Checks both templated answers, measures them; the row and the summary lines (given the plain row). */
export async function measureTemplated({ cli, templatedDir, measurer, PATH }) {
  const { startServer, stopServer, measure, measurePair, freePort } = measurer;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const tUrl = `${base}${TEMPLATED_PATH}`;
  const pUrl = `${base}${PARITY_PATH}`;
  const server = await startServer([process.execPath, cli, 'serve', templatedDir, '-p', String(port)], tUrl);
  const check = await fetch(tUrl);
  const sample = await check.json();
  if (check.status !== 200 || sample.id !== '42' || sample.api !== 'https://api.example.test' || !sample.name)
    throw new Error(`the templated endpoint answers ${JSON.stringify(sample)}`);
  const pCheck = await fetch(pUrl);
  const pAnswer = await pCheck.json();
  if (
    pCheck.status !== 200 ||
    pAnswer.next !== 43 ||
    pAnswer.code !== '000042' ||
    pAnswer.first !== 'api' ||
    pAnswer.same !== true
  )
    throw new Error(`the parity-helpers endpoint answers ${JSON.stringify(pAnswer)}`);
  const res = measure('mockdev, templated body (params + env + faker)', server, tUrl);
  const templatedPair = measurePair(server, `${base}${PATH}`, tUrl);
  const parityPair = measurePair(server, `${base}${PATH}`, pUrl);
  await stopServer(server);

  const pairLine = (what, { a, b, rounds, secs }) => {
    const ratio = b.rps / a.rps;
    return (
      `${what} vs the static endpoint, same server, ${rounds} alternating ${secs}s turns each: ` +
      `${f(b.rps, 0)} vs ${f(a.rps, 0)} req/s = ${ratio.toFixed(3)}x (target >= 0.7) ${ratio >= 0.7 ? 'OK' : 'BELOW TARGET'}, ` +
      `CPU per request ${f(b.cpuUsPerReq, 1)} vs ${f(a.cpuUsPerReq, 1)} µs`
    );
  };
  const lines = (plain) => [
    `${pairLine('templated body (params + env + one fake name)', templatedPair)}; ` +
      `its own row vs the plain row: ${(res.rps / plain.rps).toFixed(3)}x, p99 ${f(res.p99Ms, 2)} ms`,
    pairLine(
      `template with ${PARITY_HELPERS.length} parity helpers (${PARITY_HELPERS.join(', ')})`,
      parityPair,
    ),
  ];
  return { res, lines };
}
