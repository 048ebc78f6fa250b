/**
 * The resource commands through the CLI in-process: add (name from the path, --id-field,
 * --seed), list, show, data (print, --set), reset, update, remove (confirmation), and every bad
 * input as one line with its exit code (2 invalid, 3 unknown project, 1 unknown resource or a
 * clash), resources.json untouched.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { assertCliError, json } from '../helpers/cli.js';
import { cliSandbox, type AfterHook } from '../helpers/cli-inprocess.js';
import { ok } from '../helpers/flows.js';

interface View {
  id: string;
  name: string;
  path: string;
  idField: string;
  itemCount: number;
  revision: number;
}

async function shop(t: AfterHook) {
  const box = cliSandbox(t, 'mockdev-resources-');
  const project = json<{ id: string }>(ok(await box.cli(['project', 'create', 'shop', '--json'])));
  const file = (name: string, text: string) => {
    writeFileSync(join(box.dir, name), text);
    return name;
  };
  const resourcesFile = join(box.dataDir, 'projects', 'shop', 'resources.json');
  const current = () => (existsSync(resourcesFile) ? readFileSync(resourcesFile, 'utf8') : '');
  /** Runs a command that must fail as said, leaving resources.json as it was. */
  const refused = async (args: string[], code: number, re: RegExp) => {
    const before = current();
    assertCliError(await box.cli(args), code, re);
    assert.equal(current(), before, `resources.json untouched by: ${args.join(' ')}`);
  };
  return { ...box, project, file, refused, current };
}

