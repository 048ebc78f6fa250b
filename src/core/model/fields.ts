import * as z from 'zod';
import { MockdevError } from '../errors.js';
import { pathTemplateProblem } from '../match/router.js';
import {
  DELAY_MAX_MS,
  DELAY_SIGMA_MAX,
  HEADER_NAME_PATTERN,
  HEADER_NAME_RULE,
  HTTP_METHODS,
  NAME_MAX,
  PORT_MAX,
  PORT_MIN,
  STATUS_MAX,
  STATUS_MIN,
  STATUS_TEXT_MAX,
  type HttpMethod,
} from './limits.js';

/** Field rules shared by every resource. Each message says what is allowed. */

export {
  DEFAULT_PROJECT_PORT,
  HTTP_METHODS,
  PORT_MAX,
  PORT_MIN,
  STATUS_TEXT_MAX,
  type HttpMethod,
} from './limits.js';
export const DEFAULT_MCP_PORT = 3100;
/** Where `mockdev ui` serves the admin API and the web UI by default. */
export const DEFAULT_UI_PORT = 3200;
export const DEFAULT_HOST = '127.0.0.1';

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

export const NameSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(NAME_MAX, `must be at most ${NAME_MAX} characters`)
  .refine((s) => !/[/\\]/.test(s), 'must not contain "/" or "\\"')
  .refine((s) => !CONTROL_CHARS.test(s), 'must not contain control characters')
  .refine((s) => s !== '.' && s !== '..', 'must not be "." or ".."');

export const PortSchema = z
  .number({ error: `must be a whole number from ${PORT_MIN} to ${PORT_MAX}` })
  .int(`must be a whole number from ${PORT_MIN} to ${PORT_MAX}`)
  .min(PORT_MIN, `must be from ${PORT_MIN} to ${PORT_MAX}`)
  .max(PORT_MAX, `must be from ${PORT_MIN} to ${PORT_MAX}`);

export const MethodSchema = z
  .string()
  .transform((s) => s.trim().toUpperCase())
  .pipe(z.enum(HTTP_METHODS, { error: `must be one of ${HTTP_METHODS.join(', ')}` }));

/** A method given as a filter or a lookup: upper-cased, or INVALID_ARGUMENT naming the allowed ones. */
export function parseMethod(value: string): HttpMethod {
  const parsed = MethodSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new MockdevError(
    'INVALID_ARGUMENT',
    `Invalid method "${value}": must be one of ${HTTP_METHODS.join(', ')}`,
    {
      details: { field: 'method', value },
    },
  );
}

const STATUSES = `from ${STATUS_MIN} to ${STATUS_MAX}`;

/** A response status: 200–599 (a 1xx is an interim answer, never a final one). */
export const StatusSchema = z
  .number({ error: `must be a whole number ${STATUSES}` })
  .int(`must be a whole number ${STATUSES}`)
  .min(STATUS_MIN, `must be ${STATUSES} (a 1xx status is an interim answer, not a response)`)
  .max(STATUS_MAX, `must be ${STATUSES}`);

/** A number of milliseconds a delay can be (a fixed delay, a distribution's bound or median). */
export const DelayMsSchema = z
  .number({ error: 'must be a number of milliseconds' })
  .int('must be a whole number of milliseconds')
  .min(0, 'must not be negative')
  .max(DELAY_MAX_MS, `must be at most ${DELAY_MAX_MS} ms (10 minutes)`);

/** `{ "uniform": [min, max] }`: any delay from min to max milliseconds, equally likely. */
export const UniformDelaySchema = z
  .strictObject({ uniform: z.tuple([DelayMsSchema, DelayMsSchema]) })
  .refine((d) => d.uniform[0] <= d.uniform[1], {
    message: 'uniform: the minimum must not be above the maximum',
    path: ['uniform'],
  });

/**
 * `{ "lognormal": { "median": ms, "sigma": s } }`: half the delays below the median, a long tail
 * above it; sigma (0 to 5) is the spread (0: always the median; 0.5: the 95th percentile is about
 * 2.3 times the median).
 */
export const LognormalDelaySchema = z.strictObject({
  lognormal: z.strictObject({
    median: DelayMsSchema,
    sigma: z
      .number({ error: 'must be a number from 0 to 5' })
      .min(0, 'must be from 0 to 5')
      .max(DELAY_SIGMA_MAX, `must be from 0 to ${DELAY_SIGMA_MAX}`),
  }),
});

/**
 * Milliseconds before the response is sent: a fixed number, or a distribution sampled per
 * request (core/latency.ts), capped at 10 minutes.
 */
export const DelaySchema = z.union([DelayMsSchema, UniformDelaySchema, LognormalDelaySchema], {
  error:
    'must be a number of milliseconds, { "uniform": [min, max] } or { "lognormal": { "median": ms, "sigma": s } }',
});
export type Delay = z.infer<typeof DelaySchema>;

/** A URL path: leading slash added when missing; no spaces, no control characters, no query. */
export const PathSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .transform((s) => (s.startsWith('/') ? s : `/${s}`))
  .refine((s) => !/\s/.test(s) && !CONTROL_CHARS.test(s), 'must not contain spaces or control characters')
  .refine((s) => !s.includes('?') && !s.includes('#'), 'must not contain a query string or fragment')
  .superRefine((s, ctx) => {
    const problem = pathTemplateProblem(s);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** What node (and HTTP) can send in a header value: tab, visible ASCII, space, Latin-1. */
const BAD_VALUE_CHAR = /[^\t\x20-\x7e\x80-\xff]/;

export const HeaderNameSchema = z.string().refine((s) => HEADER_NAME_PATTERN.test(s), HEADER_NAME_RULE);
export const HeaderValueSchema = z
  .string()
  .refine(
    (s) => !BAD_VALUE_CHAR.test(s),
    'must be one line of printable characters (no line breaks, control characters or characters beyond Latin-1)',
  );

/**
 * What a reason phrase (RFC 9110 `reason-phrase`) may hold here: tab, space, visible ASCII and
 * printable Latin-1 (no C0 or C1 control characters, no DEL). Stricter than a header value.
 */
const BAD_STATUS_TEXT_CHAR = /[^\t\x20-\x7e\xa0-\xff]/;

/** Why a status text cannot be sent (one line, for messages), or null when it can. */
export function statusTextProblem(s: string): string | null {
  if (/[\r\n]/.test(s)) return 'must be one line (no line breaks)';
  if (BAD_STATUS_TEXT_CHAR.test(s))
    return 'may contain only printable ASCII or Latin-1 characters, spaces and tabs (no control characters)';
  if (s.length > STATUS_TEXT_MAX) return `must be at most ${STATUS_TEXT_MAX} characters`;
  return null;
}

/**
 * The status text of a response (HTTP/1.1 reason phrase, WireMock's statusMessage), sent instead
 * of the standard one (`201 Created`); empty means the standard one.
 */
export const StatusTextSchema = z.string().superRefine((s, ctx) => {
  const problem = statusTextProblem(s);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** Response headers: names and values a server can send. */
export const HeadersSchema = z.record(HeaderNameSchema, HeaderValueSchema);

/** Headers a request carried (kept for reference, never sent): any text. */
export const RequestHeadersSchema = z.record(z.string(), z.string());

export const ContentTypeSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .refine((s) => !CONTROL_CHARS.test(s), 'must not contain control characters');

export const TimestampSchema = z.string();
