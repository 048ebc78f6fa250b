import { MockdevError } from '../core/errors.js';
import type { StoredProject, Subscription } from '../core/ports.js';
import { LiveContractCheck } from '../runtime/contract-live.js';
import type { AfterResponse } from '../runtime/pipeline.js';
import type { AppContext } from './context.js';
import { requirePro } from './license.js';

/**
 * A server's live contract checking (`serve --contract [SPEC]`, project.json `contract.live`;
 * docs/contract.md): which document is in force, loaded through loadContract (compiled once per
 * document text), and followed as the project changes. The checking itself, off the request
 * path, is runtime/contract-live.ts.
 */

export interface LiveContract {
  /** The hook that counts each response (nothing more on the request path). */
  afterResponse: AfterResponse;
  /** The document in force ("the stored contract (…)", a file, a URL); undefined: none, nothing is checked. */
  label(): string | undefined;
  /** Checks what is left (call it once the request log writer closed), then stops following the project. */
  stop(): Promise<void>;
}

interface Logger {
  info?: (message: string) => void;
  warn?: (message: string) => void;
}

/** How long the project's changes settle before its contract is looked at again. */
const RELOAD_SETTLE_MS = 50;

/**
 * loadContract, imported when a contract is first wanted: it brings the OpenAPI reader and the
 * JSON Schema compiler, which a server that checks nothing never loads (its start stays quick).
 */
const loadContract: typeof import('./contract.js').loadContract = async (...args) =>
  (await import('./contract.js')).loadContract(...args);

const noContract = (stored: StoredProject): MockdevError =>
  new MockdevError('INVALID_ARGUMENT', `"${stored.project.name}" has no contract to check requests against`, {
    hint: `give a document (--contract FILE_OR_URL), or store one with "mockdev contract import ${stored.project.name} <URL>"`,
    details: { field: 'contract' },
  });

/**
 * Sets up live checking as `option` says (StartServerInput.contract): `false` none; a string that
 * document for the whole run; `true` the project's stored contract (INVALID_ARGUMENT when it has
 * none), reloaded when it changes; undefined the stored contract while project.json says
 * `contract.live`. Asked for (`true` or a document), it needs Pro (LICENSE_REQUIRED); turned on by
 * project.json without a license, the server serves and says it does not check.
 */
export async function openLiveContract(
  ctx: AppContext,
  stored: StoredProject,
  option: boolean | string | undefined,
  logger: Logger,
): Promise<LiveContract | undefined> {
  if (option === false) return undefined;
  if (option !== undefined) await requirePro(ctx, 'contract');
  const check = new LiveContractCheck({
    log: ctx.requests,
    projectId: stored.project.id,
    onWarning: (m) => logger.warn?.(m),
  });
  let label: string | undefined;
  const live: LiveContract = {
    afterResponse: check.afterResponse,
    label: () => label,
    stop: () => check.stop(),
  };

  if (typeof option === 'string') {
    const loaded = await loadContract(ctx, stored, option);
    if (!loaded) throw noContract(stored);
    await check.use(loaded.contract);
    label = loaded.label;
    return live;
  }

  /** The stored contract when it is wanted: always (`true`), or while project.json says live. */
  let licensed = option === true;
  const apply = async (project: StoredProject, starting: boolean): Promise<void> => {
    const wanted = option === true || project.project.contract?.live === true;
    if (wanted && !licensed) {
      try {
        await requirePro(ctx, 'contract');
        licensed = true;
      } catch (e) {
        if (!(e instanceof MockdevError && e.code === 'LICENSE_REQUIRED')) throw e;
        if (starting || check.current !== undefined)
          logger.warn?.(`project.json turns live contract checking on, but it is not done: ${e.describe()}`);
        await check.use(undefined);
        label = undefined;
        return;
      }
    }
    const loaded = wanted && project.project.contract ? await loadContract(ctx, project) : undefined;
    if (wanted && !loaded && starting && option === true) throw noContract(project);
    const next = loaded?.contract;
    if (next === check.current) return;
    await check.use(next);
    const before = label;
    label = loaded?.label;
    if (!starting && label !== before)
      logger.info?.(
        label ? `Checking requests against ${label}` : 'Stopped checking requests against a contract',
      );
  };
  await apply(stored, true);
  /** project.json's `contract` as last applied: a change elsewhere in the project loads nothing. */
  let applied = JSON.stringify(stored.project.contract ?? null);

  // Followed as the project changes (an import, `contract live on|off`, a hand edit).
  let timer: NodeJS.Timeout | undefined;
  let reloading = Promise.resolve();
  const reload = () => {
    timer = undefined;
    reloading = reloading.then(async () => {
      let project: StoredProject;
      try {
        project = await ctx.projects.read(stored.key);
      } catch {
        return; // a deleted or broken project is the endpoints' reload's to report
      }
      const ref = JSON.stringify(project.project.contract ?? null);
      if (ref === applied) return; // an endpoint change: the contract is as it was
      applied = ref;
      try {
        await apply(project, false);
      } catch (e) {
        // A broken document keeps the last good contract.
        logger.warn?.(
          `Could not load the contract again: ${e instanceof MockdevError ? e.describe() : String(e)}; still checking against ${label ?? 'nothing'}`,
        );
      }
    });
  };
  const subscription: Subscription = ctx.projects.watch(
    () => {
      if (timer) return;
      timer = setTimeout(reload, RELOAD_SETTLE_MS);
      timer.unref();
    },
    { key: stored.key },
  );
  live.stop = async () => {
    subscription.close();
    if (timer) clearTimeout(timer);
    await reloading;
    await check.stop();
  };
  return live;
}
