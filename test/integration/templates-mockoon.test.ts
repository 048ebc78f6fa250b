/**
 * Mockoon's template helpers over HTTP against `mockdev serve`: templates as Mockoon's
 * documentation writes them, answered as Mockoon documents; `unless` alone; an unknown helper and
 * the data-bucket helpers refused at save.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertCliError } from '../helpers/cli.js';
import { cliSandbox } from '../helpers/cli-inprocess.js';
import { startServe } from '../helpers/server.js';

describe("Mockoon's template helpers over HTTP", () => {
  it('answer as Mockoon documents them', async (t) => {
    const sandbox = cliSandbox(t);
    const { cli } = sandbox;
    assert.equal((await cli(['project', 'create', 'api'])).code, 0);
    const add = async (path: string, body: string, ...more: string[]) => {
      const r = await cli(['endpoint', 'add', 'api', '-p', path, '-b', body, ...more]);
      assert.equal(r.code, 0, r.stderr);
    };
    await add(
      '/list',
      '[{{#repeat 3 comma=true}}{"id": {{add @index 1}}, "code": "{{padStart @index 3 \'0\'}}"}{{/repeat}}]',
    );
    await add(
      '/logic/:n',
      "{{#if (gt (urlParam 'n') 10)}}big{{else}}small{{/if}} {{#unless (eq (queryParam 'x') 'y')}}not-y{{/unless}}",
    );
    await add('/unless', '{{#unless query.flag}}no flag{{/unless}}');
    await add(
      '/vars',
      "{{setVar 'total' (multiply (queryParam 'price') (queryParam 'qty'))}}{{toFixed (getVar 'total') 2}} {{len (split (queryParam 'tags') ',')}} {{includes (queryParam 'tags') 'b'}}",
    );
    await add(
      '/switch',
      "{{#switch (queryParam 'kind')}}{{#case 'cat'}}meow{{/case}}{{#case 'dog'}}woof{{/case}}{{#default}}?{{/default}}{{/switch}}",
    );
    await add(
      '/ids',
      '{"guid":"{{guid}}","oid":"{{objectId}}","b":{{boolean}},"host":"{{hostname}}","ip":"{{ip}}"}',
    );
    await add('/json', '{{{stringify (objectMerge (jsonParse bodyRaw) (object ok=true))}}}', '-m', 'POST');

    const server = await startServe(['api'], { dataDir: sandbox.dataDir });
    sandbox.defer(() => server.stop());
    const get = async (path: string, init?: RequestInit) => {
      const r = await fetch(`${server.url}${path}`, init);
      const text = await r.text();
      assert.equal(r.status, 200, `${path}: ${text}`);
      return text;
    };

    assert.deepEqual(JSON.parse(await get('/list')), [
      { id: 1, code: '000' },
      { id: 2, code: '001' },
      { id: 3, code: '002' },
    ]);
    assert.equal(await get('/logic/11?x=z'), 'big not-y');
    assert.equal(await get('/logic/2?x=y'), 'small ');
    assert.equal(await get('/unless'), 'no flag');
    assert.equal(await get('/unless?flag=1'), '');
    assert.equal(await get('/vars?price=2.5&qty=3&tags=a,b,c'), '7.50 3 true');
    assert.equal(await get('/switch?kind=dog'), 'woof');
    assert.equal(await get('/switch?kind=cow'), '?');
    const ids = JSON.parse(await get('/ids')) as Record<string, unknown>;
    assert.match(String(ids.guid), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.match(String(ids.oid), /^[0-9a-f]{24}$/);
    assert.equal(typeof ids.b, 'boolean');
    assert.equal(ids.host, new URL(server.url).hostname.replace(/^\[|\]$/g, ''));
    assert.match(String(ids.ip), /^(127\.0\.0\.1|::1)$/);
    const posted = await get('/json', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    assert.deepEqual(JSON.parse(posted), { a: 1, ok: true });
  });

  it('refuses an unknown helper and dataBucket at save (exit 2), saving nothing', async (t) => {
    const { cli } = cliSandbox(t);
    assert.equal((await cli(['project', 'create', 'api'])).code, 0);
    assertCliError(
      await cli(['endpoint', 'add', 'api', '-p', '/x', '-b', '{\n  "n": {{substract 3 1}}\n}']),
      2,
      /Invalid template in body: Unknown helper "substract" at line 2, column 8; closest known: subtract/,
    );
    assertCliError(
      await cli(['endpoint', 'add', 'api', '-p', '/x', '-b', "{{{stringify (dataBucket 'users')}}}"]),
      2,
      /Helper "dataBucket" at line 1, column 14 needs a data bucket: buckets are resources here, read with \{\{resource 'NAME'\}\}/,
    );
    const list = await cli(['endpoint', 'list', 'api']);
    assert.doesNotMatch(list.stdout, /\/x/);
  });
});
