import assert from 'node:assert/strict';
import { openUiSession, type UiSession, type UiSessionOptions } from './browser.js';
import { projectId } from './io.js';
import { http } from './ui.js';

/**
 * Set-up the browser tests share: a session with the project Shop, and Shop's mock server
 * started on a free port.
 */

/**
 * A browser session whose data starts with the project Shop (port 4100), then what `seed`
 * adds; with Shop's id. The session is closed again when finding the id fails.
 */
export async function openShopSession(
  options: UiSessionOptions = {},
): Promise<{ s: UiSession; shop: string }> {
  const s = await openUiSession({
    ...options,
    seed: async (cli) => {
      const created = await cli(['project', 'create', 'Shop', '-p', '4100']);
      assert.equal(created.code, 0, created.stderr);
      await options.seed?.(cli);
    },
  });
  try {
    return { s, shop: await projectId(s, 'Shop') };
  } catch (e) {
    await s.close();
    throw e;
  }
}

/** Starts a project's mock server on a free port through the admin API; its URL. */
export async function startMockServer(s: UiSession, project: string): Promise<string> {
  const started = await http(`${s.url}/api/v1/projects/${encodeURIComponent(project)}/server`, {
    method: 'PUT',
    body: { port: 0 },
  });
  assert.equal(started.status, 201, started.body);
  return (started.json as { url: string }).url;
}
