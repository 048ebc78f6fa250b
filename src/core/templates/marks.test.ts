import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { compileTemplate, loadFaker, readsEnvironment, type TemplateContext } from './engine.js';
import { secretPieces } from '../../../test/helpers/secrets.js';
import { markSecrets, maskMarks, stripMarks } from './marks.js';

const SECRET = 'Sk_"Live"/Tok+én\\1';
const JSON_SECRET = '{"pin":1234,"on":false,"name":"Ada"}';
const env = { TOKEN: SECRET, HOST: 'api.test', CONFIG: JSON_SECRET };
const secrets = [SECRET, JSON_SECRET];
/** Every form of the secrets a template could write: none may reach the log. */
const FORMS = [...secretPieces(SECRET), 'Sk_', 'SK_', 'sk_', '1234', 'Ada'];

const context = (environment: Record<string, string>, over: Partial<TemplateContext> = {}) =>
  ({
    params: {},
    query: { q: 'a\uE000b\uE003c' },
    headers: {},
    body: { user: 'Bob' },
    bodyRaw: '',
    method: 'GET',
    path: '/x',
    env: environment,
    ...over,
  }) as TemplateContext;

/** The tracked render (client and log copies) next to the plain render of the same template. */
function renders(source: string) {
  const tracked = compileTemplate(source, { trackSecrets: true });
  const out = tracked.render(context(markSecrets(env, secrets)));
  const plain = compileTemplate(source).render(context(env));
  return { tracked, client: stripMarks(out), log: maskMarks(out, '********'), plain };
}

describe('secrets tracked while a template renders', () => {
  before(() => loadFaker());
  it('the client gets the response as rendered; the log the same with each secret-derived part masked', () => {
    for (const source of [
      '{"t":"{{env.TOKEN}}","h":"{{env.HOST}}"}', // a secret inside a JSON string (flat)
      '{{json env}}', // JSON-escaped
      '{{json env 2}}',
      '{{json this}}',
      '{{uppercase env.TOKEN}}|{{lowercase env.TOKEN}}|{{urlEncode env.TOKEN}}',
      '{{urlEncode (json env)}}',
      '{{#each env}}{{@key}}={{this}};{{/each}}', // Handlebars blocks
      '{{#with env}}{{TOKEN}}{{/with}}',
      '{{lookup env "TOKEN"}}',
      '{{#repeat 2 separator=","}}{{lowercase env.TOKEN}}{{/repeat}}',
      '{{jsonPath env.CONFIG "$.pin"}} {{json (jsonPath env.CONFIG "$")}}',
      '{{#each (jsonPath env.CONFIG "$")}}{{@key}}:{{this}},{{/each}}',
      '{{#if (jsonPath env.CONFIG "$.on")}}on{{else}}off{{/if}}',
      '{{#unless (jsonPath env.CONFIG "$.on")}}off{{/unless}}',
      '{{#with (jsonPath env.CONFIG "$.on")}}on{{else}}off{{/with}}',
      '{{oneOf env.TOKEN}} {{queryParam "none" env.TOKEN}}',
      '{{#seed env.TOKEN}}{{int 1 100}}{{/seed}}',
      '{{query.q}} {{env.HOST}} {{body.user}}', // client data, private-use characters included
    ]) {
      const { client, log, plain } = renders(source);
      assert.equal(client, plain, source);
      for (const form of FORMS) assert.ok(!log.includes(form), `${source}: the log holds ${form}: ${log}`);
      if (plain !== log) assert.match(log, /\*{8}/, source);
      assert.equal(stripMarks(log), log, `${source}: the log's copy holds no marks`);
    }
  });
  it('keeps what is not secret readable in the log', () => {
    assert.equal(renders('{"t":"{{env.TOKEN}}","h":"{{env.HOST}}"}').log, '{"t":"********","h":"api.test"}');
    assert.equal(renders('{{json env}}').log, '{"TOKEN":"********","HOST":"api.test","CONFIG":"********"}');
    assert.equal(
      renders('{{json (jsonPath env.CONFIG "$")}}').log,
      '{"pin":********,"on":********,"name":"********"}',
    );
    assert.equal(renders('{{query.q}}').log, 'a\uE000b\uE003c');
  });
  it('a helper failing on a secret-derived value does not quote it', () => {
    const t = compileTemplate(`{{faker (lowercase env.TOKEN)}}`, { trackSecrets: true });
    assert.throws(
      () => t.render(context(markSecrets(env, secrets))),
      (e: unknown) =>
        e instanceof Error &&
        /faker failed on a value derived from a secret/.test(e.message) &&
        !FORMS.some((f) => e.message.includes(f)),
    );
  });
  it('only templates that can reach the environment track it (the others stay on their path)', () => {
    const reaching = [
      '{{env.TOKEN}}',
      '{{json this}}',
      '{{@root.env.TOKEN}}',
      '{{#each body}}{{../env}}{{/each}}',
    ];
    const notReaching = [
      '{{params.id}}',
      '{{faker "person.firstName"}}',
      '{{#each body}}{{@index}}{{/each}}',
      'env',
    ];
    assert.deepEqual(reaching.map(readsEnvironment), [true, true, true, true]);
    assert.deepEqual(notReaching.map(readsEnvironment), [false, false, false, false]);
    assert.equal(compileTemplate('{{params.id}}', { trackSecrets: true }).tracked, false);
    assert.equal(compileTemplate('{{env.X}}', { trackSecrets: false }).tracked, false);
  });
});
