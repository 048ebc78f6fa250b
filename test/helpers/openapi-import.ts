import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { ImportReport } from '../../src/app/openapi.js';
import type { Endpoint } from '../../src/core/model/endpoint.js';
import { ROOT, json } from './cli.js';
import { runCliInProcess } from './cli-inprocess.js';

/** A file of test/fixtures/openapi. */
export const fx = (name: string): string => join(ROOT, 'test', 'fixtures', 'openapi', name);

/** `mockdev import … --json` in-process; fails the test unless it exits 0. */
export const importJson = async (dataDir: string, args: string[]): Promise<ImportReport> => {
  const r = await runCliInProcess(['import', ...args, '--json'], { dataDir });
  assert.equal(r.code, 0, r.stderr);
  return json<ImportReport>(r);
};

/** The endpoint answering "METHOD /path"; fails the test, listing the routes, when there is none. */
export const byRoute = (eps: Endpoint[], route: string): Endpoint => {
  const e = eps.find((x) => `${x.method} ${x.path}` === route);
  assert.ok(e, `${route} in ${eps.map((x) => `${x.method} ${x.path}`).join(', ')}`);
  return e;
};
