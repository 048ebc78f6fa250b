import type { Command } from 'commander';
import { collect } from '../args.js';
import { TRUST_TARGETS } from '../../core/model/tls.js';
import { examples } from '../help.js';

export interface TlsOptions {
  json?: boolean;
  host?: string[];
  newCa?: boolean;
  os?: string;
}

const handlers = () => import('../handlers/tls.js');

export function registerTls(program: Command): void {
  const tls = program
    .command('tls')
    .description('a local certificate authority and a certificate for HTTPS on this machine')
    .addHelpText(
      'after',
      `
The files live in <data dir>/tls/ (ca.pem, ca-key.pem, cert.pem, key.pem; keys readable by you
only). "generate" needs Pro; "serve --cert F --key F" with your own files does not. See docs/tls.md.`,
    );

  tls
    .command('status')
    .description('show the CA and the certificate (names, validity, fingerprint) and where the CA is trusted')
    .option('--json', 'print the status as JSON')
    .addHelpText('after', examples('mockdev tls status', 'mockdev tls status --json'))
    .action(async (opts: TlsOptions) => (await handlers()).status(opts));

  tls
    .command('generate')
    .description(
      '(Pro) make the local CA once, then a new certificate for localhost, 127.0.0.1, ::1 and each --host',
    )
    .option('--host <NAME>', 'another host name or IP address the certificate is for (repeatable)', collect)
    .option('--new-ca', 'make a new CA too (the old one is no longer trusted: trust the new one again)')
    .addHelpText(
      'after',
      examples(
        'mockdev tls generate',
        'mockdev tls generate --host api.local --host 192.168.1.20',
        'mockdev tls generate --new-ca',
      ),
    )
    .action(async (opts: TlsOptions) => (await handlers()).generate(opts));

  tls
    .command('trust')
    .description('print the commands that make a system trust the CA (mockdev never runs them)')
    .option('--os <OS>', `the system: ${TRUST_TARGETS.join(' | ')} (default: this one)`)
    .addHelpText('after', examples('mockdev tls trust', 'mockdev tls trust --os firefox'))
    .action(async (opts: TlsOptions) => (await handlers()).trust(opts));
}
