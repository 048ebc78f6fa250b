import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EndpointSchema, type Endpoint } from './model/endpoint.js';
import { buildSnippets, examplePath, shellQuote, snippetRequest } from './snippets.js';

const endpoint = (fields: Partial<Endpoint> & Pick<Endpoint, 'path'>): Endpoint =>
  EndpointSchema.parse({ id: 'e1', name: 'e', method: 'GET', status: 200, ...fields });

describe('snippets', () => {
  it('fills path parameters: the OpenAPI example, else 1 for an id, else "example"', () => {
    assert.equal(examplePath(endpoint({ path: '/api/users/:id' })), '/api/users/1');
    assert.equal(
      examplePath(endpoint({ path: '/api/users/{userId}/posts/{slug}' })),
      '/api/users/1/posts/example',
    );
    assert.equal(examplePath(endpoint({ path: '/files/{name}.{ext}' })), '/files/example.example');
    assert.equal(
      examplePath(
        endpoint({
          path: '/api/orders/{orderId}',
          openapi: { parameters: [{ name: 'orderId', in: 'path', example: 'A 7' }] },
        }),
      ),
      '/api/orders/A%207',
    );
    assert.equal(examplePath(endpoint({ path: '/' })), '/');
    assert.equal(examplePath({ path: '/gh/*' }), '/gh/example');
  });

  it('sends the captured headers, query and body of a cURL import; a POST without one sends {}', () => {
    const imported = endpoint({
      method: 'PUT',
      path: '/x',
      request: {
        headers: { 'X-Q': 'a"b', Host: 'api.example.com', 'Content-Type': 'text/plain' },
        query: { tag: ['a', 'b'], q: 'x y' },
        body: 'hello',
        auth: null,
      },
    });
    assert.deepEqual(snippetRequest(imported, 'http://127.0.0.1:4000/'), {
      method: 'PUT',
      url: 'http://127.0.0.1:4000/x?tag=a&tag=b&q=x+y',
      headers: [
        ['X-Q', 'a"b'],
        ['Content-Type', 'text/plain'],
      ],
      body: 'hello',
    });
    const post = snippetRequest(endpoint({ method: 'POST', path: '/x' }), 'http://h:1');
    assert.equal(post.body, '{}');
    assert.deepEqual(post.headers, [['Content-Type', 'application/json']]);
    const get = snippetRequest(endpoint({ path: '/x' }), 'http://h:1');
    assert.equal(get.body, null);
    assert.deepEqual(get.headers, []);
  });

  it('quotes for each language', () => {
    assert.equal(shellQuote(`it's`), `'it'\\''s'`);
    const s = buildSnippets(
      endpoint({
        method: 'POST',
        path: '/x',
        request: { headers: { 'X-Q': `it's "q"` }, query: {}, body: '{"a":"\\n"}', auth: null },
      }),
      'http://127.0.0.1:4000',
    );
    assert.match(s.curl, /^curl -X POST 'http:\/\/127\.0\.0\.1:4000\/x' \\\n {2}-H 'X-Q: it'\\''s "q"' \\\n/);
    assert.match(s.fetch, /"X-Q": "it's \\"q\\"",/);
    assert.match(s.fetch, /body: "\{\\"a\\":\\"\\\\n\\"\}",/);
    assert.match(s.axios, /^import axios from 'axios';/);
    assert.match(s.axios, /method: "post",/);
    assert.match(s.python, /^import urllib\.error\nimport urllib\.request\n/);
    assert.doesNotMatch(s.python, /import requests/);
  });
});
