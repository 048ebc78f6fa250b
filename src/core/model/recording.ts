import * as z from 'zod';

/**
 * A recording: one exchange a proxy endpoint forwarded, stored when its `proxy.record` is on
 * (SPEC 2 "Recording"). Bodies are text (`bodyEncoding: "utf8"`) or, when they are not valid
 * UTF-8, base64. A response body that came compressed (gzip, br, deflate) is stored decoded,
 * with `decodedFrom` naming the coding; its headers are kept as received (Content-Encoding too),
 * so a replay must drop Content-Encoding and Content-Length (`recording to-mock` does).
 * Bodies beyond the body cap (settings.requestBodyLimitBytes) are cut with `truncated: true`.
 */
const BodyFields = {
  body: z.string().nullable(),
  bodyEncoding: z.enum(['utf8', 'base64']),
  truncated: z.boolean(),
};

export const RecordingSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  endpointId: z.string(),
  timestamp: z.string(),
  durationMs: z.number(),
  /** The URL the request was forwarded to. */
  target: z.string(),
  request: z.object({
    method: z.string(),
    path: z.string(),
    query: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
    headers: z.record(z.string(), z.string()),
    ...BodyFields,
  }),
  response: z.object({
    status: z.number(),
    headers: z.record(z.string(), z.string()),
    ...BodyFields,
    /** The body was stored decoded from this Content-Encoding; null when it came unencoded. */
    decodedFrom: z.string().nullable(),
  }),
});
export type Recording = z.infer<typeof RecordingSchema>;

/** How many recordings each endpoint of a project has (every proxy endpoint, and any other with some). */
export const RecordingCountSchema = z.object({
  project: z.object({ id: z.string(), name: z.string() }),
  endpoints: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      method: z.string(),
      path: z.string(),
      count: z.number().int(),
    }),
  ),
  total: z.number().int(),
});
