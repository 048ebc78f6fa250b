import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Endpoint } from '../../src/core/model/endpoint.js';
import type { Flow } from '../../src/core/model/flow.js';
import { json, type CliResult } from './cli.js';
import { cliSandbox, type AfterHook } from './cli-inprocess.js';

/** A CLI run that succeeded (exit 0, else the failure shows its stderr). */
export const ok = (r: CliResult): CliResult => {
  assert.equal(r.code, 0, `exit code (stderr: ${r.stderr})`);
  return r;
};

/** A sandbox with project "shop": POST /orders (202), GET /status, and a proxy GET /up/*. */
export async function shop(t: AfterHook) {
  const box = cliSandbox(t, 'mockdev-flows-');
  const { cli } = box;
  const project = json<{ id: string }>(ok(await cli(['project', 'create', 'shop', '--json'])));
  ok(
    await cli(['endpoint', 'add', 'shop', '-m', 'POST', '-p', '/orders', '-s', '202', '-n', 'create-order']),
  );
  ok(await cli(['endpoint', 'add', 'shop', '-p', '/status']));
  ok(await cli(['endpoint', 'add', 'shop', '-p', '/up/*', '--proxy', 'http://127.0.0.1:9']));
  const endpoints = json<Endpoint[]>(ok(await cli(['endpoint', 'list', 'shop', '--json'])));
  const id = (path: string) => endpoints.find((e) => e.path === path)!.id;
  const flowsFile = join(box.dataDir, 'projects', project.id, 'flows.json');
  const stored = () => JSON.parse(readFileSync(flowsFile, 'utf8')) as Flow[];
  return { ...box, project, id, flowsFile, stored };
}
