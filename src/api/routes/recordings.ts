import * as z from 'zod';
import {
  clearRecordings,
  countRecordings,
  deleteRecording,
  getRecording,
  listRecordings,
  recordingToMock,
} from '../../app/recordings.js';
import { EndpointSchema } from '../../core/model/endpoint.js';
import { RecordingCountSchema, RecordingSchema } from '../../core/model/recording.js';
import { defineRoute, type Route } from '../route.js';
import { PROJECT_PARAM } from './projects.js';
import { queryInt } from './query-fields.js';

/** Recordings of proxy endpoints, as `mockdev recording …`. */

const ENDPOINT_PARAMS = {
  ...PROJECT_PARAM,
  endpoint: 'Endpoint id, or its name URL-encoded',
};
const RECORDING_PARAM = { id: 'Recording id' };

const ListQuerySchema = z.object({ limit: queryInt('At most this many recordings, newest first') });

const ToMockSchema = z
  .object({
    asVariation: z
      .boolean()
      .optional()
      .describe('Add it as a variation of the mock endpoint with the same method and path'),
    name: z.string().optional().describe('Name of the new endpoint or variation'),
  })
  .optional();

const endpointOf = (params: Record<string, string>) => ({
  project: params.project!,
  endpoint: params.endpoint!,
});

export const recordingRoutes: Route[] = [
  defineRoute<unknown, z.output<typeof ListQuerySchema>>({
    method: 'GET',
    path: '/projects/{project}/endpoints/{endpoint}/recordings',
    tag: 'Recordings',
    summary: 'An endpoint’s recordings, newest first (as `mockdev recording list --json`)',
    params: ENDPOINT_PARAMS,
    query: ListQuerySchema,
    response: { schema: z.array(RecordingSchema), description: 'The recordings' },
    handle: async ({ ctx, params, query }) =>
      (await listRecordings(ctx, endpointOf(params), { limit: query.limit })).recordings,
  }),
  defineRoute({
    method: 'DELETE',
    path: '/projects/{project}/endpoints/{endpoint}/recordings',
    tag: 'Recordings',
    summary: 'Delete every recording of an endpoint (as `mockdev recording clear -f`)',
    params: ENDPOINT_PARAMS,
    response: {
      schema: z.object({ endpoint: EndpointSchema, deleted: z.number().int() }),
      description: 'The endpoint and how many recordings were deleted',
    },
    handle: async ({ ctx, params }) => {
      const { endpoint, deleted } = await clearRecordings(ctx, endpointOf(params));
      return { endpoint, deleted };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/projects/{project}/recordings/count',
    tag: 'Recordings',
    summary: 'How many recordings each endpoint of a project has (as `mockdev recording count --json`)',
    params: PROJECT_PARAM,
    response: { schema: RecordingCountSchema, description: 'The counts per endpoint and in total' },
    handle: ({ ctx, params }) => countRecordings(ctx, params.project!),
  }),
  defineRoute({
    method: 'GET',
    path: '/recordings/{id}',
    tag: 'Recordings',
    summary: 'One recording',
    params: RECORDING_PARAM,
    response: { schema: RecordingSchema, description: 'The recording' },
    handle: ({ ctx, params }) => getRecording(ctx, params.id!),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/recordings/{id}',
    tag: 'Recordings',
    summary: 'Delete one recording (as `mockdev recording delete`)',
    params: RECORDING_PARAM,
    response: { status: 204, description: 'Deleted' },
    handle: async ({ ctx, params }) => {
      await deleteRecording(ctx, params.id!);
    },
  }),
  defineRoute<z.output<typeof ToMockSchema>>({
    method: 'POST',
    path: '/recordings/{id}/to-mock',
    tag: 'Recordings',
    summary: 'Turn a recording into a mock endpoint, or a variation (as `mockdev recording to-mock --json`)',
    params: RECORDING_PARAM,
    body: ToMockSchema,
    response: {
      status: 201,
      schema: EndpointSchema,
      description: 'The endpoint created, or the endpoint the variation was added to',
    },
    handle: ({ ctx, params, body }) =>
      recordingToMock(ctx, params.id!, { asVariation: body?.asVariation, name: body?.name }),
  }),
];
