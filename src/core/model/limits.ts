/**
 * The limits of the model's fields as plain values: the schemas check with them (fields.ts,
 * endpoint.ts, environment.ts), the descriptions quote them (descriptions.ts), and the web UI
 * imports them instead of restating them. No imports here, and no zod: the UI bundles this
 * file, and the CLI reads it at start.
 */

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** The ports a project's server may use (below 1024 needs privileges). */
export const PORT_MIN = 1024;
export const PORT_MAX = 65535;
/** Where the ports of new projects start (the defaultPort setting's default). */
export const DEFAULT_PROJECT_PORT = 3001;

/** A response status: a 1xx is an interim answer, never a final one. */
export const STATUS_MIN = 200;
export const STATUS_MAX = 599;

/** The longest delay before a response, in milliseconds (10 minutes). */
export const DELAY_MAX_MS = 600_000;
/** The largest spread of a lognormal delay (core/latency.ts). */
export const DELAY_SIGMA_MAX = 5;
/** The fastest drip fault: bytes per second (core/model/fault.ts). */
export const DRIP_MAX_BYTES_PER_SECOND = 1_000_000_000;

/** How long a proxy endpoint may wait for its target, in milliseconds (1 hour at most). */
export const PROXY_TIMEOUT_MIN_MS = 1;
export const PROXY_TIMEOUT_MAX_MS = 3_600_000;
/** How long a proxy endpoint waits for its target unless proxy.timeoutMs says otherwise. */
export const DEFAULT_PROXY_TIMEOUT_MS = 30_000;

/** The longest name of a project, an endpoint, a variation or an environment. */
export const NAME_MAX = 200;
/** The longest status text (reason phrase) an endpoint or a variation may give. */
export const STATUS_TEXT_MAX = 200;

/** The content type of a new endpoint's response. */
export const DEFAULT_CONTENT_TYPE = 'application/json';

/** An HTTP token (RFC 9110 5.6.2): what a header name may be. */
export const HEADER_NAME_PATTERN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
export const HEADER_NAME_RULE = 'may contain only letters, digits and !#$%&\'*+-.^_`|~ (no spaces or ":")';

/** Environment variable keys: letters, digits and underscores, not starting with a digit (`{{env.API_KEY}}`). */
export const ENV_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const ENV_KEY_RULE = 'must start with a letter or _ and hold only letters, digits and _';

/** Flows (docs/flows.md). The longest delay of a step, in milliseconds (24 hours). */
export const FLOW_DELAY_MAX_MS = 86_400_000;
/** How long a callback waits for its answer unless its timeoutMs says otherwise (10 s). */
export const DEFAULT_CALLBACK_TIMEOUT_MS = 10_000;
/** The longest a callback may wait for its answer (10 minutes). */
export const CALLBACK_TIMEOUT_MAX_MS = 600_000;
/** The most retries a callback may make after its first attempt. */
export const CALLBACK_RETRIES_MAX = 10;
/** The wait before a callback's first retry; each later wait doubles it (500 ms, 1 s, 2 s, ...). */
export const CALLBACK_RETRY_BASE_MS = 500;
/** A request whose X-Mockdev-Flow-Depth is this or more starts no run (a flow calling its own server). */
export const FLOW_DEPTH_MAX = 10;
/** The header a callback carries its depth in. */
export const FLOW_DEPTH_HEADER = 'X-Mockdev-Flow-Depth';
/** The most steps one flow may have. */
export const FLOW_STEPS_MAX = 100;
export const STEP_LABEL_MAX = 100;
export const FLOW_DESCRIPTION_MAX = 2000;
/** How long a stopping server waits for callbacks in flight before cancelling what is left (5 s). */
export const FLOW_STOP_GRACE_MS = 5_000;

/**
 * The admin API's live event types (GET /api/v1/events; `flow-run`: a run of a flow each time it
 * is saved; `tunnel`: a tunnel started or stopped). Here so the web UI subscribes to this list.
 */
export const EVENT_TYPES = [
  'request',
  'projects',
  'endpoints',
  'flows',
  'resources',
  'server',
  'settings',
  'flow-run',
  'tunnel',
] as const;
