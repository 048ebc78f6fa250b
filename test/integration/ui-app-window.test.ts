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
  /**
   * `mockdev ui --app` in a data dir of its own with a stand-in program `name` (in a folder of
   * its own), and `env`; `check` sees the arguments the stand-in was run with and the output.
   */
  const withStandIn = async (
    name: string,
    env: (standIn: { dir: string; path: string }) => Record<string, string | undefined>,
    check: (args: string[], run: { url: string; output: string; dataDir: string; path: string }) => void,
  ): Promise<void> => {
    const program = standIn(name, name);
    const dataDir = join(root, `data-${name}`);
    mkdirSync(dataDir, { recursive: true });
    const ui = await startUi(['--app'], { dataDir, env: env(program) });
    try {
      const args = await argsOf(program.out);
      check(args, { url: ui.url, output: ui.stderr() + ui.stdout(), dataDir, path: program.path });
    } finally {
      await ui.stop();
    }
  };

  it('runs the browser MOCKDEV_APP_BROWSER names, in app mode with a profile under the data dir, and says which', () =>
    withStandIn(
      'my-browser',
      (b) => ({ MOCKDEV_APP_BROWSER: b.path }),
      (args, run) => {
        assert.deepEqual(args, [
          `--app=${run.url}`,
          `--user-data-dir=${join(run.dataDir, 'app-window')}`,
          '--no-first-run',
          '--no-default-browser-check',
        ]);
        assert.match(run.output, new RegExp(`Opening the UI in a window of its own with ${run.path}`));
      },
    ));

  it('finds Chrome in PATH when nothing is named', () =>
    withStandIn(
      'google-chrome',
      (b) => ({ MOCKDEV_APP_BROWSER: undefined, PATH: b.dir }),
      (args, run) => {
        assert.equal(args[0], `--app=${run.url}`);
        assert.match(run.output, new RegExp(`with ${run.path}`));
      },
    ));

  it('opens the default browser, saying so, when no Chromium, Chrome or Edge is installed', () =>
    withStandIn(
      'xdg-open',
      (b) => ({ MOCKDEV_APP_BROWSER: undefined, PATH: b.dir }),
      (args, run) => {
        assert.deepEqual(args, [run.url]);
        assert.match(
          run.output,
          /No Chromium, Chrome or Edge found: opening the UI in the default browser instead/,
        );
      },
    ));
});
