import { execFile } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { MockdevError } from '../../core/errors.js';
import type { TunnelProviderCheck } from '../../core/model/tunnel.js';
import { runDetached, type TunnelProvider } from './provider.js';

/**
 * Cloudflare quick tunnels (no account needed): the `cloudflared` program, found on PATH or at
 * MOCKDEV_CLOUDFLARED_PATH, run as `cloudflared tunnel --no-autoupdate --url
 * http://127.0.0.1:<port>`. It prints the public URL in its log (stderr), inside a banner:
 *
 *   INF |  Your quick Tunnel has been created! Visit it at (it may take some time to be reachable):  |
 *   INF |  https://some-random-words.trycloudflare.com                                               |
 */

const DOWNLOAD_PAGE =
  'https://developers.cloudflare.com/cloudflare-one/connections/connect-networks/downloads/';

/**
 * The first https://<name>.trycloudflare.com in cloudflared's output: the quick tunnel's URL.
 * The service's own API (https://api.trycloudflare.com, named in its errors) is not one.
 */
export function findQuickTunnelUrl(output: string): string | undefined {
  const m = /https:\/\/(?!api\.)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.trycloudflare\.com(?![a-z0-9.-])/i.exec(
    output,
  );
  return m?.[0].toLowerCase();
}

const isExecutable = (file: string): boolean => {
  try {
    if (!statSync(file).isFile()) return false;
    if (process.platform !== 'win32') accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The cloudflared program: MOCKDEV_CLOUDFLARED_PATH when set, else the first on PATH; undefined when none. */
export function findCloudflared(env: NodeJS.ProcessEnv): string | undefined {
  const given = env.MOCKDEV_CLOUDFLARED_PATH?.trim();
  if (given) return isExecutable(resolve(given)) ? resolve(given) : undefined;
  const names = process.platform === 'win32' ? ['cloudflared.exe', 'cloudflared'] : ['cloudflared'];
  for (const dir of (env.PATH ?? env.Path ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    for (const name of names) if (isExecutable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** How cloudflared is installed on this system (package managers, then the download page). */
export function cloudflaredInstall(platform = process.platform, arch = process.arch) {
  const debArch = arch === 'arm64' ? 'arm64' : arch === 'arm' ? 'arm' : arch === 'ia32' ? '386' : 'amd64';
  const commands =
    platform === 'darwin'
      ? ['brew install cloudflared']
      : platform === 'win32'
        ? ['winget install --id Cloudflare.cloudflared']
        : [
            `curl -fsSL -o cloudflared.deb https://github.com/cloudflare/cloudflared/releases/latest/download/cloudflared-linux-${debArch}.deb && sudo dpkg -i cloudflared.deb   # Debian, Ubuntu`,
            'brew install cloudflared   # Homebrew on Linux',
          ];
  return { commands, page: DOWNLOAD_PAGE };
}

const where = (env: NodeJS.ProcessEnv): string =>
  env.MOCKDEV_CLOUDFLARED_PATH?.trim()
    ? `MOCKDEV_CLOUDFLARED_PATH=${env.MOCKDEV_CLOUDFLARED_PATH.trim()} is not an executable file`
    : 'cloudflared was not found on PATH';

/** `cloudflared --version`'s output ("cloudflared version 2024.8.2 (built …)"). */
function versionOf(file: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((done) => {
    execFile(file, ['--version'], { env, timeout: 10_000, windowsHide: true }, (error, stdout, stderr) => {
      const text = `${stdout}\n${stderr}`.trim();
      const version = /version\s+(\S+)/i.exec(text)?.[1];
      done(
        version ?? (error ? `unknown (${error.message.split('\n')[0]})` : text.split('\n')[0] || 'unknown'),
      );
    });
  });
}

export const cloudflared: TunnelProvider = {
  name: 'cloudflared',

  async check({ env }): Promise<TunnelProviderCheck> {
    const file = findCloudflared(env);
    if (!file)
      return { provider: 'cloudflared', available: false, detail: where(env), install: cloudflaredInstall() };
    return { provider: 'cloudflared', available: true, version: await versionOf(file, env), detail: file };
  },

  async start(input) {
    const file = findCloudflared(input.env);
    if (!file)
      throw new MockdevError('NOT_FOUND', `cloudflared is not installed: ${where(input.env)}`, {
        hint: 'Run "mockdev tunnel install" to see how to install it (or use the ngrok provider)',
        details: { provider: 'cloudflared' },
      });
    return runDetached({
      what: 'cloudflared',
      command: file,
      args: [
        'tunnel',
        '--no-autoupdate',
        '--url',
        `${input.https ? 'https' : 'http'}://127.0.0.1:${input.port}`,
        // The local certificate is the user's own or the local CA's: cloudflared does not know it.
        ...(input.https ? ['--no-tls-verify'] : []),
      ],
      env: input.env,
      dataDir: input.dataDir,
      projectId: input.projectId,
      timeoutMs: input.timeoutMs,
      findUrl: findQuickTunnelUrl,
    });
  },
};
