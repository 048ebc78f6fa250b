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

/** The system store: each Linux CA bundle present, and SSL_CERT_FILE when set. */
async function systemChecks(caPem: string, o: Required<TrustCheckOptions>): Promise<TrustCheck[]> {
  if (o.platform !== 'linux')
    return [
      {
        store: 'system',
        location: o.platform === 'darwin' ? 'the macOS keychains' : 'the Windows certificate store',
        status: 'unknown',
        detail: 'not read by mockdev on this system; "mockdev tls trust" prints how to add the CA',
      },
    ];
  const files = [...(o.env.SSL_CERT_FILE ? [o.env.SSL_CERT_FILE] : [])];
  for (const bundle of o.bundles) if (!files.includes(bundle) && (await exists(bundle))) files.push(bundle);
  if (files.length === 0)
    return [
      { store: 'system', location: o.bundles.join(', '), status: 'unknown', detail: 'no CA bundle found' },
    ];
  return Promise.all(
    files.map(async (file): Promise<TrustCheck> => {
      const read = await readText(file);
      if ('error' in read)
        return {
          store: 'system',
          location: file,
          status: 'unknown',
          detail: `cannot read it: ${read.error}`,
        };
      return holdsCertificate(read.text, caPem)
        ? { store: 'system', location: file, status: 'trusted', detail: 'the bundle holds the CA' }
        : {
            store: 'system',
            location: file,
            status: 'not-trusted',
            detail: 'the bundle does not hold the CA',
          };
    }),
  );
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
  const listed = await run(['-L']);
  if (listed.code !== 0)
    return {
      store: 'nss',
      location: db,
      status: 'unknown',
      detail: programFailure('certutil', listed, o.timeoutMs),
    };
  const line = listed.stdout.split('\n').find((l) => l.trimEnd().startsWith(CA_COMMON_NAME));
  if (!line)
    return {
      store: 'nss',
      location: db,
      status: 'not-trusted',
      detail: `no certificate named "${CA_COMMON_NAME}"`,
    };
  const exported = await run(['-L', '-a', '-n', CA_COMMON_NAME]);
  if (exported.code !== 0)
    return {
      store: 'nss',
      location: db,
      status: 'unknown',
      detail: programFailure('certutil', exported, o.timeoutMs),
    };
  if (!holdsCertificate(exported.stdout, caPem))
    return {
      store: 'nss',
      location: db,
      status: 'not-trusted',
      detail: `"${CA_COMMON_NAME}" there is another certificate (an earlier CA)`,
    };
  const flags = line.trim().split(/\s+/).pop() ?? '';
  return flags.split(',')[0]?.includes('C')
    ? { store: 'nss', location: db, status: 'trusted', detail: `trust flags ${flags}` }
    : {
        store: 'nss',
        location: db,
        status: 'not-trusted',
        detail: `present, but not trusted for TLS servers (flags ${flags})`,
      };
}

async function nssChecks(caPem: string, o: Required<TrustCheckOptions>): Promise<TrustCheck[]> {
  const home = o.env.HOME ?? homedir();
  if (o.platform === 'win32')
    return [
      {
        store: 'nss',
        location: 'Firefox profiles',
        status: 'unknown',
        detail: 'not read by mockdev on Windows',
      },
    ];
  const dbs = await nssDatabases(home, o.platform);
  if (dbs.length === 0)
    return [
      {
        store: 'nss',
        location: join(home, '.pki', 'nssdb'),
        status: 'unknown',
        detail: 'no NSS database found: no Chromium or Firefox profile here',
      },
    ];
  const certutil = await findProgram('certutil', o.env);
  if (!certutil)
    return dbs.map((db) => ({
      store: 'nss',
      location: db,
      status: 'unknown',
      detail:
        'certutil is missing (Debian, Ubuntu: libnss3-tools; Fedora: nss-tools; macOS: brew install nss)',
    }));
  return Promise.all(dbs.map((db) => nssCheck(certutil, db, caPem, o)));
}

/** Node: NODE_EXTRA_CA_CERTS naming a file that holds the CA. */
async function nodeCheck(caPem: string, env: NodeJS.ProcessEnv): Promise<TrustCheck> {
  const file = env.NODE_EXTRA_CA_CERTS;
  if (!file)
    return {
      store: 'node',
      location: 'NODE_EXTRA_CA_CERTS',
      status: 'not-trusted',
      detail: 'NODE_EXTRA_CA_CERTS is not set',
    };
  const location = `NODE_EXTRA_CA_CERTS=${file}`;
  const read = await readText(file);
  if ('error' in read)
    return { store: 'node', location, status: 'unknown', detail: `cannot read it: ${read.error}` };
  return holdsCertificate(read.text, caPem)
    ? { store: 'node', location, status: 'trusted', detail: 'the file holds the CA' }
    : { store: 'node', location, status: 'not-trusted', detail: 'the file does not hold the CA' };
}

/** Java: the default cacerts, listed by keytool, holding the CA's SHA-256 fingerprint. */
async function javaCheck(fingerprint256: string, o: Required<TrustCheckOptions>): Promise<TrustCheck> {
  const location = 'the JDK cacerts';
  const keytool =
    (o.env.JAVA_HOME && (await findProgram('keytool', { PATH: join(o.env.JAVA_HOME, 'bin') }))) ||
    (await findProgram('keytool', o.env));
  if (!keytool)
    return { store: 'java', location, status: 'unknown', detail: 'keytool is missing (no Java here)' };
  const listed = await runProgram(keytool, ['-list', '-cacerts', '-storepass', 'changeit'], o);
  if (listed.code !== 0)
    return {
      store: 'java',
      location,
      status: 'unknown',
      detail: programFailure('keytool', listed, o.timeoutMs),
    };
  const wanted = fingerprint256.toUpperCase();
  return listed.stdout.toUpperCase().includes(wanted)
    ? { store: 'java', location, status: 'trusted', detail: `listed by ${keytool}` }
    : { store: 'java', location, status: 'not-trusted', detail: `not listed by ${keytool}` };
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
