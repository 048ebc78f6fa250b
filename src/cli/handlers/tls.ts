import { generateTls, tlsStatus, tlsTrustInstructions } from '../../app/tls.js';
import type { CertificateInfo, TlsStatus, TrustCheck } from '../../core/model/tls.js';
import { LEAF_RENEW_DAYS } from '../../core/model/tls.js';
import { toTrustTarget } from '../../core/tls-trust.js';
import type { TlsOptions } from '../commands/tls.js';
import { note, printFields, printJson, printLine } from '../output.js';
import { cliContext } from './context.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
/** Days left, or how long ago it ended (daysLeft is floored: -1 is less than a day ago). */
const days = (n: number) =>
  n >= 0 ? `${plural(n, 'day')} left` : n === -1 ? 'expired today' : `expired ${plural(-n - 1, 'day')} ago`;

function printCertificate(title: string, c: CertificateInfo): void {
  printLine(`${title}: ${c.path}`);
  printFields([
    ['  Subject', c.subject],
    ['  Issuer', c.issuer],
    ['  Names', c.sans.join(', ')],
    ['  Valid', `${c.notBefore} to ${c.notAfter} (${days(c.daysLeft)})`],
    ['  SHA-256', c.fingerprint256],
  ]);
}

const TRUST_TEXT: Record<TrustCheck['status'], string> = {
  trusted: 'trusted',
  'not-trusted': 'not trusted',
  unknown: 'unknown',
};

function printStatus(s: TlsStatus): void {
  if (!s.ca && !s.leaf) {
    printLine(`Nothing generated yet — run mockdev tls generate (files go to ${s.dir}).`);
    return;
  }
  if (s.ca) printCertificate('CA', s.ca);
  else printLine('CA: none — run mockdev tls generate');
  if (s.leaf) printCertificate('Certificate', s.leaf);
  else printLine('Certificate: none — run mockdev tls generate');
  if (s.renew)
    printLine(
      `The certificate ${s.leaf && s.leaf.daysLeft < 0 ? 'has expired' : `ends within ${LEAF_RENEW_DAYS} days`}: renew it with mockdev tls generate.`,
    );
  if (s.trust.length > 0) {
    printLine();
    printLine('Trust:');
    for (const t of s.trust)
      printLine(
        `  ${t.store.padEnd(6)} ${TRUST_TEXT[t.status].padEnd(11)} ${t.location}${t.detail ? ` (${t.detail})` : ''}`,
      );
    if (s.trust.some((t) => t.status !== 'trusted'))
      printLine('Run "mockdev tls trust" for the commands that trust the CA.');
  }
}

export async function status(opts: TlsOptions): Promise<void> {
  const s = await tlsStatus(cliContext());
  if (opts.json) printJson(s);
  else printStatus(s);
}

export async function generate(opts: TlsOptions): Promise<void> {
  const ctx = cliContext();
  const { status: s, caCreated } = await generateTls(ctx, { hosts: opts.host, newCa: opts.newCa });
  const ca = s.ca!;
  const leaf = s.leaf!;
  printLine(caCreated ? `Made a new CA: ${ca.path}` : `Kept the CA: ${ca.path}`);
  printLine(`Made a certificate for ${leaf.sans.join(', ')}: ${leaf.path} (${days(leaf.daysLeft)})`);
  printLine(`Its key: ${ctx.tls.paths.key}`);
  printLine();
  printLine(
    caCreated
      ? 'Next: trust the CA on this machine — mockdev tls trust prints the commands.'
      : 'Next: restart servers running with --tls; the CA is unchanged (mockdev tls trust if not trusted yet).',
  );
}

export async function trust(opts: TlsOptions): Promise<void> {
  const ctx = cliContext();
  const t = await tlsTrustInstructions(ctx, opts.os === undefined ? {} : { target: toTrustTarget(opts.os) });
  if (!(await ctx.tls.readCa())) note('No CA yet: run mockdev tls generate first, then these commands.');
  printLine(`Trust the mockdev CA (${t.caFile}) on ${t.target}. Run these yourself; mockdev never does:`);
  for (const step of t.steps) {
    printLine();
    printLine(`# ${step.title}`);
    for (const command of step.commands) printLine(command);
  }
}
