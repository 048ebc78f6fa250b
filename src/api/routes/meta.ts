import * as z from 'zod';
import { packageVersion } from '../../core/version.js';
import { defineRoute, reply, type Route } from '../route.js';
import { openApiDocument } from '../openapi.js';

/** Health and the API's own OpenAPI document (built from every route, this one included). */
export function metaRoutes(all: () => readonly Route[]): Route[] {
  let document: string | undefined;
  return [
    defineRoute({
      method: 'GET',
      path: '/health',
      tag: 'Meta',
      summary: 'Whether the admin API answers, and mockdev’s version',
      response: {
        schema: z.object({ status: z.literal('ok'), version: z.string() }),
        description: 'It answers',
      },
      handle: () => ({ status: 'ok', version: packageVersion() }),
    }),
    defineRoute({
      method: 'GET',
      path: '/openapi.json',
      tag: 'Meta',
      summary: 'This API as an OpenAPI 3.1 document',
      response: { schema: z.record(z.string(), z.unknown()), description: 'The OpenAPI document' },
      handle: () =>
        reply({
          status: 200,
          text: (document ??= JSON.stringify(openApiDocument(all(), packageVersion()), null, 2)),
          contentType: 'application/json; charset=utf-8',
        }),
    }),
  ];
}
