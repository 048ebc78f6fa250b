#!/usr/bin/env node
/**
 * The license service (`npm run license-service`, dist/license-service/main.js): a deployable
 * component of its own, configured by environment variables (config.ts; docs/license.md,
 * "Deploying the license service").
 *
 *   license-service                        serve (the default)
 *   license-service grant <EMAIL> [--until YYYY-MM-DD]
 *   license-service revoke <EMAIL>
 *   license-service public-key             the PEM for MOCKDEV_LICENSE_PUBLIC_KEY
 *
 * Errors are one line on stderr with the catalogue's exit code (2: a variable or argument is
 * wrong). Everything it creates (the database) is readable by its user only.
 */
import type { AddressInfo } from 'node:net';
import { MockdevError } from '../core/errors.js';
import { parseEmailAddress } from '../core/license.js';
import {
  databasePath,
  describeSmtpUrl,
  loadSigningKey,
  publicKeyPem,
  readConfig,
  type Env,
} from './config.js';
import { LicenseDatabase } from './database.js';
import { LicenseDesk } from './desk.js';
import { licenseServer } from './http.js';
import { MailError, smtpMailer } from './mail.js';

const USAGE = `Usage: license-service [serve | grant <EMAIL> [--until YYYY-MM-DD] | revoke <EMAIL> | public-key]
Configured by PORT, HOST, LICENSE_DB, LICENSE_SIGNING_KEY_FILE (or LICENSE_SIGNING_KEY), SMTP_URL,
SMTP_FROM and, optional, LICENSE_PUBLIC_URL and LICENSE_MAIL_INTERVAL_SECONDS: see docs/license.md.`;

const out = (line: string): void => void process.stdout.write(`${line}\n`);
const err = (line: string): void => void process.stderr.write(`${line}\n`);

const usage = (message: string) =>
  new MockdevError('INVALID_ARGUMENT', message, { hint: 'Run "license-service help" for the commands' });

function emailArgument(args: string[]): string {
  const email = args[0] === undefined ? undefined : parseEmailAddress(args[0], true);
  if (!email)
    throw usage(args[0] === undefined ? 'Give the e-mail address' : `"${args[0]}" is not an e-mail address`);
  return email;
}

/** `--until YYYY-MM-DD`: the end of that day (UTC), unix seconds; null without it. */
function untilArgument(args: string[]): number | null {
  if (args.length === 0) return null;
  const [flag, date, ...rest] = args;
  const at = date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? Date.parse(`${date}T23:59:59Z`) : NaN;
  if (flag !== '--until' || Number.isNaN(at) || rest.length > 0)
    throw usage('grant takes an e-mail address, then optionally --until YYYY-MM-DD');
  return Math.floor(at / 1000);
}

async function serve(env: Env): Promise<void> {
  const config = readConfig(env, err);
  const db = new LicenseDatabase(config.dbPath);
  const mailer = smtpMailer(config.smtpUrl, config.smtpFrom);
  let publicUrl = config.publicUrl ?? '';
  const desk = new LicenseDesk({
    db,
    mailer,
    signingKey: config.signingKey,
    publicUrl: () => publicUrl,
    mailIntervalSeconds: config.mailIntervalSeconds,
  });
  const server = licenseServer({ desk, publicKeyPem: publicKeyPem(config.signingKey), log: out });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        e.code === 'EADDRINUSE'
          ? new MockdevError('PORT_IN_USE', `Port ${config.port} on ${config.host} is in use`, {
              hint: 'Set PORT to a free port',
            })
          : new MockdevError(
              'IO_ERROR',
              `The service cannot listen on ${config.host}:${config.port} (${e.code ?? e.message})`,
              {
                hint: 'Check HOST and PORT',
              },
            ),
      ),
    );
    server.listen(config.port, config.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const wildcard = config.host === '0.0.0.0' || config.host === '::';
  const shownHost = wildcard ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  if (!config.publicUrl) {
    publicUrl = `http://${shownHost}:${port}`;
    if (wildcard)
      err(
        'warning: LICENSE_PUBLIC_URL is not set: links in e-mails point at localhost; set it to the address people open',
      );
  }
  out(`License service listening on http://${shownHost}:${port}`);
  out(
    `Links point at ${publicUrl}; e-mail goes through ${describeSmtpUrl(config.smtpUrl)} from ${config.smtpFrom}`,
  );
  mailer
    .verify()
    .catch((e: MailError) =>
      err(
        `warning: the SMTP server at ${describeSmtpUrl(config.smtpUrl)} did not take the connection (${e.reason}): e-mails will fail`,
      ),
    );

  const stop = () => {
    server.close(() => {
      mailer.close();
      db.close();
      process.exit(0);
    });
    server.closeAllConnections();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function main(argv: string[], env: Env): Promise<void> {
  const [command = 'serve', ...args] = argv;
  switch (command) {
    case 'serve':
      if (args.length > 0) throw usage(`serve takes no arguments`);
      return serve(env);
    case 'grant': {
      const email = emailArgument(args);
      const until = untilArgument(args.slice(1));
      const db = new LicenseDatabase(databasePath(env));
      db.grant(email, until, Math.floor(Date.now() / 1000));
      db.close();
      return out(
        `Granted Pro to ${email}, ${until === null ? 'without an end date' : `until ${new Date(until * 1000).toISOString()}`}.`,
      );
    }
    case 'revoke': {
      const email = emailArgument(args);
      if (args.length > 1) throw usage('revoke takes one e-mail address');
      const db = new LicenseDatabase(databasePath(env));
      const removed = db.revoke(email);
      db.close();
      if (!removed)
        throw new MockdevError('NOT_FOUND', `No license belongs to ${email}`, { hint: 'Check the address' });
      return out(`Revoked the license of ${email}: keys already given stay valid until they expire.`);
    }
    case 'public-key':
      return void process.stdout.write(publicKeyPem(loadSigningKey(env, err)));
    case 'help':
    case '--help':
    case '-h':
      return out(USAGE);
    default:
      throw usage(`Unknown command "${command}"`);
  }
}

process.umask(0o077);
main(process.argv.slice(2), process.env).catch((e: unknown) => {
  if (e instanceof MockdevError) {
    err(`license-service: ${e.describe()}`);
    process.exitCode = e.exitCode;
  } else {
    err(`license-service: internal error: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  }
});
