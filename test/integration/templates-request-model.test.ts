/**
 * WireMock's request model over HTTP against a spawned `mockdev serve`, as WireMock documents it:
 * numeric path segments (`request.path.0`, `request.pathSegments.1`, `parts.0`), header names
 * read case-insensitively (also Mockoon's `header`), repeated query parameters and headers
 * (`request.query.search` the first value, `request.query.search.[1]` the second, `each` over all),
 * and a template problem's position said once, in the text as written.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, it } from 'node:test';
import { startServe } from '../helpers/server.js';
import { templateProject } from '../helpers/template-project.js';

/** A GET with raw headers (a repeated name is sent as two lines, as fetch would not). */
function get(url: string, rawHeaders: string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    // Raw headers: node adds no Host then.
    const headers = ['Host', new URL(url).host, ...rawHeaders] as unknown as Record<string, string>;
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.setTimeout(10_000, () => req.destroy(new Error('timed out')));
    req.on('error', reject).end();
  });
}

describe('WireMock request model over HTTP', () => {
  it('numeric segments, case-insensitive headers, repeated parameters and headers', async (t) => {
    const { sandbox, add, refusedBody } = await templateProject(t);
    // https://wiremock.org/docs/response-templating/ ("The request model"; regexExtract's parts)
    await add(
      '/seg/:a/:b',
      "{{request.path.0}}|{{request.path.2}}|{{request.pathSegments.1}}|{{regexExtract request.path '/([a-z]+)/([a-z]+)' 'parts'}}{{parts.0}}-{{parts.1}}|{{#each request.pathSegments}}{{this}};{{/each}}|{{add 1.5 2}}",
    );
    await add(
      '/headers',
      "{{request.headers.content-type}}|{{request.headers.Content-Type}}|{{request.headers.[X-Custom]}}|{{request.headers.X-CUSTOM}}|{{header 'X-Custom'}}|{{header 'x-CUSTOM'}}",
    );
    await add(
      '/multi',
      '{{request.query.search}}|{{request.query.search.[1]}}|{{request.query.search.1}}|{{#each request.query.search}}[{{this}}]{{/each}}|{{request.query.one.[0]}}|{{request.headers.X-Multi}}|{{request.headers.X-Multi.[1]}}|{{#each request.headers.x-multi}}<{{this}}>{{/each}}',
    );
    // A problem after an index segment is placed in the text as written, and said once.
    const refused = await refusedBody('{{request.path.0}} {{nope 1}}');
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /Invalid template in body: Unknown helper "nope" at line 1, column 20[;\n]/);
    assert.doesNotMatch(refused.stderr, /column.*column/);

    const server = await startServe(['api'], { dataDir: sandbox.dataDir });
    sandbox.defer(() => server.stop());

    const seg = await get(`${server.url}/seg/ab/cd`, []);
    assert.equal(seg.status, 200, seg.body);
    assert.equal(seg.body, 'seg|cd|ab|seg-ab|seg;ab;cd;|3.5');

    const headers = await get(`${server.url}/headers`, ['Content-Type', 'text/x', 'x-custom', 'v1']);
    assert.equal(headers.body, 'text/x|text/x|v1|v1|v1|v1');

    const multi = await get(`${server.url}/multi?search=a&one=1&search=b%20c`, [
      'X-Multi',
      'h1',
      'x-multi',
      'h2',
    ]);
    assert.equal(multi.status, 200, multi.body);
    assert.equal(multi.body, 'a|b c|b c|[a][b c]|1|h1|h2|<h1><h2>');
  });
});
