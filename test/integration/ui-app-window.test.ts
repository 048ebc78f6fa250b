import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { tempDir } from '../helpers/cli.js';
import { startUi } from '../helpers/ui.js';
import { waitUntil } from '../helpers/wait.js';

/**
 * `mockdev ui --app` with stand-in browsers: shell scripts that write down how they were run.
 * One named by MOCKDEV_APP_BROWSER, one found in PATH under Chrome's name, and a stand-in
 * `xdg-open` for the default browser when PATH holds no Chromium, Chrome or Edge.
 */
describe('mockdev ui --app: the UI in a window of its own', () => {
  let root: string;
  let cleanup: () => void;
  before(() => ({ dir: root, cleanup } = tempDir('mockdev-app-window-')));
  after(() => cleanup());

  /** A folder holding a stand-in program `name` that writes its arguments, one a line, to `out`. */
  const standIn = (folder: string, name: string): { dir: string; path: string; out: string } => {
    const dir = join(root, folder);
    mkdirSync(dir, { recursive: true });
    const path = join(dir, name);
    const out = join(dir, `${name}.args`);
    writeFileSync(path, `#!/bin/sh\nprintf '%s\\n' "$@" > '${out}.tmp' && /bin/mv '${out}.tmp' '${out}'\n`);
    chmodSync(path, 0o755);
    return { dir, path, out };
  };
  const argsOf = async (out: string): Promise<string[]> => {
    await waitUntil(() => existsSync(out), `the stand-in to write ${out}`, 15_000);
    return readFileSync(out, 'utf8').trim().split('\n');
  };
  const dataDirFor = (name: string) => {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  };

  it('runs the browser MOCKDEV_APP_BROWSER names, in app mode with a profile under the data dir, and says which', async () => {
    const browser = standIn('named', 'my-browser');
    const dataDir = dataDirFor('data-named');
    const ui = await startUi(['--app'], { dataDir, env: { MOCKDEV_APP_BROWSER: browser.path } });
    try {
      const args = await argsOf(browser.out);
      assert.deepEqual(args, [
        `--app=${ui.url}`,
        `--user-data-dir=${join(dataDir, 'app-window')}`,
        '--no-first-run',
        '--no-default-browser-check',
      ]);
      assert.match(
        ui.stderr() + ui.stdout(),
        new RegExp(`Opening the UI in a window of its own with ${browser.path}`),
      );
    } finally {
      await ui.stop();
    }
  });

  it('finds Chrome in PATH when nothing is named', async () => {
    const chrome = standIn('path', 'google-chrome');
    const dataDir = dataDirFor('data-path');
    const ui = await startUi(['--app'], {
      dataDir,
      env: { MOCKDEV_APP_BROWSER: undefined, PATH: chrome.dir },
    });
    try {
      const args = await argsOf(chrome.out);
      assert.equal(args[0], `--app=${ui.url}`);
      assert.match(ui.stderr() + ui.stdout(), /with .*\/path\/google-chrome/);
    } finally {
      await ui.stop();
    }
  });

  it('opens the default browser, saying so, when no Chromium, Chrome or Edge is installed', async () => {
    const opener = standIn('none', 'xdg-open');
    const dataDir = dataDirFor('data-none');
    const ui = await startUi(['--app'], {
      dataDir,
      env: { MOCKDEV_APP_BROWSER: undefined, PATH: opener.dir },
    });
    try {
      assert.deepEqual(await argsOf(opener.out), [ui.url]);
      assert.match(
        ui.stderr() + ui.stdout(),
        /No Chromium, Chrome or Edge found: opening the UI in the default browser instead/,
      );
    } finally {
      await ui.stop();
    }
  });
});
