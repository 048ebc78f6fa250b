/**
 * The license service's e-mail: what each message says, and sending through SMTP with
 * nodemailer (SMTP_URL, SMTP_FROM). A failure is reported by its code only: a message of the
 * transport is never passed on (nothing of SMTP_URL, its password included, reaches a log).
 */
import { createTransport } from 'nodemailer';
import { TRIAL_DAYS } from '../core/license-defaults.js';

export interface Message {
  to: string;
  subject: string;
  text: string;
}

/** Sends one message; rejects with a MailError when it could not. */
export interface Mailer {
  send(message: Message): Promise<void>;
  /** Whether the SMTP server answers and takes the login (a warning at start when not). */
  verify(): Promise<void>;
  close(): void;
}

/** An e-mail that could not be sent, by its code only (ECONNECTION, EAUTH, an SMTP status). */
export class MailError extends Error {
  constructor(readonly reason: string) {
    super(`the e-mail could not be sent (${reason})`);
    this.name = 'MailError';
  }
}

/** The code of a transport's failure, never its text. */
function reasonOf(e: unknown): string {
  const err = e as { code?: unknown; responseCode?: unknown };
  const code = typeof err.code === 'string' && /^[A-Z_]+$/.test(err.code) ? err.code : 'ERROR';
  return typeof err.responseCode === 'number' ? `${code}, SMTP ${err.responseCode}` : code;
}

const SMTP_TIMEOUT_MS = 15_000;

export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = createTransport({
    url: smtpUrl,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
    // Nothing of the session (its login included) to a logger.
    logger: false,
    debug: false,
  });
  return {
    async send(message) {
      try {
        await transport.sendMail({ from, ...message });
      } catch (e) {
        throw new MailError(reasonOf(e));
      }
    },
    async verify() {
      try {
        await transport.verify();
      } catch (e) {
        throw new MailError(reasonOf(e));
      }
    },
    close: () => transport.close(),
  };
}

const IGNORE = 'If you did not ask for this, ignore this e-mail: nothing happens without the link.';

/** A link's e-mail: what opening it does, the link, what to run next, how long it lasts. */
const linkMessage = (to: string, subject: string, does: string, link: string, validity: string): Message => ({
  to,
  subject,
  text: [
    `Open this link to ${does} for ${to}:`,
    '',
    link,
    '',
    `Then run: mockdev license check ${to}`,
    `(or press Check on the License screen of the mockdev UI).`,
    '',
    `${validity} ${IGNORE}`,
    '',
  ].join('\n'),
});

/** The link that confirms an activation of a license. */
export const licenseLinkMessage = (to: string, link: string, validHours: number): Message =>
  linkMessage(
    to,
    'Confirm your mockdev Pro activation',
    'activate mockdev Pro',
    link,
    `The link is valid for ${validHours} hours.`,
  );

/** The link that starts a trial. */
export const trialLinkMessage = (to: string, link: string, validHours: number): Message =>
  linkMessage(
    to,
    `Start your ${TRIAL_DAYS}-day mockdev Pro trial`,
    `start a ${TRIAL_DAYS}-day trial of mockdev Pro`,
    link,
    `The link is valid for ${validHours} hours. There is one trial per e-mail address.`,
  );

/** The answer to an activation asked for an address that has no license (or one that expired). */
export const noLicenseMessage = (to: string, expiredOn: string | undefined): Message => ({
  to,
  subject: 'No mockdev Pro license for this address',
  text: [
    `An activation of mockdev Pro was asked for ${to}, but ${
      expiredOn ? `the license of this address expired on ${expiredOn}` : 'no license belongs to this address'
    }.`,
    '',
    `To try Pro for ${TRIAL_DAYS} days: mockdev license trial ${to}`,
    '',
    IGNORE,
    '',
  ].join('\n'),
});
