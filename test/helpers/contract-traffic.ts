import { readFileSync } from 'node:fs';
import type { AppContext } from '../../src/app/context.js';
import { addEndpoint } from '../../src/app/endpoints.js';
import { addVariation } from '../../src/app/variations.js';
import { rawRequest } from './http.js';
import type { CliSandbox } from './cli-inprocess.js';
import { json } from './cli.js';
import { waitUntil } from './wait.js';

/** A contract fixture's text (test/fixtures/contract/). */
export const contractFixtureText = (name: string): string =>
  readFileSync(new URL(`../fixtures/contract/${name}`, import.meta.url), 'utf8');

/** One request of a contract test, sent with `x-case: <name>` so its log record can be found. */
export interface CaseRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Sends each case's request to the server, one after another, marked with its name. */
export async function sendCases(
  base: string,
  cases: { name: string; request: CaseRequest }[],
): Promise<void> {
  for (const { name, request } of cases) {
    const headers: Record<string, string> = { 'x-case': name, ...request.headers };
    if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
    await rawRequest(base, request.path, { method: request.method ?? 'GET', headers, body: request.body });
  }
}

/** The logged request id of each case (by the `x-case` header it was sent with), once all `count` are logged. */
export async function caseIds(
  sandbox: CliSandbox,
  project: string,
  count: number,
): Promise<Map<string, string>> {
  const records = await waitUntil(async () => {
    const list = json<{ id: string; headers: Record<string, string> }[]>(
      await sandbox.cli(['requests', 'list', project, '--json', '-l', '10000']),
    );
    return list.length === count && list;
  }, `${count} logged requests of ${project}`);
  return new Map(records.map((r) => [r.headers['x-case'] ?? '', r.id]));
}

const pets = (id: unknown) => JSON.stringify([{ id, name: 'Rex', tag: null, born: '2020-01-02T03:04:05Z' }]);

/**
 * The mock of test/fixtures/contract/petstore-rules.yaml (contract-validate-http.test.ts): an endpoint per operation answering as the document says, and variations (picked by `x-answer`, or the
 * body's name) answering otherwise.
 */
export async function petstoreRulesMock(ctx: AppContext, project: string): Promise<void> {
  const total = { 'X-Total-Count': '1' };
  const add = (
    method: string,
    path: string,
    status: number,
    body: string,
    headers: Record<string, string> = {},
  ) => addEndpoint(ctx, project, { method, path, status, body, headers });
  const vary = (endpoint: string, name: string, input: Record<string, unknown>) =>
    addVariation(ctx, project, endpoint, { name, rules: [`header.x-answer=${name}`], ...input });
  await add('GET', '/api/:version/pets', 200, pets(1), total);
  await vary('GET /api/:version/pets', 'text', { contentType: 'text/plain', body: 'pets' });
  await vary('GET /api/:version/pets', 'body', { body: pets('one') });
  await add('GET', '/v1/pets', 200, pets(1)); // without the required X-Total-Count
  await add('GET', '/api/v1/nowhere', 200, '{}');
  await add('POST', '/api/v1/pets', 201, '{"id":3,"name":"Rex"}');
  await addVariation(ctx, project, 'POST /api/v1/pets', {
    name: 'secret',
    rules: ['body.name=Max'],
    body: '{"id":3,"name":"Max","secret":"s3"}',
  });
  await add('GET', '/api/v1/pets/:petId', 200, '{"id":7,"name":"Rex"}');
  await vary('GET /api/v1/pets/:petId', 'status', { status: 500, body: '{"code":500,"message":"down"}' });
  await add('PUT', '/api/v1/animals/:animalId', 200, '{"kind":"dog","barks":true}');
  await add('PATCH', '/api/v1/settings', 204, '');
  await add('GET', '/api/v1/reports/:range', 200, '{"total":99.5}');
  await vary('GET /api/v1/reports/:range', 'full', { body: '{"total":100}' });
  await add('GET', '/api/v1/nodes/:id', 200, '{"name":"a","children":[{"name":"b","children":[]}]}');
  await vary('GET /api/v1/nodes/:id', 'nameless', { body: '{"name":"a","children":[{"children":[]}]}' });
}
