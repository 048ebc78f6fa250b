import { readFileSync } from 'node:fs';
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
