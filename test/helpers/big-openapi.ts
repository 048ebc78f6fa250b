import { stringify } from 'yaml';

/**
 * A large, valid OpenAPI 3.0 document: `operations` operations, each answering a schema of
 * `fields` properties with an example (about 10 KB of JSON per operation with the defaults, as
 * in a real API description), for tests of what an import of a document that size does.
 */
export function bigOpenApi(operations: number, fields = 40): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < operations; i++) {
    const properties: Record<string, unknown> = {};
    const example: Record<string, unknown> = {};
    for (let f = 0; f < fields; f++) {
      properties[`field${f}`] = {
        type: f % 3 === 0 ? 'integer' : 'string',
        description: `Field ${f} of resource ${i}: what it holds and when it changes.`,
        ...(f % 3 === 0 ? { minimum: 0 } : { maxLength: 200 }),
      };
      example[`field${f}`] = f % 3 === 0 ? f * i : `value ${f} of ${i}`;
    }
    paths[`/resources${i}/{id}`] = {
      get: {
        operationId: `getResource${i}`,
        summary: `Get resource ${i}`,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'The resource',
            content: { 'application/json': { schema: { type: 'object', properties }, example } },
          },
          '404': { description: 'Not found' },
        },
      },
    };
  }
  return { openapi: '3.0.3', info: { title: 'Big API', version: '1.0.0' }, paths };
}

/** The document as YAML text (the slower form to parse). */
export const bigOpenApiYaml = (operations: number, fields?: number): string =>
  stringify(bigOpenApi(operations, fields));
