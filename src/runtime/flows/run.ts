import type { CallbackOutcome, FlowRun, FlowStepStatus } from '../../core/model/flow.js';
import { maskedError } from '../rendered.js';
import { renderCallback, type CallbackRequest, type SendCallback } from './callback.js';
import type { CompiledCallback, CompiledFlow } from './compile.js';
import {
  callbackContext,
  headerObject,
  KeptBody,
  type AnswerSnapshot,
  type RequestSnapshot,
} from './context.js';

/**
 * One run of a flow (docs/flows.md, "At run time"): its steps fired as their triggers say (a `request`
 * step by the request that started the run, a `delay` step `ms` after the start, an `after` step
 * `delayMs` after the step it names completed), each change saved. A step that finally fails
 * skips every step after it (transitively by `after`); one that cannot fire in this run (a
 * request step of a run no request started) is skipped, and so are the steps after it. A
 * cancelled step (the flow disabled or deleted, the server stopping) cancels the steps after it.
 */

/** What a run needs from the server it runs in. */
export interface RunHost {
  /** Stores the run as it is now (the writer keeps it until its batch is written: save after each change). */
  save(run: FlowRun): void;
  send: SendCallback;
  /** The wait before a callback's first retry; each later one doubles it. */
  retryBaseMs: number;
  /** Whether the server is stopping: nothing fires any more, what would is cancelled. */
  stopping(): boolean;
  /** Whether timers may keep the process alive (false where the server holds it). */
  refTimers: boolean;
  ended(run: Run): void;
}

/** The request that started a run: which endpoint it reached, it and its response, its depth. */
export interface TriggeringRequest {
  endpointId: string;
  request: RequestSnapshot;
  response: AnswerSnapshot;
  /** Its X-Mockdev-Flow-Depth (0 without one): callbacks carry one more. */
  depth: number;
  /** How the run record names it (the request log record's method, URL and ts). */
  ref: { method: string; url: string; ts: number };
}

export interface RunInput {
  id: string;
  projectId: string;
  flow: CompiledFlow;
  startedBy: FlowRun['startedBy'];
  trigger: TriggeringRequest | null;
  env: { variables: Record<string, string>; secrets: readonly string[] };
  tunnelUrl: string;
}

interface StepState {
  done: boolean;
  /** A delay or a wait between attempts. */
  timer?: NodeJS.Timeout;
  /** Ends a wait between attempts early (the step was cancelled). */
  wake?: () => void;
  /** An attempt in flight. */
  abort?: AbortController;
}

const iso = () => new Date().toISOString();
const STARTED_BY: Record<FlowRun['startedBy'], string> = {
  request: 'by a request',
  start: 'when the server started',
  enabled: 'when the flow was enabled',
  manual: 'by hand',
};

export class Run {
  readonly record: FlowRun;
  /** Settles when every step is done and the run was saved as ended. */
  readonly ended: Promise<void>;
  private readonly states: StepState[];
  private readonly answers = new Map<string, AnswerSnapshot>();
  private left: number;
  private busy = 0;
  private resolveEnded!: () => void;

  constructor(
    private readonly input: RunInput,
    private readonly host: RunHost,
  ) {
    const { flow, trigger } = input;
    this.record = {
      id: input.id,
      projectId: input.projectId,
      flowId: flow.id,
      flowName: flow.name,
      startedBy: input.startedBy,
      requestId: null,
      request: trigger ? { ...trigger.ref } : null,
      startedAt: iso(),
      finishedAt: null,
      status: 'running',
      steps: flow.steps.map((s) => ({
        stepId: s.id,
        label: s.label,
        status: 'pending',
        firedAt: null,
        finishedAt: null,
      })),
    };
    this.states = flow.steps.map(() => ({ done: false }));
    this.left = flow.steps.length;
    this.ended = new Promise((r) => (this.resolveEnded = r));
  }

  get id(): string {
    return this.input.id;
  }
  get flowId(): string {
    return this.input.flow.id;
  }

  /** Saves the run with every step pending, then fires what fires at once and schedules the rest. */
  start(): void {
    this.host.save(this.record);
    const { flow, trigger } = this.input;
    const ids = new Set(flow.steps.map((s) => s.id));
    this.batch(() => {
      flow.steps.forEach((step, i) => {
        const t = step.trigger;
        if (t.type === 'request') {
          if (trigger?.endpointId === t.endpointId) this.fire(i);
          else
            this.finish(
              i,
              'skipped',
              trigger
                ? `it fires on requests to another endpoint; this run was started by ${trigger.ref.method} ${trigger.request.path}`
                : `it fires on requests; this run was started ${STARTED_BY[this.input.startedBy]}`,
            );
        } else if (t.type === 'delay') this.schedule(i, t.ms);
        else if (!ids.has(t.stepId) || t.stepId === step.id)
          this.finish(i, 'skipped', `its trigger names no other step of the flow (${t.stepId})`);
      });
    });
  }

  /** Cancels every step not under way (delays, waits between attempts, steps not fired yet). */
  cancelWaiting(reason: string): void {
    this.batch(() => {
      this.states.forEach((s, i) => {
        if (!s.done && s.abort === undefined) this.finish(i, 'cancelled', reason);
      });
    });
  }

  /** Cancels every step not done, attempts in flight included. */
  cancelAll(reason: string): void {
    this.batch(() => this.states.forEach((s, i) => this.finish(i, 'cancelled', reason)));
  }

