import type { Command } from 'commander';
import { DEFAULT_LICENSE_URL, TRIAL_DAYS } from '../../core/license-defaults.js';
import { examples } from '../help.js';

const handlers = () => import('../handlers/license.js');

export function registerLicense(program: Command): void {
  const license = program
    .command('license')
    .description('show and activate the Pro license')
    .addHelpText(
      'after',
      `
Keys are checked offline. E-mail activation and trials talk to the license service at
MOCKDEV_LICENSE_URL (default: ${DEFAULT_LICENSE_URL}). See docs/license.md.`,
    );

  license
    .command('status')
    .description('show the plan, licensee, expiry and how the license was activated')
    .option('--json', 'print the status as JSON')
    .addHelpText('after', examples('mockdev license status', 'mockdev license status --json'))
    .action(async (opts: { json?: boolean }) => (await handlers()).status(opts));

  license
    .command('activate')
    .description('activate a license key (checked offline, stored in the data directory)')
    .argument('<KEY>', 'the license key: two base64url parts joined by a dot; - reads it from stdin')
    .addHelpText(
      'after',
      `${examples('mockdev license activate - < license.key', 'mockdev license activate eyJzdWIiOi….Qm9n…')}

"-" reads the key from stdin, so it stays out of the process list and the shell history.`,
    )
    .action(async (key: string) => (await handlers()).activate(key));

  license
    .command('activate-email')
    .description('ask the license service to e-mail you an activation link')
    .argument('<EMAIL>', 'the e-mail address the license belongs to')
    .addHelpText(
      'after',
      `${examples('mockdev license activate-email you@example.com')}

Then open the link in the e-mail and run "mockdev license check <EMAIL>".`,
    )
    .action(async (email: string) => (await handlers()).activateEmail(email));

  license
    .command('trial')
    .description(`ask the license service for a ${TRIAL_DAYS}-day trial of Pro (one per e-mail address)`)
    .argument('<EMAIL>', 'your e-mail address: the service e-mails a link to it')
    .addHelpText(
      'after',
      `${examples('mockdev license trial you@example.com')}

Then open the link in the e-mail and run "mockdev license check <EMAIL>".`,
    )
    .action(async (email: string) => (await handlers()).trial(email));

  license
    .command('check')
    .description('complete an e-mail activation or a trial: stores the license once the link was opened')
    .argument('<EMAIL>', 'the e-mail address given to activate-email or trial')
    .addHelpText('after', examples('mockdev license check you@example.com'))
    .action(async (email: string) => (await handlers()).check(email));
}
