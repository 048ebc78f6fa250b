import * as z from 'zod';
import { MockdevError } from '../../core/errors.js';
import { EVENT_TYPES, eventStream } from '../events.js';
import { defineRoute, type Route } from '../route.js';

const EventsQuery = z.object({
  lastEventId: z
    .string()
    .optional()
    .describe('As the Last-Event-ID header (which an EventSource cannot set on its first connection)'),
});

export const eventRoutes: Route[] = [
  defineRoute<unknown, z.output<typeof EventsQuery>>({
    method: 'GET',
    path: '/events',
    tag: 'Events',
    summary: 'Live events (Server-Sent Events)',
    description: [
      `Event types: ${EVENT_TYPES.map((t) => `\`${t}\``).join(', ')}.`,
      '`request`: a request answered by any mock server, in brief `{ id, projectId, endpointId, method, path, status, durationMs, timestamp }`, within a second.',
      '`projects`: `{ projectId, name?, change: created|updated|deleted }`; `endpoints` and `flows`: `{ projectId, name, change: updated, count }`; from any process (CLI, MCP, API, a hand edit).',
      '`server`: `{ change: started|stopped, server }`.',
      '`tunnel`: `{ change: started|stopped, tunnel }`, a tunnel as GET …/tunnel answers it, started or stopped by any process (the CLI, `serve --tunnel`, this API).',
      '`flow-run`: a flow run as stored (`{ id, projectId, flowId, flowName, startedBy, status, steps, … }`, as GET …/flow-runs/{run}) each time it is saved: when it starts, as each step changes, and when it ends; from any server of any process.',
      'Every event has an id growing by one; reconnecting with `Last-Event-ID` replays what was missed from the last 1,000 events. A comment line every 15 s keeps the stream open.',
    ].join(' '),
    query: EventsQuery,
    response: {
      schema: z.string(),
      contentType: 'text/event-stream',
      description: 'The event stream: `id:`, `event:` and `data:` (JSON) lines per event',
    },
    handle: ({ services, query }) => {
      if (!services.events) throw new MockdevError('INTERNAL', 'This admin API has no live events');
      return eventStream(services.events, query.lastEventId);
    },
  }),
];
