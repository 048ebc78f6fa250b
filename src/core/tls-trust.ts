/**
 * What `tls trust` prints (docs/tls.md "Trusting the CA"): for each system, the exact commands
 * that add the local CA to its trust store, the CA file filled in. Pure data: mockdev never
 * runs them (they change what the whole machine trusts, and most need an administrator).
 */
import { MockdevError } from './errors.js';
import { CA_COMMON_NAME, TRUST_TARGETS, type TrustInstructions, type TrustTarget } from './model/tls.js';

/** The file name the CA gets in a system folder of CA certificates. */
export const CA_SYSTEM_FILE_NAME = 'mockdev-ca.crt';
/** The alias the CA gets in Java's cacerts. */
export const CA_JAVA_ALIAS = 'mockdev-development-ca';

/** This system's target (`process.platform`): macos, windows, else linux. */
export const defaultTrustTarget = (platform: string): TrustTarget =>
  platform === 'darwin' ? 'macos' : platform === 'win32' ? 'windows' : 'linux';

/** An `--os` value, checked: one of TRUST_TARGETS, else INVALID_ARGUMENT listing them. */
export function toTrustTarget(value: string): TrustTarget {
  const found = TRUST_TARGETS.find((t) => t === value.trim().toLowerCase());
  if (found) return found;
  throw new MockdevError(
    'INVALID_ARGUMENT',
    `Invalid --os "${value}": must be one of ${TRUST_TARGETS.join(', ')}`,
    {
      hint: 'Example: mockdev tls trust --os firefox',
      details: { os: value },
    },
  );
}

/** A path as one word of a POSIX shell (single quotes when it needs any). */
const sh = (path: string): string =>
  /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
/** A path as one word of cmd / PowerShell. */
const win = (path: string): string => (/^[\w:.\\/-]+$/.test(path) ? path : `"${path}"`);

type Steps = TrustInstructions['steps'];

const nssAdd = (db: string, ca: string) =>
  `certutil -d sql:${db} -A -t "C,," -n "${CA_COMMON_NAME}" -i ${sh(ca)}`;

const STEPS: Record<TrustTarget, (ca: string) => Steps> = {
  macos: (ca) => [
    {
      title: 'Add the CA to the System keychain as trusted for TLS (Safari, Chrome, curl, most apps)',
      commands: [
        `sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain ${sh(ca)}`,
      ],
    },
    {
      title: 'Firefox, Java and Node keep stores of their own',
      commands: [
        'mockdev tls trust --os firefox',
        'mockdev tls trust --os java',
        'mockdev tls trust --os node',
      ],
    },
  ],
  windows: (ca) => [
    {
      title: 'Add the CA to the machine root store (in a terminal run as administrator; Edge, Chrome, curl)',
      commands: [`certutil -addstore -f ROOT ${win(ca)}`],
    },
    {
      title: 'Firefox, Java and Node keep stores of their own',
      commands: [
        'mockdev tls trust --os firefox',
        'mockdev tls trust --os java',
        'mockdev tls trust --os node',
      ],
    },
  ],
  linux: (ca) => [
    {
      title: 'Debian, Ubuntu: add the CA to the system CA bundle',
      commands: [
        `sudo cp ${sh(ca)} /usr/local/share/ca-certificates/${CA_SYSTEM_FILE_NAME} && sudo update-ca-certificates`,
      ],
    },
    {
      title: 'Fedora, Arch (p11-kit): add the CA as a trust anchor',
      commands: [`sudo trust anchor ${sh(ca)}`],
    },
    {
      title: 'Chromium and Firefox read their own NSS databases, Java and Node their own stores',
      commands: [
        'mockdev tls trust --os firefox',
        'mockdev tls trust --os java',
        'mockdev tls trust --os node',
      ],
    },
  ],
  firefox: (ca) => [
    {
      title:
        'Install certutil if it is missing (Debian, Ubuntu: libnss3-tools; Fedora: nss-tools; macOS: brew install nss)',
      commands: ['sudo apt-get install libnss3-tools'],
    },
    {
      title: 'Chromium, Chrome on Linux (the NSS database ~/.pki/nssdb)',
      commands: [`mkdir -p $HOME/.pki/nssdb`, nssAdd('$HOME/.pki/nssdb', ca)],
    },
    {
      title: 'Firefox: each profile (close Firefox first)',
      commands: [`for d in $HOME/.mozilla/firefox/*/; do ${nssAdd('"$d"', ca)}; done`],
    },
  ],
  java: (ca) => [
    {
      title: "Add the CA to the JDK's cacerts (the default password is changeit)",
      commands: [
        `sudo keytool -importcert -noprompt -cacerts -storepass changeit -alias ${CA_JAVA_ALIAS} -file ${sh(ca)}`,
      ],
    },
  ],
  node: (ca) => [
    {
      title:
        'Node adds the CA to its own list when this variable names it (add the line to your shell profile)',
      commands: [`export NODE_EXTRA_CA_CERTS=${sh(ca)}`],
    },
  ],
};

/** The commands that trust `caFile` on `target`. */
export const trustInstructions = (target: TrustTarget, caFile: string): TrustInstructions => ({
  target,
  caFile,
  steps: STEPS[target](caFile),
});
