import * as z from 'zod';
import { HeadersSchema, MethodSchema, NameSchema } from './fields.js';
import {
  CALLBACK_RETRIES_MAX,
  CALLBACK_TIMEOUT_MAX_MS,
  DEFAULT_CALLBACK_TIMEOUT_MS,
  FLOW_DELAY_MAX_MS,
  FLOW_DESCRIPTION_MAX,
  FLOW_STEPS_MAX,
  STEP_LABEL_MAX,
} from './limits.js';

/**
 * Flows (SPEC 2 "Flow", "Flow step"; docs/flows.md): steps of a trigger and an action, kept in
 * the project's `flows.json` beside `endpoints.json`. What one schema cannot say (an `after`
 * trigger names a step of the same flow, no cycles, respond/proxy only on a request trigger,
 * one answering step per endpoint, endpoints of the right kind) is checked by core/flows.ts.
 */

const ms = (what: string, max: number) =>
  z
    .number({ error: `must be a number of milliseconds` })
    .int(`must be a whole number of milliseconds`)
    .min(0, `must not be negative`)
    .max(max, `must be at most ${max} ms (${what})`);

const EndpointRefSchema = z.string().trim().min(1, 'must name an endpoint');
const StepRefSchema = z.string().trim().min(1, 'must name a step');

export const RequestTriggerSchema = z.object({
  type: z.literal('request'),
  /** The endpoint whose requests fire the step. */
  endpointId: EndpointRefSchema,
});
export const DelayTriggerSchema = z.object({
  type: z.literal('delay'),
  /** Milliseconds after the run started. */
  ms: ms('24 hours', FLOW_DELAY_MAX_MS),
});
export const AfterTriggerSchema = z.object({
  type: z.literal('after'),
  /** The step of the same flow whose completion fires this one. */
  stepId: StepRefSchema,
  /** Milliseconds after that step completed (default 0). */
  delayMs: ms('24 hours', FLOW_DELAY_MAX_MS).default(0),
});
export const FlowTriggerSchema = z.discriminatedUnion('type', [
  RequestTriggerSchema,
  DelayTriggerSchema,
  AfterTriggerSchema,
]);
export type FlowTrigger = z.infer<typeof FlowTriggerSchema>;
export const TRIGGER_TYPES = ['request', 'delay', 'after'] as const;

export const RespondActionSchema = z.object({
  type: z.literal('respond'),
  /** The mock endpoint whose response answers the triggering request. */
  endpointId: EndpointRefSchema,
});
export const CallbackActionSchema = z.object({
  type: z.literal('callback'),
  method: MethodSchema.default('POST'),
  /** Absolute http(s) URL once templated. */
  url: z.string().trim().min(1, 'must be an absolute http(s) URL'),
  headers: HeadersSchema.default({}),
  /** The request body (a template); none when absent. */
  body: z.string().optional(),
  timeoutMs: z
    .number({ error: 'must be a number of milliseconds' })
    .int('must be a whole number of milliseconds')
    .min(1, 'must be at least 1 ms')
    .max(CALLBACK_TIMEOUT_MAX_MS, `must be at most ${CALLBACK_TIMEOUT_MAX_MS} ms`)
    .default(DEFAULT_CALLBACK_TIMEOUT_MS),
  retries: z
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(0, 'must not be negative')
    .max(CALLBACK_RETRIES_MAX, `must be at most ${CALLBACK_RETRIES_MAX}`)
    .default(0),
});
export const ProxyActionSchema = z.object({
  type: z.literal('proxy'),
  /** The proxy endpoint the triggering request is forwarded through. */
  endpointId: EndpointRefSchema,
});
export const FlowActionSchema = z.discriminatedUnion('type', [
  RespondActionSchema,
  CallbackActionSchema,
  ProxyActionSchema,
]);
export type FlowAction = z.infer<typeof FlowActionSchema>;
export type CallbackAction = z.infer<typeof CallbackActionSchema>;
export const ACTION_TYPES = ['respond', 'callback', 'proxy'] as const;

export const StepLabelSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(STEP_LABEL_MAX, `must be at most ${STEP_LABEL_MAX} characters`)
  .regex(
    /^[A-Za-z_][A-Za-z0-9_-]*$/,
    'must start with a letter or "_" and hold only letters, digits, "_" and "-" (templates read it as {{steps.<label>.status}})',
  );

