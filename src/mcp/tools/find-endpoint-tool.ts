import * as z from 'zod';
import { findEndpoint } from '../../app/find-endpoint.js';
import { EndpointSchema } from '../../core/model/endpoint.js';
import { HTTP_METHODS, MethodSchema } from '../../core/model/fields.js';
import { PROJECT_ALIASES, READ_ONLY, defineTool, projectIdField } from './define.js';
import { endpointLine } from './endpoint-tools.js';

/** "http://localhost:3001/api/users/42?x=1" -> "/api/users/42": only the path takes part in matching. */
const pathOnly = (value: string): string => {
  let path = value.trim();
  if (/^https?:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      // not a URL after all; match it as given
    }
  }
  return path.replace(/[?#].*$/, '');
};

export const findEndpointTool = defineTool({
  name: 'find_endpoint',
  title: 'Find endpoint by request',
  category: 'endpoint',
  description:
    "Find which endpoint of a project answers a request, using the mock server's own matching: " +
    'a concrete path such as /api/users/42 finds /api/users/{id} and reports the captured parameters ({"id": "42"}). ' +
    'Literal segments beat parameters. If only a disabled endpoint matches, it is returned with enabled: false. ' +
    'found is false when nothing matches.',
  input: z.object({
    projectId: projectIdField,
    method: MethodSchema.default('GET').describe(
      `HTTP method of the request, one of ${HTTP_METHODS.join(', ')} (default GET).`,
    ),
    path: z
      .string()
      .trim()
      .min(1, 'must not be empty, e.g. /api/users/42')
      .describe(
        'Concrete request path such as /api/users/42 (a full URL or a query string is accepted; only the path is matched).',
      ),
  }),
  output: z.object({
    found: z.boolean().describe('Whether an endpoint matches.'),
    endpoint: EndpointSchema.nullable().describe('The matching endpoint, or null.'),
    params: z
      .record(z.string(), z.string())
      .describe('Path parameters captured from the request path, e.g. {"id": "42"}.'),
  }),
  hints: READ_ONLY,
  aliases: { ...PROJECT_ALIASES, url: 'path' },
  async run(ctx, args) {
    const path = pathOnly(args.path);
    const match = await findEndpoint(ctx, args.projectId, args.method, path, { dataDirOnly: true });
    if (!match) {
      return {
        summary: `No endpoint matches ${args.method} ${path}. Call list_endpoints to see the routes, or create_endpoint to add one.`,
        data: { found: false, endpoint: null, params: {} },
      };
    }
    const params = Object.entries(match.params)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ');
    const disabled = match.endpoint.enabled
      ? ''
      : ' It is disabled: the mock server does not answer with it until update_endpoint sets enabled true.';
    return {
      summary: `${args.method} ${path} is answered by ${endpointLine(match.endpoint)}${params ? ` with ${params}` : ''}.${disabled}`,
      data: { found: true, endpoint: match.endpoint, params: match.params },
    };
  },
});
