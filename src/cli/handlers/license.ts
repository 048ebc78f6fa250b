import {
  activateLicenseKey,
  checkEmailActivation,
  licenseStatus,
  requestEmailActivation,
  requestTrial,
  type LicenseStatus,
} from '../../app/license.js';
import { TRIAL_DAYS } from '../../core/license-defaults.js';
import { printFields, printJson, printLine } from '../output.js';
import { readStdin } from '../stdin.js';
import { cliContext } from './context.js';

const STATE_TEXT: Record<LicenseStatus['state'], string> = {
  none: 'no license activated',
  active: 'active',
  expired: 'expired',
  invalid: 'not valid',
};

/** The state, and who signed it when that is not mockdev's built-in key (the override is never silent). */
function licenseText(s: LicenseStatus): string {
  const state =
    s.signedBy === 'MOCKDEV_LICENSE_PUBLIC_KEY'
      ? `${STATE_TEXT[s.state]}, signed by the key in MOCKDEV_LICENSE_PUBLIC_KEY`
      : STATE_TEXT[s.state];
  return s.problem ? `${state}: ${s.problem}` : state;
}

function printStatus(s: LicenseStatus): void {
  printFields([
    ['Plan', s.plan === 'pro' ? 'Pro' : 'Free'],
    ['License', licenseText(s)],
    ['Licensee', s.licensee],
    ['Expires', s.state === 'none' ? null : (s.expiresAt ?? 'never')],
    [
      'Activated',
      s.activation ? `${s.activation === 'email' ? 'by e-mail' : 'with a key'}, ${s.activatedAt}` : null,
    ],
    ['Key', s.key],
  ]);
}

export async function status(opts: { json?: boolean }): Promise<void> {
  const s = await licenseStatus(cliContext());
  if (opts.json) printJson(s);
  else {
    printStatus(s);
    if (s.state === 'none') {
      printLine();
      printLine(
        'Activate Pro with "mockdev license activate <KEY>" or "mockdev license activate-email <EMAIL>",',
      );
      printLine(`or try it for ${TRIAL_DAYS} days with "mockdev license trial <EMAIL>".`);
    }
  }
}

export async function activate(key: string): Promise<void> {
  // "-": the key from stdin (out of the process list and the shell history).
  const given =
    key === '-' ? (await readStdin('KEY', 'mockdev license activate - < license.key')).trim() : key;
  const s = await activateLicenseKey(cliContext(), given);
  printLine(
    `License activated: Pro for ${s.licensee}, ${s.expiresAt ? `until ${s.expiresAt}` : 'never expires'}.`,
  );
}

export async function activateEmail(email: string): Promise<void> {
  const sent = await requestEmailActivation(cliContext(), email);
  printLine(`The license service (${sent.service}) is sending an activation e-mail to ${sent.email}.`);
  printLine(`Open the link in it, then run: mockdev license check ${sent.email}`);
}

export async function trial(email: string): Promise<void> {
  const sent = await requestTrial(cliContext(), email);
  printLine(
    `The license service (${sent.service}) is sending ${sent.email} a link that starts a ${sent.days}-day trial.`,
  );
  printLine(`Open the link in it, then run: mockdev license check ${sent.email}`);
}

export async function check(email: string): Promise<void> {
  const result = await checkEmailActivation(cliContext(), email);
  if (result.status === 'pending') {
    printLine(`The activation for ${result.email} is not confirmed yet.`);
    printLine(`Open the link in the e-mail sent to ${result.email}, then run this command again.`);
    return;
  }
  const s = result.license;
  printLine(
    `License activated: Pro for ${s.licensee}, ${s.expiresAt ? `until ${s.expiresAt}` : 'never expires'}.`,
  );
}