export const FlowStepSchema = z.object({
  id: z.string().min(1),
  /** Names the step in `after` triggers and in templates ({{steps.<label>.body}}). */
  label: StepLabelSchema.optional(),
  trigger: FlowTriggerSchema,
  action: FlowActionSchema,
});
export type FlowStep = z.infer<typeof FlowStepSchema>;

export const FlowSchema = z.object({
  id: z.string().min(1),
  name: NameSchema,
  description: z
    .string()
    .max(FLOW_DESCRIPTION_MAX, `must be at most ${FLOW_DESCRIPTION_MAX} characters`)
    .default(''),
  enabled: z.boolean().default(true),
  steps: z.array(FlowStepSchema).max(FLOW_STEPS_MAX, `must have at most ${FLOW_STEPS_MAX} steps`).default([]),
});
export type Flow = z.infer<typeof FlowSchema>;

/** flows.json: the flows of a project, in order. */
export const FlowListSchema = z.array(FlowSchema);

// ---------------------------------------------------------------- runs

export const FLOW_RUN_STATUSES = ['running', 'completed', 'failed', 'cancelled'] as const;
export type FlowRunStatus = (typeof FLOW_RUN_STATUSES)[number];
export const FLOW_STEP_STATUSES = ['pending', 'completed', 'failed', 'skipped', 'cancelled'] as const;
export type FlowStepStatus = (typeof FLOW_STEP_STATUSES)[number];

/** What a callback step did: its last attempt's request and answer. Secrets masked. */
export const CallbackOutcomeSchema = z.object({
  method: z.string(),
  url: z.string(),
  /** The last answer's status; null when none came (timeout, refused). */
  status: z.number().nullable(),
  /** Of all attempts, waits between them included. */
  durationMs: z.number(),
  attempts: z.number(),
  /** Why it failed, one line; null when it succeeded. */
  error: z.string().nullable(),
});
export type CallbackOutcome = z.infer<typeof CallbackOutcomeSchema>;

export const FlowRunStepSchema = z.object({
  stepId: z.string(),
  label: z.string().nullable(),
  status: z.enum(FLOW_STEP_STATUSES),
  firedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  callback: CallbackOutcomeSchema.optional(),
  /** Why the step failed, was skipped or cancelled, one line. */
  reason: z.string().optional(),
});
export type FlowRunStep = z.infer<typeof FlowRunStepSchema>;

/** How a run started: a request, the server's start, the flow being enabled, or by hand. */
export const FLOW_RUN_TRIGGERS = ['request', 'start', 'enabled', 'manual'] as const;

export const FlowRunSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  flowId: z.string(),
  flowName: z.string(),
  startedBy: z.enum(FLOW_RUN_TRIGGERS),
  /**
   * The request log record of the triggering request (null: none, or no longer in the log).
   * Resolved by the store when read (the server does not know record ids).
   */
  requestId: z.string().nullable(),
  /** The triggering request as the server saw it: how the store finds its record. */
  request: z.object({ method: z.string(), url: z.string(), ts: z.number() }).nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  status: z.enum(FLOW_RUN_STATUSES),
  steps: z.array(FlowRunStepSchema),
});
export type FlowRun = z.infer<typeof FlowRunSchema>;

// ---------------------------------------------------------------- input (CLI --file, admin API)

/**
 * A step as given to be saved: its id may be left out (one is made), endpoints may be named by
 * id, name or "METHOD /path", and an `after` trigger's step by id or label (the app resolves
 * them, core/flows.ts checks the result).
 */
export const FlowStepInputSchema = FlowStepSchema.extend({ id: z.string().min(1).optional() });
export type FlowStepInput = z.input<typeof FlowStepInputSchema>;

/** A flow as given to be saved (`flow create --file`, the admin API). */
export const FlowInputSchema = z.object({
  name: NameSchema,
  description: z
    .string()
    .max(FLOW_DESCRIPTION_MAX, `must be at most ${FLOW_DESCRIPTION_MAX} characters`)
    .optional(),
  enabled: z.boolean().optional(),
  steps: z
    .array(FlowStepInputSchema)
    .max(FLOW_STEPS_MAX, `must have at most ${FLOW_STEPS_MAX} steps`)
    .optional(),
});
export type FlowInput = z.input<typeof FlowInputSchema>;

/** What an update changes; fields left out stay. `steps` replaces every step. */
export const FlowPatchSchema = FlowInputSchema.partial();
export type FlowPatch = z.input<typeof FlowPatchSchema>;
