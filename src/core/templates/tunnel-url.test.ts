import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkTemplate, compileTemplate, type TemplateContext } from './engine.js';

/** A context as the runtime makes it: `tunnel` a getter on the class, its `url` read when rendering. */
class Context {
  constructor(private readonly holder: { url: string }) {}
  get tunnel() {
    return this.holder;
  }
}

describe('{{tunnel.url}}', () => {
  it('is a valid template, rendered from the tunnel as it is at each render (flat and Handlebars)', () => {
    assert.equal(checkTemplate('{"hook":"{{tunnel.url}}/hooks"}'), null);
    const holder = { url: '' };
    const ctx = new Context(holder) as unknown as TemplateContext;
    const flat = compileTemplate('{{tunnel.url}}/hooks');
    const hbs = compileTemplate('{{#if tunnel.url}}at {{tunnel.url}}{{else}}no tunnel{{/if}}');
    assert.equal(flat.flat, true);
    assert.equal(hbs.flat, false);
    assert.equal(flat.render(ctx), '/hooks');
    assert.equal(hbs.render(ctx), 'no tunnel');
    holder.url = 'https://a-b.trycloudflare.com';
    assert.equal(flat.render(ctx), 'https://a-b.trycloudflare.com/hooks');
    assert.equal(hbs.render(ctx), 'at https://a-b.trycloudflare.com');
  });
});
