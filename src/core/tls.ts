/**
 * The local CA's and the leaf's rules (docs/tls.md), pure: which names a leaf carries and how
 * each goes into the certificate, what `tls status` says of a certificate, when a leaf is due
 * for renewal, and whether a private key belongs to a certificate. No file or network I/O.
 */
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { MockdevError } from './errors.js';
import { LEAF_DEFAULT_HOSTS, LEAF_RENEW_DAYS, type CertificateInfo } from './model/tls.js';

/** One subject alternative name: a DNS name or an IP address. */
export type SanEntry = { type: 'dns'; value: string } | { type: 'ip'; value: string };

const DAY_MS = 86_400_000;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** An IPv6 address in its short form (`0:0:0:0:0:0:0:1` -> `::1`), as URLs write it. */
const shortIpv6 = (address: string): string => new URL(`http://[${address}]/`).hostname.slice(1, -1);

const isIpv4 = (text: string): boolean => {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255);
};

/** 4, 6, or 0 when `text` is not an IP address (the URL parser checks an IPv6 address's syntax). */
function ipVersion(text: string): 4 | 6 | 0 {
  if (isIpv4(text)) return 4;
  if (!text.includes(':') || !/^[0-9a-fA-F:.]+$/.test(text)) return 0;
  try {
    shortIpv6(text);
    return 6;
  } catch {
    return 0;
  }
}

/**
 * A `--host` value as a SAN: an IPv4 or IPv6 address (brackets allowed) as an IP entry, a host
 * name (lower-cased; `*.` allowed first) as a DNS entry; anything else is INVALID_ARGUMENT.
 */
export function sanOf(host: string): SanEntry {
  const given = host.trim();
  const bare = given.startsWith('[') && given.endsWith(']') ? given.slice(1, -1) : given;
  const ip = ipVersion(bare);
  if (ip === 4) return { type: 'ip', value: bare };
  if (ip === 6) return { type: 'ip', value: shortIpv6(bare) };
  const name = given.toLowerCase().replace(/\.$/, '');
  const labels = (name.startsWith('*.') ? name.slice(2) : name).split('.');
  // A last label of digits only is no name (RFC 1123): an address written wrong (10.0.0.256).
  const ok = name.length <= 253 && labels.every((l) => LABEL.test(l)) && !/^\d+$/.test(labels.at(-1)!);
  if (ok) return { type: 'dns', value: name };
  throw new MockdevError('INVALID_ARGUMENT', `Invalid --host "${host}": not a host name or an IP address`, {
    hint: 'Give a name such as api.local or *.dev.test, or an address such as 192.168.1.20 or ::1',
    details: { host },
  });
}

/** Every SAN of a leaf: localhost, 127.0.0.1 and ::1, then each host given, each once. */
export function leafSans(hosts: readonly string[] = []): SanEntry[] {
  const seen = new Set<string>();
  const sans: SanEntry[] = [];
  for (const host of [...LEAF_DEFAULT_HOSTS, ...hosts]) {
    const san = sanOf(host);
    const key = `${san.type}:${san.value}`;
    if (seen.has(key)) continue;
    seen.add(key);
    sans.push(san);
  }
  return sans;
}

/** Whole days from `now` until `notAfter` (negative once past). */
export const daysLeft = (notAfter: Date, now: number): number =>
  Math.floor((notAfter.getTime() - now) / DAY_MS);

/** A leaf within LEAF_RENEW_DAYS of its end, or past it, is renewed by `tls generate`. */
export const needsRenewal = (leaf: Pick<CertificateInfo, 'daysLeft'>): boolean =>
  leaf.daysLeft <= LEAF_RENEW_DAYS;

/** The SANs node:crypto prints (`DNS:a, IP Address:0:0:0:0:0:0:0:1`) as `tls status` shows them. */
export function parseSans(text: string | undefined): string[] {
  if (!text) return [];
  return text.split(/,\s*/).flatMap((entry) => {
    const m = /^(DNS|IP Address):"?(.*?)"?$/.exec(entry.trim());
    if (!m) return [];
    return [m[1] === 'IP Address' && m[2]!.includes(':') ? shortIpv6(m[2]!) : m[2]!];
  });
}

/** A certificate's PEM parsed; a PEM that is not one is CORRUPT_FILE naming the file. */
export function parseCertificate(pem: string, file: string): X509Certificate {
  try {
    return new X509Certificate(pem);
  } catch (e) {
    throw new MockdevError('CORRUPT_FILE', `${file} holds no readable certificate: ${(e as Error).message}`, {
      hint: 'Run "mockdev tls generate" to make it again',
      details: { file },
    });
  }
}

/** What `tls status` says of one certificate. */
export function certificateInfo(pem: string, file: string, now: number): CertificateInfo {
  const x = parseCertificate(pem, file);
  const notAfter = new Date(x.validTo);
  return {
    path: file,
    subject: x.subject.split('\n').join(', '),
    issuer: x.issuer.split('\n').join(', '),
    sans: parseSans(x.subjectAltName),
    notBefore: new Date(x.validFrom).toISOString(),
    notAfter: notAfter.toISOString(),
    daysLeft: daysLeft(notAfter, now),
    fingerprint256: x.fingerprint256,
  };
}

/** A private key's PEM as a key object; undefined when it is not one (or needs a passphrase). */
export function privateKeyOf(pem: string): KeyObject | undefined {
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem)) return undefined;
  try {
    return createPrivateKey(pem);
  } catch {
    return undefined;
  }
}

/** Whether `key` is the private key of `cert`'s public key. */
export const keyMatches = (cert: X509Certificate, key: KeyObject): boolean => cert.checkPrivateKey(key);

/** The base64 body of each PEM certificate in a text (a CA bundle), whitespace removed. */
export function pemBodies(text: string): string[] {
  const bodies: string[] = [];
  const block = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;
  for (let m = block.exec(text); m; m = block.exec(text)) bodies.push(m[1]!.replace(/\s+/g, ''));
  return bodies;
}

/** Whether a text of PEM certificates holds `pem`'s certificate (compared by its bytes). */
export function holdsCertificate(text: string, pem: string): boolean {
  const wanted = pemBodies(pem)[0];
  return wanted !== undefined && pemBodies(text).includes(wanted);
}