describe('resource commands', () => {
  it('add names a resource from its path; list, show and data print it; --json is the model', async (t) => {
    const { cli, file } = await shop(t);
    const seed = file(
      'users.json',
      JSON.stringify([
        { id: 1, name: 'Ada' },
        { id: 2, name: 'Linus' },
      ]),
    );
    const added = await cli(['resource', 'add', 'shop', '/api/orgs/{org}/users', '--seed', seed]);
    assert.match(
      ok(added).stdout,
      /^Added resource "users" at \/api\/orgs\/\{org\}\/users \(id \S+\) with 2 items\n$/,
    );
    const list = ok(await cli(['resource', 'list', 'shop'])).stdout;
    assert.match(list, /NAME\s+PATH\s+ID FIELD\s+ITEMS/);
    assert.match(list, /users\s+\/api\/orgs\/\{org\}\/users\s+id\s+2/);
    const [view] = json<View[]>(ok(await cli(['resource', 'list', 'shop', '--json'])));
    assert.deepEqual([view!.name, view!.idField, view!.itemCount, view!.revision], ['users', 'id', 2, 0]);
    const show = ok(await cli(['resource', 'show', 'shop', 'USERS'])).stdout;
    assert.match(show, /item path:\s+\/api\/orgs\/\{org\}\/users\/\{id\}/);
    assert.equal(json<View>(ok(await cli(['resource', 'show', 'shop', view!.id, '--json']))).name, 'users');
    const data = ok(await cli(['resource', 'data', 'shop', 'users'])).stdout;
    assert.match(data, /ID\s+NAME\n1\s+Ada\n2\s+Linus\n/);
    assert.deepEqual(json(ok(await cli(['resource', 'data', 'shop', 'users', '--json']))), [
      { id: 1, name: 'Ada' },
      { id: 2, name: 'Linus' },
    ]);
    const named = await cli([
      'resource',
      'add',
      'shop',
      'members',
      '-n',
      'team',
      '--id-field',
      'login',
      '--json',
    ]);
    const team = json<View>(ok(named));
    assert.deepEqual([team.name, team.path, team.idField, team.itemCount], ['team', '/members', 'login', 0]);
    assert.match(
      ok(await cli(['resource', 'data', 'shop', 'team'])).stdout,
      /^Resource "team" holds no items\.\n$/,
    );
  });

  it('data --set replaces the items, reset goes back to the seed, update changes what is given', async (t) => {
    const { cli, file } = await shop(t);
    ok(await cli(['resource', 'add', 'shop', '/users', '--seed', file('seed.json', '[{"id":1}]')]));
    const set = await cli([
      'resource',
      'data',
      'shop',
      'users',
      '--set',
      file('data.json', '[{"id":5},{"id":6}]'),
    ]);
    assert.match(ok(set).stdout, /^Resource "users" now holds 2 items\n$/);
    assert.deepEqual(json(ok(await cli(['resource', 'data', 'shop', 'users', '--json']))), [
      { id: 5 },
      { id: 6 },
    ]);
    assert.match(
      ok(await cli(['resource', 'reset', 'shop', 'users'])).stdout,
      /^Reset resource "users" to its seed: 1 item\n$/,
    );
    assert.deepEqual(json(ok(await cli(['resource', 'data', 'shop', 'users', '--json']))), [{ id: 1 }]);
    const renamed = json<View>(
      ok(
        await cli(['resource', 'update', 'shop', 'users', '-n', 'people', '--path', '/v2/people', '--json']),
      ),
    );
    assert.deepEqual([renamed.name, renamed.path, renamed.itemCount], ['people', '/v2/people', 1]);
    const reseeded = await cli([
      'resource',
      'update',
      'shop',
      'people',
      '--id-field',
      'key',
      '--seed',
      file('keys.json', '[{"key":"a"},{"key":"b"}]'),
    ]);
    assert.match(ok(reseeded).stdout, /^Updated resource "people" at \/v2\/people \(id \S+\), 2 items\n$/);
    assert.deepEqual(json(ok(await cli(['resource', 'data', 'shop', 'people', '--json']))), [
      { key: 'a' },
      { key: 'b' },
    ]);
  });

  it('remove asks for confirmation (refused without a terminal or -f) and forgets the state', async (t) => {
    const { cli, refused, current, dataDir, project } = await shop(t);
    const r = json<View>(ok(await cli(['resource', 'add', 'shop', '/users', '--json'])));
    await refused(
      ['resource', 'remove', 'shop', 'users'],
      2,
      /^mockdev: Remove resource "users" \(\/users\) and its data from project "shop": refusing without confirmation/,
    );
    // A state the server wrote goes with it.
    const stateFile = join(dataDir, 'resources', project.id, `${r.id}.json`);
    ok(await cli(['resource', 'reset', 'shop', 'users']));
    assert.ok(existsSync(join(dataDir, 'resources', project.id, `${r.id}.r1.json`)));
    writeFileSync(stateFile, JSON.stringify({ revision: 1, items: [{ id: 9 }] }));
    assert.deepEqual(json(ok(await cli(['resource', 'data', 'shop', 'users', '--json']))), [{ id: 9 }]);
    assert.match(
      ok(await cli(['resource', 'remove', 'shop', 'users', '-f'])).stdout,
      /^Removed resource "users" \(\/users, id \S+\)\n$/,
    );
    assert.equal(existsSync(join(dataDir, 'resources', project.id, `${r.id}.r1.json`)), false);
    assert.equal(existsSync(stateFile), false);
    assert.doesNotMatch(current(), /users/);
  });

  it('project delete removes the state of its resources', async (t) => {
    const { cli, dataDir, project } = await shop(t);
    ok(await cli(['resource', 'add', 'shop', '/users']));
    ok(await cli(['resource', 'reset', 'shop', 'users']));
    const folder = join(dataDir, 'resources', project.id);
    assert.ok(existsSync(folder));
    ok(await cli(['project', 'delete', 'shop', '-f']));
    assert.equal(existsSync(folder), false);
  });

  it('bad input: one line, exit 2 (invalid), 3 (unknown project), 1 (unknown resource, a clash)', async (t) => {
    const { cli, file, refused } = await shop(t);
    ok(await cli(['resource', 'add', 'shop', '/api/users', '--seed', file('ok.json', '[{"id":1}]')]));
    for (const args of [
      ['resource', 'list', 'nope'],
      ['resource', 'show', 'nope', 'users'],
      ['resource', 'add', 'nope', '/x'],
      ['resource', 'update', 'nope', 'users', '-n', 'x'],
      ['resource', 'remove', 'nope', 'users', '-f'],
      ['resource', 'data', 'nope', 'users'],
      ['resource', 'reset', 'nope', 'users'],
    ])
      await refused(args, 3, /^mockdev: Project "nope" not found/);
    for (const args of [
      ['resource', 'show', 'shop', 'nope'],
      ['resource', 'update', 'shop', 'nope', '-n', 'x'],
      ['resource', 'remove', 'shop', 'nope', '-f'],
      ['resource', 'data', 'shop', 'nope'],
      ['resource', 'reset', 'shop', 'nope'],
    ])
      await refused(args, 1, /^mockdev: Resource "nope" not found in project "shop".*Its resources: users/);
    await refused(
      ['resource', 'add', 'shop', '/api/users/'],
      1,
      /Resource "users" of project "shop" is already at \/api\/users/,
    );
    await refused(['resource', 'add', 'shop', '/v2/users'], 1, /A resource named "users" already exists/);
    await refused(
      ['resource', 'add', 'shop', '/api/users/{id}'],
      2,
      /Invalid path "\/api\/users\/\{id\}": a resource's path must end in a literal segment/,
    );
    await refused(['resource', 'add', 'shop', '/'], 2, /must end in a literal segment/);
    await refused(['resource', 'add', 'shop', '/a b'], 2, /^mockdev: Invalid path/);
    await refused(['resource', 'add', 'shop', '/x', '-n', 'a/b'], 2, /^mockdev: Invalid name/);
    await refused(
      ['resource', 'add', 'shop', '/x', '--id-field', 'a.b'],
      2,
      /^mockdev: Invalid idField.*top-level field name/,
    );
    const seeds: [string, RegExp][] = [
      ['missing.json', /missing\.json/],
      [file('text.json', 'nope'), /Invalid --seed "text\.json": not JSON/],
      [file('obj.json', '{"id":1}'), /Invalid --seed "obj\.json": must be a JSON array of objects/],
      [file('mixed.json', '[{"id":1}, 2]'), /Invalid --seed "mixed\.json": item 1 is not a JSON object/],
      [file('noid.json', '[{"id":1}, {"name":"x"}]'), /Invalid seed: item 1 has no "id" field/],
      [
        file('badid.json', '[{"id":{"a":1}}]'),
        /Invalid seed: item 0 has "id" \{"a":1\}: an id is a non-empty string or a number/,
      ],
      [file('dup.json', '[{"id":1}, {"id":"1"}]'), /Invalid seed: items 0 and 1 have the same "id" "1"/],
    ];
    for (const [seed, re] of seeds) {
      await refused(['resource', 'add', 'shop', '/x', '--seed', seed], 2, re);
      await refused(['resource', 'update', 'shop', 'users', '--seed', seed], 2, re);
    }
    await refused(
      ['resource', 'data', 'shop', 'users', '--set', file('nested.json', '[[1]]')],
      2,
      /Invalid --set "nested\.json": item 0 is not a JSON object/,
    );
    await refused(
      ['resource', 'data', 'shop', 'users', '--set', 'noid.json'],
      2,
      /Invalid items: item 1 has no "id" field/,
    );
    await refused(['resource', 'update', 'shop', 'users'], 2, /^mockdev: Nothing to update/);
    await refused(
      ['resource', 'update', 'shop', 'users', '--path', '/api/users/{id}'],
      2,
      /must end in a literal segment/,
    );
    assert.deepEqual(json(ok(await cli(['resource', 'data', 'shop', 'users', '--json']))), [{ id: 1 }]);
  });
});
