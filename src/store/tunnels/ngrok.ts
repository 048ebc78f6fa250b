import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MockdevError } from '../../core/errors.js';
import type { TunnelProviderCheck } from '../../core/model/tunnel.js';
import { loadNgrok, reason, URL_LINE, type LoadedNgrok } from './ngrok-library.js';
import { runDetached, type TunnelProvider } from './provider.js';

/**
 * ngrok, through the @ngrok/ngrok library (its agent runs inside the library: nothing is
 * downloaded at run time). The tunnel is held by a small detached mockdev process
 * (ngrok-holder.ts, dist/cli/tunnel-holder.js) that opens the session with the auth token and
 * writes the public URL to the tunnel's log file.
 */

export const NGROK_TOKEN_PAGE = 'https://dashboard.ngrok.com/get-started/your-authtoken';
const LIBRARY_PAGE = 'https://github.com/ngrok/ngrok-javascript';

/** How to run the holder: the built entry beside the bundle, or the TypeScript source through tsx. */
function holderArgs(): string[] {
  const self = import.meta.url;
  if (self.endsWith('.ts'))
    return ['--import', import.meta.resolve('tsx'), fileURLToPath(new URL('./ngrok-holder.ts', self))];
  for (const rel of ['./tunnel-holder.js', '../tunnel-holder.js']) {
    const file = fileURLToPath(new URL(rel, self));
    if (existsSync(file)) return [file];
  }
  throw new MockdevError(
    'INTERNAL',
    'The ngrok tunnel holder (tunnel-holder.js) is missing from this installation',
    {
      hint: 'Reinstall mockdev (or run "npm run build")',
    },
  );
}

/** An ngrok provider over a library loader (the real one by default; tests give a stand-in). */
export function ngrokProvider(load: () => Promise<LoadedNgrok> = loadNgrok): TunnelProvider {
  const loadOrSay = async (): Promise<LoadedNgrok | string> => {
    try {
      return await load();
    } catch (e) {
      return `ngrok is not available on this platform: the @ngrok/ngrok library did not load (${reason(e)})`;
    }
  };
  return {
    name: 'ngrok',

    async check({ authtoken }): Promise<TunnelProviderCheck> {
      const loaded = await loadOrSay();
      if (typeof loaded === 'string')
        return {
          provider: 'ngrok',
          available: false,
          detail: loaded,
          install: {
            commands: [
              'npm install -g --include=optional mockdev   # reinstall with the optional @ngrok/ngrok',
            ],
            page: LIBRARY_PAGE,
          },
        };
      const token = authtoken
        ? 'auth token set'
        : `no auth token yet: set NGROK_AUTHTOKEN or the setting ngrokAuthtoken (${NGROK_TOKEN_PAGE})`;
      return {
        provider: 'ngrok',
        available: true,
        ...(loaded.version ? { version: loaded.version } : {}),
        detail: `the @ngrok/ngrok library loads; ${token}`,
      };
    },

    async start(input) {
      if (!input.authtoken)
        throw new MockdevError('NOT_FOUND', 'ngrok needs an auth token, and none is set', {
          hint: `Get one at ${NGROK_TOKEN_PAGE}, then set NGROK_AUTHTOKEN or run "mockdev settings update --ngrok-authtoken <TOKEN>"`,
          details: { provider: 'ngrok' },
        });
      const loaded = await loadOrSay();
      if (typeof loaded === 'string')
        throw new MockdevError('NOT_FOUND', loaded, {
          hint: 'Use cloudflared instead ("mockdev tunnel install" says how to install it)',
          details: { provider: 'ngrok' },
        });
      return runDetached({
        what: 'ngrok',
        command: process.execPath,
        args: holderArgs(),
        env: {
          ...input.env,
          NGROK_AUTHTOKEN: input.authtoken,
          MOCKDEV_TUNNEL_HOLDER: 'ngrok',
          MOCKDEV_TUNNEL_PORT: String(input.port),
          ...(input.https ? { MOCKDEV_TUNNEL_HTTPS: '1' } : {}),
        },
        dataDir: input.dataDir,
        projectId: input.projectId,
        timeoutMs: input.timeoutMs,
        findUrl: (output) => URL_LINE.exec(output)?.[1],
      });
    },
  };
}

export const ngrok: TunnelProvider = ngrokProvider();
