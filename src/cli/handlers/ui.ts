import { TOKEN_ENV } from '../../core/binding.js';
import { httpsCredentials } from '../../app/https.js';
import { DEFAULT_HOST } from '../../core/model/fields.js';
import type { UiOptions } from '../commands/ui.js';
import { openAppWindow, openDefaultBrowser } from '../browser-window.js';
import { currentIo } from '../io.js';
import { enabled, log } from '../log.js';
import { guardFromTunnels } from '../../app/tunnels.js';
import { cliContext } from './context.js';
import { listenPort, serverToken } from './listening.js';

export async function ui(opts: UiOptions): Promise<void> {
  const ctx = cliContext();
  const settings = await ctx.settings.read();
  const host = opts.host?.trim() || DEFAULT_HOST;
  const token = await serverToken(opts, { host, what: 'the admin API', env: TOKEN_ENV.ui });
  const port = listenPort(opts.port, settings.uiPort);
  const tls = await httpsCredentials(ctx, opts);
  const { startAdminServer } = await import('../../api/http.js');
  const { ALL_ROUTES } = await import('../../api/routes/index.js');
  const { createApiServices } = await import('../../api/services.js');
  const { createUiFiles, findUiDir } = await import('../../api/ui-files.js');
  const uiDir = findUiDir();
  if (!uiDir)
    log.warn('The web UI is not built (no dist/ui): run `npm run build`; the admin API works without it.');
  const services = createApiServices(ctx, {
    logger: { info: (m) => log.info(m), warn: (m) => log.warn(m) },
  });
  let running;
  try {
    running = await startAdminServer({
      ctx,
      routes: ALL_ROUTES,
      services,
      host,
      port,
      token,
      fallback: createUiFiles(uiDir),
      tls,
      onInternalError: (e) => {
        log.error(`Admin API request failed unexpectedly: ${e.message}`);
        if (enabled('debug') && e.stack) log.debug(e.stack);
      },
    });
  } catch (e) {
    await services.close();
    throw e;
  }
  // The admin API is never tunnelled: `tunnel start -P` refuses this port while it runs.
  let guard;
  try {
    guard = await guardFromTunnels(ctx, { port: running.port, what: 'mockdev ui' });
  } catch (e) {
    await running.close();
    await services.close();
    throw e;
  }
  log.info(
    `mockdev UI and admin API on ${running.url} (API: ${running.url}/api/v1, described at ${running.url}/api/v1/openapi.json)`,
  );
  if (token !== undefined) log.info('Every request needs "Authorization: Bearer <token>".');
  log.info('Press Ctrl+C to stop.');
  if (opts.app) openAppWindow(running.url, { dataDir: ctx.dataDir, env: currentIo().env });
  else if (opts.open) openDefaultBrowser(running.url);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  log.info('Stopping the admin API and the mock servers it started…');
  guard.close();
  await running.close();
  await services.close();
}
