import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join, win32 } from 'node:path';
import { APP_BROWSER_ENV } from './commands/ui.js';
import { log } from './log.js';

/**
 * How `mockdev ui --open` and `mockdev ui --app` show the UI: `--app` in a window of its own
 * (Chromium, Chrome or Edge in app mode: no tabs, no address bar, its own icon in the dock or
 * taskbar, a browser profile of its own under the data directory), else in the default browser.
 * docs/ui.md "A window of its own".
 */

/** The folder of the app window's browser profile, in the data directory. */
export const APP_PROFILE_DIR = 'app-window';

/** Executable names looked up in PATH on Linux and other Unixes, in order. */
const UNIX_NAMES = [
  'chromium',
  'chromium-browser',
  'google-chrome',
  'google-chrome-stable',
  'microsoft-edge',
  'microsoft-edge-stable',
];

const MAC_APPS = [
  ['Chromium', 'Chromium'],
  ['Google Chrome', 'Google Chrome'],
  ['Microsoft Edge', 'Microsoft Edge'],
];

/**
 * The browsers `ui --app` tries, in order: `MOCKDEV_APP_BROWSER` when set, then Chromium,
 * Chrome and Edge where each platform installs them (a bare name is looked up in PATH).
 */
export function appBrowserCandidates(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
  const chosen = env[APP_BROWSER_ENV]?.trim();
  const first = chosen ? [chosen] : [];
  if (platform === 'darwin') {
    const apps = MAC_APPS.map(([app, exe]) => `/Applications/${app}.app/Contents/MacOS/${exe}`);
    const home = env.HOME
      ? MAC_APPS.map(([app, exe]) => `${env.HOME}/Applications/${app}.app/Contents/MacOS/${exe}`)
      : [];
    return [...first, ...apps, ...home];
  }
  if (platform === 'win32') {
    const roots = [env.LOCALAPPDATA, env.PROGRAMFILES, env['PROGRAMFILES(X86)']].filter(
      (r): r is string => typeof r === 'string' && r !== '',
    );
    const under = (...parts: string[]) => roots.map((r) => win32.join(r, ...parts));
    return [
      ...first,
      ...under('Chromium', 'Application', 'chrome.exe'),
      ...under('Google', 'Chrome', 'Application', 'chrome.exe'),
      ...under('Microsoft', 'Edge', 'Application', 'msedge.exe'),
    ];
  }
  return [...first, ...UNIX_NAMES];
}

/** Whether a path is a file this process may run. */
function runnable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A candidate as a path: itself when it names a folder, else the first match in PATH. */
function resolveCandidate(
  candidate: string,
  env: NodeJS.ProcessEnv,
  isRunnable: (path: string) => boolean,
): string | undefined {
  if (/[\\/]/.test(candidate)) return isRunnable(candidate) ? candidate : undefined;
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const path = join(dir, candidate);
    if (isRunnable(path)) return path;
  }
  return undefined;
}

/** The first browser of appBrowserCandidates that is installed here, as a path. */
export function findAppBrowser(
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
  isRunnable: (path: string) => boolean = runnable,
): string | undefined {
  const chosen = env[APP_BROWSER_ENV]?.trim();
  for (const candidate of appBrowserCandidates(platform, env)) {
    const path = resolveCandidate(candidate, env, isRunnable);
    if (path) return path;
    if (candidate === chosen)
      log.warn(
        `${APP_BROWSER_ENV} names ${chosen}, which is not a program here: looking for Chromium, Chrome or Edge`,
      );
  }
  return undefined;
}

/** The arguments of an app window: the URL in app mode, a profile of its own, no first-run pages. */
export const appWindowArgs = (url: string, profileDir: string): string[] => [
  `--app=${url}`,
  `--user-data-dir=${profileDir}`,
  '--no-first-run',
  '--no-default-browser-check',
];

/** Starts a program that outlives mockdev; `onError` when it cannot start. */
function launch(cmd: string, args: string[], onError: () => void): void {
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', onError);
    child.unref();
  } catch {
    onError();
  }
}

/** Opens a URL in the default browser; says so when it cannot (the URL is printed anyway). */
export function openDefaultBrowser(url: string, platform: NodeJS.Platform = process.platform): void {
  const [cmd, args] =
    platform === 'darwin'
      ? ['open', [url]]
      : platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  launch(cmd, args as string[], () =>
    log.warn(`Could not open a browser (${cmd} is not available): open ${url} yourself`),
  );
}

/**
 * Opens the UI in a window of its own with the first browser found (saying which), else in the
 * default browser (saying so).
 */
export function openAppWindow(
  url: string,
  options: { dataDir: string; env: NodeJS.ProcessEnv; platform?: NodeJS.Platform },
): void {
  const platform = options.platform ?? process.platform;
  const browser = findAppBrowser(platform, options.env);
  if (!browser) {
    log.info('No Chromium, Chrome or Edge found: opening the UI in the default browser instead.');
    return openDefaultBrowser(url, platform);
  }
  log.info(`Opening the UI in a window of its own with ${browser}`);
  launch(browser, appWindowArgs(url, join(options.dataDir, APP_PROFILE_DIR)), () => {
    log.warn(`Could not start ${browser}: opening the UI in the default browser instead.`);
    openDefaultBrowser(url, platform);
  });
}
