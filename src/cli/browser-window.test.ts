import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { appBrowserCandidates, appWindowArgs, findAppBrowser } from './browser-window.js';

describe('ui --app: which browser opens the window', () => {
  it('tries MOCKDEV_APP_BROWSER, then Chromium, Chrome and Edge, in that order on Linux', () => {
    const linux = appBrowserCandidates('linux', { MOCKDEV_APP_BROWSER: '/opt/b/brave' });
    assert.equal(linux[0], '/opt/b/brave');
    const at = (name: string) => linux.indexOf(name);
    for (const [before, after] of [
      ['chromium', 'chromium-browser'],
      ['chromium-browser', 'google-chrome'],
      ['google-chrome', 'google-chrome-stable'],
      ['google-chrome-stable', 'microsoft-edge'],
    ])
      assert.ok(at(before!) > 0 && at(before!) < at(after!), `${before} before ${after}`);
    assert.equal(appBrowserCandidates('linux', { MOCKDEV_APP_BROWSER: '  ' })[0], 'chromium');
  });

  it('looks where macOS and Windows install them', () => {
    const mac = appBrowserCandidates('darwin', { HOME: '/Users/ada' });
    assert.deepEqual(mac.slice(0, 3), [
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
    ]);
    assert.equal(mac[3], '/Users/ada/Applications/Chromium.app/Contents/MacOS/Chromium');
    const win = appBrowserCandidates('win32', {
      LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local',
      PROGRAMFILES: 'C:\\Program Files',
      'PROGRAMFILES(X86)': 'C:\\Program Files (x86)',
    });
    assert.equal(win[0], 'C:\\Users\\ada\\AppData\\Local\\Chromium\\Application\\chrome.exe');
    assert.ok(
      win.indexOf('C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe') <
        win.indexOf('C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe'),
      'Chrome before Edge',
    );
  });

  it('finds the first installed one, searching PATH in order for a bare name', () => {
    const installed = new Set(['/usr/bin/google-chrome', '/usr/local/bin/microsoft-edge', '/opt/x/chromium']);
    const env = { PATH: '/usr/local/bin:/usr/bin' };
    assert.equal(
      findAppBrowser('linux', env, (p) => installed.has(p)),
      '/usr/bin/google-chrome',
      'chromium is in no PATH folder; Chrome comes before Edge',
    );
    assert.equal(
      findAppBrowser('linux', { ...env, MOCKDEV_APP_BROWSER: '/opt/x/chromium' }, (p) => installed.has(p)),
      '/opt/x/chromium',
    );
    assert.equal(
      findAppBrowser('linux', { ...env, MOCKDEV_APP_BROWSER: 'microsoft-edge' }, (p) => installed.has(p)),
      '/usr/local/bin/microsoft-edge',
      'a bare name in the variable is looked up in PATH',
    );
    assert.equal(
      findAppBrowser('linux', { ...env, MOCKDEV_APP_BROWSER: '/nowhere/b' }, (p) => installed.has(p)),
      '/usr/bin/google-chrome',
      'a variable naming nothing installed falls back to the lookup',
    );
    assert.equal(
      findAppBrowser('linux', env, () => false),
      undefined,
      'none: the default browser opens instead',
    );
  });

  it('opens the URL in app mode with a profile of its own', () => {
    assert.deepEqual(appWindowArgs('http://127.0.0.1:3200', '/data/app-window'), [
      '--app=http://127.0.0.1:3200',
      '--user-data-dir=/data/app-window',
      '--no-first-run',
      '--no-default-browser-check',
    ]);
  });
});
