/**
 * WireMock's response templating over HTTP against a spawned `mockdev serve`: the `request.*`
 * model (path segments, cookies, base URL) and the helpers of WireMock's documentation examples,
 * compared with the output WireMock documents (random and date helpers by shape and range).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startServe } from '../helpers/server.js';
import { templateProject } from '../helpers/template-project.js';

describe('WireMock templates over HTTP', () => {
  it('renders the request model and the helpers as WireMock documents them', async (t) => {
    const { sandbox, add, refusedBody } = await templateProject(t);
    await add(
      '/model/:a/:b',
      '{{request.path.[0]}}|{{request.path.[2]}}|{{request.path}}|{{request.cookies.session}}|{{request.baseUrl}}|{{request.query.q}}',
      'GET',
    );
    await add(
      '/helpers',
      "{{jsonPath request.body '$.things[?(@.id == 2)].name'}}|{{regexExtract request.body '\"id\": ?([0-9]+)' 'parts'}}{{parts.[0]}}|{{math 7 '*' 6}}|{{size (array 1 2 3)}}|{{contains request.body 'things'}}|{{matches request.query.n '[0-9]+'}}|{{base64 'hello'}}|{{urlEncode 'a b&c'}}|{{trim '  x  '}}|{{val request.query.none or='dflt'}}|{{join ',' (array 'One' 'Two')}}|{{toJson (parseJson '{\"a\":[1,2]}')}}|{{abbreviate 'Mocking APIs helps you develop faster' 21}}",
      'POST',
    );
    await add(
      '/random',
      "{{randomValue length=12 type='ALPHANUMERIC' uppercase=true}}|{{randomInt lower=5 upper=9}}|{{randomDecimal lower=1 upper=2}}|{{now offset='1 days' format='yyyy-MM-dd'}}|{{pickRandom 'a' 'b' 'c'}}",
      'GET',
    );
    const refused = await refusedBody("{{regexExtract request.body '(a)\\1'}}");
    assert.equal(refused.code, 2);
    assert.match(
      refused.stderr,
      /Invalid template in body at line 1, column 1: regexExtract: the pattern .*backreference/,
    );
    const server = await startServe(['api'], { dataDir: sandbox.dataDir });
    sandbox.defer(() => server.stop());

    const model = await fetch(`${server.url}/model/x/y?q=1`, { headers: { cookie: 'session=s1; other=2' } });
    const host = new URL(server.url).host;
    assert.equal(await model.text(), `model|y|/model/x/y|s1|http://${host}|1`);

    const body = '{"things":[{"id": 1,"name":"One"},{"id": 2,"name":"Two"}]}';
    const r = await fetch(`${server.url}/helpers?n=123`, { method: 'POST', body });
    assert.equal(r.status, 200);
    assert.equal(
      await r.text(),
      '["Two"]|1|42|3|true|true|aGVsbG8=|a%20b%26c|x|dflt|One,Two|{"a":[1,2]}|Mocking APIs helps...',
    );

    const [value, int, dec, day, pick] = (await (await fetch(`${server.url}/random`)).text()).split('|');
    assert.match(value!, /^[A-Z0-9]{12}$/);
    assert.ok(Number(int) >= 5 && Number(int) < 9);
    assert.ok(Number(dec) >= 1 && Number(dec) <= 2);
    assert.equal(day, new Date(Date.now() + 864e5).toISOString().slice(0, 10));
    assert.match(pick!, /^[abc]$/);
  });
});
