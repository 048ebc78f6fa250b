import { createInterface } from 'node:readline/promises';
import { MockdevError } from '../core/errors.js';
import { cliContext } from './handlers/context.js';
import { currentIo } from './io.js';

/**
 * Destructive commands ask on a TTY; `--force` skips the question; without a TTY and without
 * `--force` they refuse (DECISIONS "CLI behaviour"). Returns false when the user says no.
 * With the setting `confirmBeforeDelete` false they never ask and need no `--force`.
 */
export async function confirmDestructive(
  question: string,
  force: boolean | undefined,
  flagHint = '--force',
): Promise<boolean> {
  if (force) return true;
  if (!(await cliContext().settings.read()).confirmBeforeDelete) return true;
  const { stdin, stderr } = currentIo();
  if (!stdin.isTTY || !stderr.isTTY) {
    throw new MockdevError(
      'CONFIRMATION_REQUIRED',
      `${question.replace(/\?$/, '')}: refusing without confirmation`,
      {
        hint: `Pass ${flagHint} to confirm when not running in a terminal`,
      },
    );
  }
  const rl = createInterface({ input: stdin, output: stderr });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
