/**
 * A project whose project.json is broken or from a newer mockdev is listed as unreadable, with
 * the file and the problem (CLI table and --json, the admin API), never left out silently; a
 * broken list of project folders is moved aside with a warning, never overwritten.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { json } from '../helpers/cli.js';
import { cliSandbox } from '../helpers/cli-inprocess.js';
import { apiSandbox } from '../helpers/api.js';

type Json = Record<string, unknown>;
type Unreadable = {
  id?: string;
  name?: string;
  dir?: string;
  unreadable: { file: string; code: string; problem: string };
};

describe('unreadable projects are listed, with the file and the problem', () => {
  it('list and list --json: a corrupt folder project and a newer-version managed project', async (t) => {
    const { cli, dir, dataDir } = cliSandbox(t);
    const fine = json<Json>(await cli(['project', 'create', 'Fine', '--json']));
    const newer = json<Json>(await cli(['project', 'create', 'Newer', '--json']));
    assert.equal((await cli(['init', 'folder', '--name', 'Folder'])).code, 0);
    const folderFile = join(dir, 'folder', 'project.json');
    writeFileSync(folderFile, '{ "id": ');
    const newerFile = join(dataDir, 'projects', newer.id as string, 'project.json');
    const newerText = JSON.stringify({ ...JSON.parse(readFileSync(newerFile, 'utf8')), schemaVersion: 42 });
    writeFileSync(newerFile, newerText);

    const listed = json<(Json | Unreadable)[]>(await cli(['list', '--json']));
    assert.equal(listed[0]?.id, fine.id, 'the readable ones first');
    const unreadable = listed.filter((p): p is Unreadable => 'unreadable' in p);
    assert.equal(listed.length, 3);
    const byCode = Object.fromEntries(unreadable.map((u) => [u.unreadable.code, u]));
    assert.equal(byCode.CORRUPT_FILE?.unreadable.file.endsWith(join('folder', 'project.json')), true);
    assert.match(byCode.CORRUPT_FILE!.unreadable.problem, /project\.json is not valid JSON/);
    assert.equal(byCode.CORRUPT_FILE?.name, 'Folder', 'known from before it broke');
    assert.ok(byCode.CORRUPT_FILE?.dir, 'a folder project says its folder');
    assert.equal(byCode.UNSUPPORTED_VERSION?.unreadable.file, newerFile);
    assert.equal(byCode.UNSUPPORTED_VERSION?.id, newer.id);
    assert.match(byCode.UNSUPPORTED_VERSION!.unreadable.problem, /schemaVersion 42.*Upgrade mockdev/);

    const table = await cli(['list']);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /Fine/);
    assert.match(table.stdout, /2 projects cannot be read \(UNREADABLE\)/);
    assert.match(
      table.stdout,
      new RegExp(`UNREADABLE Newer \\(id ${newer.id as string}\\): ${newerFile.replace(/[/\\.]/g, '\\$&')}`),
    );
    assert.match(table.stdout, /folder\/project\.json is not valid JSON/);
    assert.equal(readFileSync(folderFile, 'utf8'), '{ "id": ', 'left as it is');
    assert.equal(readFileSync(newerFile, 'utf8'), newerText, 'left as it is');
  });

  it('with only unreadable projects, list says so instead of "No projects yet"', async (t) => {
    const { cli, dataDir } = cliSandbox(t);
    const made = json<Json>(await cli(['project', 'create', 'Alone', '--json']));
    writeFileSync(join(dataDir, 'projects', made.id as string, 'project.json'), 'not json');
    const r = await cli(['list']);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /No projects yet/);
    assert.match(r.stdout, /1 project cannot be read/);
  });

  it('GET /api/v1/projects lists it after the readable ones', async (t) => {
    const api = apiSandbox(t);
    const fine = (await api.call('POST', '/api/v1/projects', { body: { name: 'Fine' } })).json as Json;
    const broken = (await api.call('POST', '/api/v1/projects', { body: { name: 'Broken' } })).json as Json;
    const file = join(api.dataDir, 'projects', broken.id as string, 'project.json');
    writeFileSync(file, '{');
    const r = await api.call('GET', '/api/v1/projects');
    assert.equal(r.status, 200, r.body);
    const listed = r.json as (Json | Unreadable)[];
    assert.deepEqual(listed[0]?.id, fine.id);
    const u = listed[1] as Unreadable;
    assert.deepEqual(
      [u.id, u.name, u.unreadable.file, u.unreadable.code],
      [broken.id, 'Broken', file, 'CORRUPT_FILE'],
    );
    assert.match(u.unreadable.problem, /is not valid JSON/);
  });

  it('a broken folders.json is moved aside with a warning on stderr, once; the command works', async (t) => {
    const { cli, dataDir } = cliSandbox(t);
    assert.equal((await cli(['init', 'kept', '--name', 'Kept'])).code, 0);
    writeFileSync(join(dataDir, 'folders.json'), '{"version": 1, "folders": ');
    const r = await cli(['list']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /folders\.json is not valid JSON.*moved it to .*folders\.json\.broken-/);
    const aside = readdirSync(dataDir).filter((n) => n.startsWith('folders.json.broken-'));
    assert.equal(readFileSync(join(dataDir, aside[0]!), 'utf8'), '{"version": 1, "folders": ');
    const again = await cli(['list']);
    assert.doesNotMatch(again.stderr, /folders\.json/, 'said once');
  });
});
