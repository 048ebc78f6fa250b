import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../helpers/cli.js';
import { runCliInProcess } from '../helpers/cli-inprocess.js';
import { startUi } from '../helpers/ui.js';

type Json = Record<string, unknown>;

const PETSTORE = readFileSync(
  join(import.meta.dirname, '..', 'fixtures', 'openapi', 'petstore-3.0.yaml'),
  'utf8',
);

describe('admin API over a spawned `mockdev ui`: imports and settings', () => {
  it('imports a YAML document over HTTP that the CLI then lists; the API sees the CLI’s settings change', async (t) => {
    const { dir: dataDir, cleanup } = tempDir('mockdev-api-spawn-');
    t.after(cleanup);
    const ui = await startUi([], { dataDir });
    t.after(() => ui.stop('SIGKILL'));
    const base = ui.url;

    const imported = await fetch(`${base}/api/v1/import/openapi`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/yaml' },
      body: PETSTORE,
    });
    assert.equal(imported.status, 200, await imported.clone().text());
    const report = (await imported.json()) as { project: Json; created: Json[] };
    assert.equal(report.created.length, 5);

    const list = await runCliInProcess(['list', '--json'], { dataDir });
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(
      (JSON.parse(list.stdout) as Json[]).map((p) => [p.id, p.endpointCount]),
      [[report.project.id, 5]],
    );

    const exported = await fetch(`${base}/api/v1/projects/Petstore/openapi?format=json`);
    assert.match(exported.headers.get('content-type')!, /^application\/json/);
    assert.equal(((await exported.json()) as Json).openapi, '3.0.3');

    const form = await fetch(`${base}/api/v1/settings`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'text/plain' },
      body: '{"theme":"dark"}',
    });
    assert.equal(form.status, 415);
    const cli = await runCliInProcess(['settings', 'update', '--ui-port', '3333'], { dataDir });
    assert.equal(cli.code, 0, cli.stderr);
    const settings = (await (await fetch(`${base}/api/v1/settings`)).json()) as Json;
    assert.deepEqual([settings.uiPort, settings.theme], [3333, 'system']);

    assert.equal((await ui.stop('SIGTERM')).code, 0, ui.stderr());
  });
});