  /** Runs `fn`, then saves once (or ends the run when every step is done). */
  private batch(fn: () => void): void {
    this.busy++;
    try {
      fn();
    } finally {
      if (--this.busy === 0) this.changed();
    }
  }

  private changed(): void {
    if (this.busy > 0 || this.record.status !== 'running') return;
    if (this.left === 0) {
      const steps = this.record.steps;
      this.record.status = steps.some((s) => s.status === 'cancelled')
        ? 'cancelled'
        : steps.some((s) => s.status === 'failed')
          ? 'failed'
          : 'completed';
      this.record.finishedAt = iso();
      this.host.save(this.record);
      this.host.ended(this);
      this.resolveEnded();
    } else this.host.save(this.record);
  }

  private timer(fn: () => void, ms: number): NodeJS.Timeout {
    const t = setTimeout(fn, ms);
    if (!this.host.refTimers) t.unref();
    return t;
  }

  private schedule(i: number, ms: number): void {
    const s = this.states[i]!;
    if (s.done) return;
    if (this.host.stopping()) return this.finish(i, 'cancelled', STOPPED);
    s.timer = this.timer(() => {
      s.timer = undefined;
      this.batch(() => this.fire(i));
    }, ms);
  }

  private fire(i: number): void {
    if (this.states[i]!.done) return;
    if (this.host.stopping()) return this.finish(i, 'cancelled', STOPPED);
    this.record.steps[i]!.firedAt = iso();
    const action = this.input.flow.steps[i]!.action;
    // A respond or proxy step fires with the request it answered: its response was sent.
    if (action.type !== 'callback') return this.complete(i, this.input.trigger!.response);
    void this.call(i, action);
  }

  private complete(i: number, answer: AnswerSnapshot): void {
    const step = this.input.flow.steps[i]!;
    this.answers.set(step.name, answer);
    this.finish(i, 'completed');
    for (const j of step.next) {
      const t = this.input.flow.steps[j]!.trigger;
      if (t.type === 'after') this.schedule(j, t.delayMs);
    }
  }

  /**
   * Marks a step done (a timer or an attempt of it ended) and, unless it completed, every step
   * after it: skipped after a failure or a skip, cancelled after a cancel.
   */
  private finish(i: number, status: Exclude<FlowStepStatus, 'pending'>, reason?: string): void {
    const s = this.states[i]!;
    if (s.done) return;
    s.done = true;
    this.left--;
    if (s.timer) clearTimeout(s.timer);
    s.timer = undefined;
    s.wake?.();
    s.abort?.abort();
    const rec = this.record.steps[i]!;
    rec.status = status;
    rec.finishedAt = iso();
    if (reason !== undefined) rec.reason = reason;
    if (status === 'completed') return;
    const step = this.input.flow.steps[i]!;
    const why =
      status === 'cancelled'
        ? reason!
        : `step "${step.name}" ${status === 'failed' ? 'failed' : 'was skipped'}`;
    for (const j of step.next) this.finish(j, status === 'cancelled' ? 'cancelled' : 'skipped', why);
  }

  /** A callback step: rendered, then attempted until it succeeds or its retries are spent. */
  private async call(i: number, c: CompiledCallback): Promise<void> {
    const s = this.states[i]!;
    const started = Date.now();
    let request: CallbackRequest;
    try {
      request = renderCallback(c, this.context(), (this.input.trigger?.depth ?? 0) + 1);
    } catch (e) {
      const error = maskedError(e);
      return this.finish(i, 'failed', error instanceof Error ? error.message : String(error));
    }
    const outcome: CallbackOutcome = {
      method: request.method,
      url: request.shownUrl,
      status: null,
      durationMs: 0,
      attempts: 0,
      error: null,
    };
    this.record.steps[i]!.callback = outcome;
    this.changed();
    for (;;) {
      outcome.attempts++;
      const abort = (s.abort = new AbortController());
      let error: string | undefined;
      let answer: Awaited<ReturnType<SendCallback>> | undefined;
      try {
        answer = await this.host.send(request, c.timeoutMs, abort.signal);
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
      s.abort = undefined;
      outcome.durationMs = Date.now() - started;
      if (s.done) return; // cancelled meanwhile
      outcome.status = answer?.status ?? null;
      if (answer !== undefined && answer.status < 400) {
        outcome.error = null;
        const body = new KeptBody(answer.body);
        return this.batch(() =>
          this.complete(i, { status: answer.status, headers: headerObject(answer.headers), body }),
        );
      }
      outcome.error =
        error ?? `answered ${answer!.status}${answer!.statusText ? ` ${answer!.statusText}` : ''}`;
      const attempts = outcome.attempts > 1 ? ` after ${outcome.attempts} attempts` : '';
      if (outcome.attempts > c.retries)
        return this.batch(() => this.finish(i, 'failed', `the callback failed${attempts}: ${outcome.error}`));
      if (this.host.stopping()) return this.batch(() => this.finish(i, 'cancelled', STOPPED));
      this.changed();
      await new Promise<void>((wake) => {
        s.wake = wake;
        s.timer = this.timer(wake, this.host.retryBaseMs * 2 ** (outcome.attempts - 1));
      });
      s.wake = s.timer = undefined;
      if (s.done) return;
    }
  }

  private context(): object {
    const { trigger, env } = this.input;
    return callbackContext({
      runId: this.input.id,
      request: trigger?.request ?? null,
      response: trigger?.response,
      steps: this.answers,
      env: env.variables,
      secrets: env.secrets,
      tunnelUrl: this.input.tunnelUrl,
    });
  }
}

export const STOPPED = 'the server stopped';
