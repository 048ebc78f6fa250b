/**
 * Whether this system's trust stores hold the local CA (docs/tls.md "Trust checks"): the Linux
 * CA bundles, the NSS databases of Chromium and Firefox (through `certutil`), Node's
 * NODE_EXTRA_CA_CERTS and Java's cacerts (through `keytool`). Each store is compared by the
 * certificate itself (its bytes, or its SHA-256 fingerprint), never by a name alone. A store
 * that cannot be read is `unknown` with the reason; no check waits longer than `timeoutMs`.
 */
import { promises as fs } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { holdsCertificate } from '../../core/tls.js';
import { CA_COMMON_NAME, type TrustCheck } from '../../core/model/tls.js';
import { findProgram, runProgram, type ProgramResult } from './programs.js';

export interface TrustCheckOptions {
  /** HOME, PATH, NODE_EXTRA_CA_CERTS, SSL_CERT_FILE, JAVA_HOME are read from here. */
  env: NodeJS.ProcessEnv;
  /** How long one program may take (default 5 s). */
  timeoutMs?: number;
  platform?: NodeJS.Platform;
  /** The Linux CA bundles looked for (default: Debian/Ubuntu/Arch, Fedora/RHEL, openSUSE). */
  bundles?: readonly string[];
}

export const SYSTEM_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/ssl/ca-bundle.pem',
] as const;

const DEFAULT_TIMEOUT_MS = 5_000;

const reason = (e: unknown): string => {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a folder';
  return (e as Error).message;
};

const exists = (path: string) =>
  fs.stat(path).then(
    () => true,
    () => false,
  );

/** A file's text, or the reason it cannot be read. */
const readText = (file: string): Promise<{ text: string } | { error: string }> =>
  fs.readFile(file, 'utf8').then(
    (text) => ({ text }),
    (e: unknown) => ({ error: reason(e) }),
  );

/** Why a program gave no answer, in one line. */
function programFailure(name: string, r: ProgramResult, timeoutMs: number): string {
  if (r.timedOut) return `${name} did not answer within ${Math.round(timeoutMs / 100) / 10} s`;
  if (r.error) return `${name} could not start: ${r.error}`;
  const said = (r.stderr.trim() || r.stdout.trim()).split('\n')[0]?.trim();
  return `${name} failed (exit ${r.code})${said ? `: ${said.slice(0, 200)}` : ''}`;
}

/** A check's result for one store and location. */
const verdict =
  (store: TrustCheck['store'], location: string) =>
  (status: TrustCheck['status'], detail: string): TrustCheck => ({ store, location, status, detail });

/** The system store: each Linux CA bundle present, and SSL_CERT_FILE when set. */
async function systemChecks(caPem: string, o: Required<TrustCheckOptions>): Promise<TrustCheck[]> {
  if (o.platform !== 'linux') {
    const where = o.platform === 'darwin' ? 'the macOS keychains' : 'the Windows certificate store';
    return [
      verdict('system', where)(
        'unknown',
        'not read by mockdev on this system; "mockdev tls trust" prints how to add the CA',
      ),
    ];
  }
  const files = [...(o.env.SSL_CERT_FILE ? [o.env.SSL_CERT_FILE] : [])];
  for (const bundle of o.bundles) if (!files.includes(bundle) && (await exists(bundle))) files.push(bundle);
  if (files.length === 0) return [verdict('system', o.bundles.join(', '))('unknown', 'no CA bundle found')];
  return Promise.all(files.map((file) => fileCheck(verdict('system', file), file, caPem, 'the bundle')));
}

/** Whether a file of PEM certificates holds the CA; unknown when it cannot be read. */
async function fileCheck(
  says: ReturnType<typeof verdict>,
  file: string,
  caPem: string,
  what: string,
): Promise<TrustCheck> {
  const read = await readText(file);
  if ('error' in read) return says('unknown', `cannot read it: ${read.error}`);
  return holdsCertificate(read.text, caPem)
    ? says('trusted', `${what} holds the CA`)
    : says('not-trusted', `${what} does not hold the CA`);
}

/** The NSS databases: ~/.pki/nssdb and each Firefox profile holding one. */
async function nssDatabases(home: string, platform: NodeJS.Platform): Promise<string[]> {
  const found: string[] = [];
  const isDb = async (dir: string) =>
    (await exists(join(dir, 'cert9.db'))) || (await exists(join(dir, 'cert8.db')));
  if (await isDb(join(home, '.pki', 'nssdb'))) found.push(join(home, '.pki', 'nssdb'));
  const profileRoots =
    platform === 'darwin'
      ? [join(home, 'Library', 'Application Support', 'Firefox', 'Profiles')]
      : [join(home, '.mozilla', 'firefox'), join(home, 'snap', 'firefox', 'common', '.mozilla', 'firefox')];
  for (const root of profileRoots) {
    const entries = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
    for (const entry of entries)
      if (entry.isDirectory() && (await isDb(join(root, entry.name)))) found.push(join(root, entry.name));
  }
  return found;
}

