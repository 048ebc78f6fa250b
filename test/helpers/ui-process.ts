import { spawnCli, type SpawnedMcp } from './mcp.js';
import { waitUntil, within } from './wait.js';

export interface SpawnedUi extends SpawnedMcp {
  /** http://127.0.0.1:PORT, as printed. */
  url: string;
  /** SIGTERM (a clean stop), then SIGKILL after a bound; resolves with the exit code. */
  terminate: () => Promise<number | null>;
}

/** Spawns the built `mockdev ui -p 0 …` with its own data dir and waits for the URL it prints. */
export async function startUi(
  dataDir: string,
  extra: string[] = [],
  env: Record<string, string | undefined> = {},
): Promise<SpawnedUi> {
  const ui = spawnCli(['ui', '-p', '0', ...extra], dataDir, env);
  let exitCode: number | null | undefined;
  void ui.exited.then((c) => (exitCode = c));
  const printed = () => /admin API on (http:\/\/[^\s)]+)/.exec(ui.stderr());
  try {
    await waitUntil(() => printed() || exitCode !== undefined, 'mockdev ui to print its URL', 20_000);
  } catch (e) {
    await ui.kill();
    throw e;
  }
  const m = printed();
  if (!m) throw new Error(`mockdev ui exited (${exitCode}) before printing its URL\n${ui.stderr()}`);
  const terminate = async () => {
    if (exitCode === undefined && ui.child.pid) process.kill(ui.child.pid, 'SIGTERM');
    try {
      return await within(ui.exited, 15_000, 'mockdev ui to stop on SIGTERM');
    } finally {
      await ui.kill();
    }
  };
  return { ...ui, url: m[1]!, terminate };
}
