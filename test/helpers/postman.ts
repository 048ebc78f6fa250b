/**
 * A Postman Collection v2.1 as Postman exports it (Export > Collection v2.1): folders nested two
 * deep, requests with saved examples (each with its `originalRequest`), a request without any,
 * `{{baseUrl}}` hosts, `:id` and `{{version}}` path segments, a collection-level script and
 * collection variables. Used by the converter's unit tests and the served-import test.
 */

const SCHEMA_21 = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

/** A URL object as Postman writes one for `{{baseUrl}}/<path>` (query parameters as given). */
export function postmanUrl(path: string, query: [string, string][] = []) {
  const segments = path.split('/').filter(Boolean);
  const search = query.map(([k, v]) => `${k}=${v}`).join('&');
  return {
    raw: `{{baseUrl}}/${segments.join('/')}${search ? `?${search}` : ''}`,
    host: ['{{baseUrl}}'],
    path: segments,
    ...(query.length ? { query: query.map(([key, value]) => ({ key, value })) } : {}),
  };
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

const REASONS: Record<number, string> = { 200: 'OK', 201: 'Created', 404: 'Not Found' };

/**
 * A saved example as Postman writes one: its name, the request it was saved for, `status` and
 * `code`, the preview language, headers (a Content-Type first, when given), cookies and body.
 */
export function savedExample(
  name: string,
  code: number,
  contentType: string | undefined,
  body: string,
  more: { originalRequest?: unknown; header?: { key: string; value: string; disabled?: boolean }[] } = {},
) {
  const language = contentType?.includes('json') ? 'json' : 'text';
  return {
    name,
    ...(more.originalRequest !== undefined ? { originalRequest: more.originalRequest } : {}),
    status: REASONS[code] ?? '',
    code,
    _postman_previewlanguage: language,
    header: [...(contentType ? [{ key: 'Content-Type', value: contentType }] : []), ...(more.header ?? [])],
    cookie: [],
    body,
  };
}

export function shopCollection() {
  const getUser = {
    method: 'GET',
    header: [],
    url: { ...postmanUrl('users/:id'), variable: [{ key: 'id', value: '1' }] },
  };
  const listUsers = {
    method: 'GET',
    header: [{ key: 'Accept', value: 'application/json', type: 'text' }],
    url: postmanUrl('users', [['page', '1']]),
  };
  return {
    info: {
      _postman_id: '5a4a6c42-2f2e-4d8c-9a0e-6b7b1c1f0a11',
      name: 'Shop API',
      description: 'Users and orders of the shop',
      schema: SCHEMA_21,
      _exporter_id: '21456789',
    },
    item: [
      {
        name: 'Users',
        item: [
          {
            name: 'Get user',
            request: getUser,
            response: [
              savedExample('Found', 200, 'application/json; charset=utf-8', json({ id: 1, name: 'Ada' }), {
                originalRequest: { ...getUser, url: postmanUrl('users/1') },
                header: [
                  { key: 'X-Request-Id', value: 'req-1' },
                  { key: 'Content-Length', value: '31' },
                  { key: 'Connection', value: 'keep-alive' },
                ],
              }),
              savedExample('Not found', 404, 'application/json', '{"error":"no user {{id}}"}', {
                originalRequest: { ...getUser, url: postmanUrl('users/999') },
                header: [{ key: 'X-Request-Id', value: 'req-2' }],
              }),
            ],
          },
          {
            name: 'Admin',
            item: [
              {
                name: 'List users',
                request: listUsers,
                response: [
                  savedExample('First page', 200, 'application/json', json([{ id: 1, name: 'Ada' }]), {
                    originalRequest: listUsers,
                  }),
                  savedExample('Second page', 200, 'application/json', json([{ id: 2, name: 'Grace' }]), {
                    originalRequest: { ...listUsers, url: postmanUrl('users', [['page', '2']]) },
                  }),
                  savedExample('As CSV', 200, 'text/csv', 'id,name\n1,Ada\n', {
                    originalRequest: {
                      ...listUsers,
                      header: [{ key: 'Accept', value: 'text/csv', type: 'text' }],
                    },
                  }),
                ],
              },
            ],
          },
        ],
      },
      {
        name: 'Create order',
        request: {
          method: 'POST',
          header: [{ key: 'Content-Type', value: 'application/json' }],
          body: { mode: 'raw', raw: '{"sku":"A-1"}', options: { raw: { language: 'json' } } },
          url: {
            raw: 'https://api.example.com/orders',
            protocol: 'https',
            host: ['api', 'example', 'com'],
            path: ['orders'],
          },
        },
        response: [
          savedExample('Created', 201, 'application/json', '{"id":7,"sku":"A-1"}', {
            header: [{ key: 'Location', value: '/orders/7' }],
          }),
        ],
      },
      {
        name: 'Health',
        request: { method: 'GET', header: [], url: postmanUrl('health') },
        response: [],
      },
      {
        name: 'Item',
        request: { method: 'GET', header: [], url: '{{baseUrl}}/{{version}}/items/:itemId' },
        response: [savedExample('Plain item', 200, 'text/plain', 'item')],
      },
    ],
    event: [
      {
        listen: 'prerequest',
        script: { type: 'text/javascript', exec: ["pm.collectionVariables.set('now', Date.now());"] },
      },
    ],
    variable: [
      { key: 'baseUrl', value: 'https://api.example.com', type: 'string' },
      { key: 'version', value: 'v2', type: 'string' },
    ],
  };
}