/** One NSS database: the CA's nickname listed with the C trust flag, and its certificate the CA. */
async function nssCheck(
  certutil: string,
  db: string,
  caPem: string,
  o: Required<TrustCheckOptions>,
): Promise<TrustCheck> {
  const run = (args: string[]) => runProgram(certutil, ['-d', `sql:${db}`, ...args], o);
  const says = verdict('nss', db);
  const listed = await run(['-L']);
  if (listed.code !== 0) return says('unknown', programFailure('certutil', listed, o.timeoutMs));
  const line = listed.stdout.split('\n').find((l) => l.trimEnd().startsWith(CA_COMMON_NAME));
  if (!line) return says('not-trusted', `no certificate named "${CA_COMMON_NAME}"`);
  const exported = await run(['-L', '-a', '-n', CA_COMMON_NAME]);
  if (exported.code !== 0) return says('unknown', programFailure('certutil', exported, o.timeoutMs));
  if (!holdsCertificate(exported.stdout, caPem))
    return says('not-trusted', `"${CA_COMMON_NAME}" there is another certificate (an earlier CA)`);
  const flags = line.trim().split(/\s+/).pop() ?? '';
  return flags.split(',')[0]?.includes('C')
    ? says('trusted', `trust flags ${flags}`)
    : says('not-trusted', `present, but not trusted for TLS servers (flags ${flags})`);
}

async function nssChecks(caPem: string, o: Required<TrustCheckOptions>): Promise<TrustCheck[]> {
  const home = o.env.HOME ?? homedir();
  if (o.platform === 'win32')
    return [verdict('nss', 'Firefox profiles')('unknown', 'not read by mockdev on Windows')];
  const dbs = await nssDatabases(home, o.platform);
  if (dbs.length === 0)
    return [
      verdict('nss', join(home, '.pki', 'nssdb'))(
        'unknown',
        'no NSS database found: no Chromium or Firefox profile here',
      ),
    ];
  const certutil = await findProgram('certutil', o.env);
  const missing =
    'certutil is missing (Debian, Ubuntu: libnss3-tools; Fedora: nss-tools; macOS: brew install nss)';
  if (!certutil) return dbs.map((db) => verdict('nss', db)('unknown', missing));
  return Promise.all(dbs.map((db) => nssCheck(certutil, db, caPem, o)));
}

/** Node: NODE_EXTRA_CA_CERTS naming a file that holds the CA. */
async function nodeCheck(caPem: string, env: NodeJS.ProcessEnv): Promise<TrustCheck> {
  const file = env.NODE_EXTRA_CA_CERTS;
  if (!file) return verdict('node', 'NODE_EXTRA_CA_CERTS')('not-trusted', 'NODE_EXTRA_CA_CERTS is not set');
  return fileCheck(verdict('node', `NODE_EXTRA_CA_CERTS=${file}`), file, caPem, 'the file');
}

/** Java: the default cacerts, listed by keytool, holding the CA's SHA-256 fingerprint. */
async function javaCheck(fingerprint256: string, o: Required<TrustCheckOptions>): Promise<TrustCheck> {
  const says = verdict('java', 'the JDK cacerts');
  const keytool =
    (o.env.JAVA_HOME && (await findProgram('keytool', { PATH: join(o.env.JAVA_HOME, 'bin') }))) ||
    (await findProgram('keytool', o.env));
  if (!keytool) return says('unknown', 'keytool is missing (no Java here)');
  const listed = await runProgram(keytool, ['-list', '-cacerts', '-storepass', 'changeit'], o);
  if (listed.code !== 0) return says('unknown', programFailure('keytool', listed, o.timeoutMs));
  return listed.stdout.toUpperCase().includes(fingerprint256.toUpperCase())
    ? says('trusted', `listed by ${keytool}`)
    : says('not-trusted', `not listed by ${keytool}`);
}

/** Every store's check, run side by side; the CA given as PEM and by its SHA-256 fingerprint. */
export async function checkTrustStores(
  ca: { pem: string; fingerprint256: string },
  options: TrustCheckOptions,
): Promise<TrustCheck[]> {
  const o: Required<TrustCheckOptions> = {
    timeoutMs: DEFAULT_TIMEOUT_MS,
    platform: process.platform,
    bundles: SYSTEM_BUNDLES,
    ...options,
  };
  const [system, nss, node, java] = await Promise.all([
    systemChecks(ca.pem, o),
    nssChecks(ca.pem, o),
    nodeCheck(ca.pem, o.env),
    javaCheck(ca.fingerprint256, o),
  ]);
  return [...system, ...nss, node, java];
}
