/**
 * `mockdev ui --host 0.0.0.0` prints the addresses one can open (127.0.0.1 here, the machine's
 * network addresses from elsewhere), never a URL with 0.0.0.0 in it, and `--open` opens one of them.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../helpers/cli.js';
import { http, startUi } from '../helpers/ui.js';
import { waitUntil } from '../helpers/wait.js';

describe('mockdev ui --host 0.0.0.0', () => {
  it('prints the URLs one can open, and --open opens the local one', async (t) => {
    const { dir, cleanup } = tempDir('mockdev-ui-addresses-');
    // A stand-in for the browser opener, so that no browser opens: it records the URL it is given.
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    const opened = join(dir, 'opened.txt');
    for (const name of ['xdg-open', 'open']) {
      writeFileSync(join(bin, name), `#!/bin/sh\nprintf '%s\\n' "$@" > '${opened}'\n`);
      chmodSync(join(bin, name), 0o755);
    }
    const ui = await startUi(['--host', '0.0.0.0', '--open'], {
      dataDir: dir,
      env: { MOCKDEV_UI_TOKEN: 'tok-addresses', PATH: `${bin}${delimiter}${process.env.PATH}` },
    });
    t.after(async () => {
      await ui.stop();
      cleanup();
    });
    const out = ui.stdout() + ui.stderr();
    assert.equal(ui.url, `http://127.0.0.1:${ui.port}`, out);
    assert.doesNotMatch(out, /0\.0\.0\.0:/, 'no URL with 0.0.0.0');
    const others = Object.values(networkInterfaces())
      .flatMap((l) => l ?? [])
      .filter((i) => !i.internal && i.family === 'IPv4')
      .map((i) => `http://${i.address}:${ui.port}`);
    if (others.length > 0)
      assert.match(
        out,
        new RegExp(
          `Listening on every address \\(0\\.0\\.0\\.0\\): from other machines open ${others.join(' or ').replace(/\./g, '\\.')}\\n`,
        ),
      );
    else assert.match(out, /no network address besides loopback/);
    const health = await http(`${ui.url}/api/v1/health`, {
      headers: { Authorization: 'Bearer tok-addresses' },
    });
    assert.equal(health.status, 200);
    await waitUntil(
      () => existsSync(opened) && readFileSync(opened, 'utf8').trim(),
      'the browser opener to run',
    );
    assert.equal(readFileSync(opened, 'utf8').trim(), ui.url);
  });
});
