#!/usr/bin/env node
// Makes sure Debian's `chromium` is installed for the browser tests (test/e2e): `npm test` runs
// this before them. As root it installs the package with apt-get; otherwise it names the package
// and exits 1, so a missing browser fails loudly instead of skipping the tests.
// MOCKDEV_CHROMIUM overrides the browser's path (/usr/bin/chromium).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const chromiumPath = process.env.MOCKDEV_CHROMIUM || '/usr/bin/chromium';

function apt(args) {
  const r = spawnSync('apt-get', args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return r.status === 0;
}

export function ensureChromium() {
  if (existsSync(chromiumPath)) return true;
  if (process.env.MOCKDEV_CHROMIUM) {
    console.error(
      `MOCKDEV_CHROMIUM is ${chromiumPath}, which does not exist: point it at a Chromium binary.`,
    );
    return false;
  }
  if (process.getuid?.() !== 0) {
    console.error(
      'The browser tests need Debian\'s "chromium" package at /usr/bin/chromium. Install it with ' +
        '`sudo apt-get install -y chromium` (or set MOCKDEV_CHROMIUM to a Chromium binary), then run npm test again.',
    );
    return false;
  }
  console.log('# installing Debian\'s "chromium" for the browser tests (apt-get)…');
  if (
    !apt(['update']) ||
    !apt(['install', '-y', '--no-install-recommends', 'chromium']) ||
    !existsSync(chromiumPath)
  ) {
    console.error(
      'apt-get could not install "chromium"; the browser tests need it (see the messages above).',
    );
    return false;
  }
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(ensureChromium() ? 0 : 1);
