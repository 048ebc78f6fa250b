/**
 * The license service end to end: an SMTP sink (the smtp-server package) that keeps what it
 * receives, and the built service (dist/license-service/main.js) spawned on a free port with a
 * signing key the test makes, its database in a temp folder.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { ROOT } from './cli.js';
import { waitUntil } from './wait.js';

export const SERVICE_MAIN = join(ROOT, 'dist', 'license-service', 'main.js');

export interface Mail {
  to: string[];
  subject: string;
  text: string;
}

export interface MailSink {
  /** smtp://user:password@127.0.0.1:<port> */
  url: string;
  password: string;
  mails: Mail[];
  /** The next mail to `to` not yet taken, waiting for it (bounded). */
  next(to: string): Promise<Mail>;
  close(): Promise<void>;
}

/** Quoted-printable to text (soft line breaks joined). */
const fromQuotedPrintable = (body: string) =>
  Buffer.from(
    body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  ).toString('utf8');

/** A single-part message: its headers, its body decoded. */
export function parseMail(raw: string, to: string[]): Mail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? fromQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : body;
  return { to, subject: header('Subject'), text: text.replace(/\r\n/g, '\n') };
}

/** An SMTP server on 127.0.0.1 that takes one login and keeps every mail. */
export async function startMailSink(): Promise<MailSink> {
  const password = `smtp-secret-${Math.random().toString(36).slice(2)}`;
  const mails: Mail[] = [];
  const taken = new Set<Mail>();
  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, done) {
      if (auth.username === 'mailer' && auth.password === password) done(null, { user: 'mailer' });
      else done(new Error('Invalid login'));
    },
    onData(stream, session, done) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (d: string) => (raw += d));
      stream.on('end', () => {
        mails.push(
          parseMail(
            raw,
            session.envelope.rcptTo.map((r) => r.address),
          ),
        );
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://mailer:${password}@127.0.0.1:${port}`,
    password,
    mails,
    async next(to) {
      let found: Mail | undefined;
      await waitUntil(() => {
        found = mails.find((m) => !taken.has(m) && m.to.includes(to));
        return found !== undefined;
      }, `a mail to ${to}`);
      taken.add(found!);
      return found!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The link of a mail from the service. */
export function linkIn(mail: Mail): string {
  const link = /^(https?:\/\/\S+\/v1\/confirm\?token=\S+)$/m.exec(mail.text)?.[1];
  if (!link) throw new Error(`no confirmation link in:\n${mail.text}`);
  return link;
}

export interface RunningService {
  url: string;
  /** What MOCKDEV_LICENSE_PUBLIC_KEY takes to verify its keys. */
  publicKeyPem: string;
  /** The environment it runs with (without PORT): for its other commands. */
  env: Record<string, string>;
  output(): string;
  /** Runs `license-service <args>` with the same environment. */
  command(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }>;
  stop(): Promise<void>;
}

/** A signing key pair: the private key's PEM (PKCS#8) written 0600 into `dir`. */
export function signingKeyFile(dir: string): { file: string; pem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const file = join(dir, 'signing-key.pem');
  writeFileSync(file, pem, { mode: 0o600 });
  return { file, pem, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

export function runServiceCommand(
  args: string[],
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [SERVICE_MAIN, ...args],
      { env: { PATH: process.env.PATH, ...env }, timeout: 20_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Spawns the built service on a free port; resolves once it says where it listens. */
export async function startLicenseService(
  dir: string,
  smtpUrl: string,
  extra: Record<string, string> = {},
): Promise<RunningService> {
  const key = signingKeyFile(dir);
  const env: Record<string, string> = {
    HOST: '127.0.0.1',
    LICENSE_DB: join(dir, 'licenses.db'),
    LICENSE_SIGNING_KEY_FILE: key.file,
    SMTP_URL: smtpUrl,
    SMTP_FROM: 'mockdev licenses <licenses@example.com>',
    ...extra,
  };
  const child: ChildProcess = spawn(process.execPath, [SERVICE_MAIN], {
    env: { PATH: process.env.PATH, ...env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (output += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (output += d));
  let exited = false;
  child.on('exit', () => (exited = true));
  const stop = async () => {
    if (exited) return;
    child.kill('SIGTERM');
    await waitUntil(() => exited, 'the license service to stop').catch(() => child.kill('SIGKILL'));
  };
  try {
    await waitUntil(
      () => exited || /listening on http:\/\/[^:]+:\d+/.test(output),
      'the license service to listen',
    );
  } catch (e) {
    await stop();
    throw e;
  }
  const port = /listening on http:\/\/[^:]+:(\d+)/.exec(output)?.[1];
  if (!port) throw new Error(`the license service did not start:\n${output}`);
  return {
    url: `http://127.0.0.1:${port}`,
    publicKeyPem: key.publicKeyPem,
    env,
    output: () => output,
    command: (args) => runServiceCommand(args, env),
    stop,
  };
}
