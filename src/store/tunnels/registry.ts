import { promises as fs, rmSync } from 'node:fs';
import { join } from 'node:path';
import { MockdevError } from '../../core/errors.js';
import { TunnelRecordSchema, type GuardedPort, type TunnelRecord } from '../../core/model/tunnel.js';
import type { Subscription, TunnelRegistry } from '../../core/ports.js';
import { dataPaths } from '../fs/data-dir.js';
import { ioError, readFolderNames, readJsonFile, writeJsonAtomic } from '../fs/json-file.js';
import { processStartTime } from '../fs/process.js';
import { PRIVATE_DIR } from '../fs/private.js';
import { isRunning, stopTree } from './process-tree.js';

/** What a stale tunnel of a server gone gets before SIGKILL (it forwards to nothing anyway). */
const ORPHAN_GRACE_MS = 1000;

const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;

function checkId(projectId: string): string {
  if (!SAFE_ID.test(projectId))
    throw new MockdevError('INVALID_ARGUMENT', `Invalid project id "${projectId}" for a tunnel`);
  return projectId;
}

/** The folder of the tunnels' records and logs. */
export const tunnelsDir = (dataDir: string): string => dataPaths(dataDir).tunnels;

/** Where a project's tunnel process writes its output (read for the public URL). */
export const tunnelLogFile = (dataDir: string, projectId: string): string =>
  join(tunnelsDir(dataDir), `${checkId(projectId)}.log`);

/** Makes the tunnels' folder (private). */
export async function makeTunnelsDir(dataDir: string): Promise<string> {
  const dir = tunnelsDir(dataDir);
  try {
    await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR });
  } catch (e) {
    throw ioError(`Could not create ${dir}`, e);
  }
  return dir;
}

/**
 * The running tunnels, one JSON file per project under <data>/tunnels/<project id>.json (its
 * process's output beside it, <project id>.log), and the ports never tunnelled under
 * <data>/tunnels/guarded/<pid>-<port>.json. A record whose process is gone (or whose pid now
 * belongs to another process) is stale: deleted when seen, never returned. So is the tunnel of
 * a `serve --tunnel` whose server is gone: its process is stopped first.
 */
export class FileTunnelRegistry implements TunnelRegistry {
  readonly dir: string;
  private readonly guardDir: string;
  constructor(private readonly dataDir: string) {
    this.dir = tunnelsDir(dataDir);
    this.guardDir = join(this.dir, 'guarded');
  }

  private fileFor(projectId: string): string {
    return join(this.dir, `${checkId(projectId)}.json`);
  }

  async record(tunnel: TunnelRecord): Promise<void> {
    await makeTunnelsDir(this.dataDir);
    await writeJsonAtomic(this.fileFor(tunnel.projectId), {
      ...tunnel,
      procStart: tunnel.procStart ?? processStartTime(tunnel.pid),
    });
  }

  async get(projectId: string): Promise<TunnelRecord | undefined> {
    let raw: unknown;
    try {
      raw = await readJsonFile(this.fileFor(projectId));
    } catch (e) {
      // Written atomically: an unreadable one is broken, not half-written, and is dropped.
      if (!(e instanceof MockdevError && e.code === 'CORRUPT_FILE')) throw e;
      raw = null;
    }
    if (raw === undefined) return undefined;
    const parsed = TunnelRecordSchema.safeParse(raw);
    const record = parsed.success && parsed.data.projectId === projectId ? parsed.data : undefined;
    if (record && isRunning(record.pid, record.procStart)) {
      if (record.serverPid === undefined || isRunning(record.serverPid)) return record;
      // Its server is gone (killed): the tunnel would forward to nothing.
      await stopTree(record.pid, ORPHAN_GRACE_MS, record.procStart);
    }
    await this.remove(projectId);
    return undefined;
  }

  async list(): Promise<TunnelRecord[]> {
    const out: TunnelRecord[] = [];
    for (const name of await readFolderNames(this.dir)) {
      const id = name.endsWith('.json') ? name.slice(0, -'.json'.length) : undefined;
      if (id === undefined || !SAFE_ID.test(id)) continue;
      const record = await this.get(id);
      if (record) out.push(record);
    }
    out.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
    return out;
  }

  async remove(projectId: string): Promise<void> {
    await fs.rm(this.fileFor(projectId), { force: true }).catch(() => undefined);
    await fs.rm(tunnelLogFile(this.dataDir, projectId), { force: true }).catch(() => undefined);
  }

  async guardPort(guard: GuardedPort): Promise<Subscription> {
    try {
      await fs.mkdir(this.guardDir, { recursive: true, mode: PRIVATE_DIR });
    } catch (e) {
      throw ioError(`Could not create ${this.guardDir}`, e);
    }
    const file = join(this.guardDir, `${guard.pid}-${guard.port}.json`);
    await writeJsonAtomic(file, { ...guard, procStart: processStartTime(guard.pid) });
    return { close: () => rmSync(file, { force: true }) };
  }

  async guardedPorts(): Promise<GuardedPort[]> {
    const out: GuardedPort[] = [];
    for (const name of await readFolderNames(this.guardDir)) {
      if (!/^\d+-\d+\.json$/.test(name)) continue;
      const file = join(this.guardDir, name);
      let guard: (GuardedPort & { procStart?: string }) | undefined;
      try {
        guard = JSON.parse(await fs.readFile(file, 'utf8')) as GuardedPort & { procStart?: string };
      } catch {
        guard = undefined;
      }
      if (
        guard &&
        Number.isInteger(guard.port) &&
        Number.isInteger(guard.pid) &&
        isRunning(guard.pid, guard.procStart)
      )
        out.push({ port: guard.port, what: String(guard.what), pid: guard.pid });
      else await fs.rm(file, { force: true }).catch(() => undefined);
    }
    return out;
  }
}
