import { promises as fs, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { dataPaths } from './data-dir.js';
import { ioError, writeJsonAtomic } from './json-file.js';
import { isSameProcessAlive } from './process.js';

export { isProcessAlive, processStartTime } from './process.js';

/**
 * Running servers, one JSON file per server process under <data>/servers/<pid>.json. A record
 * whose process is gone (killed, crashed) is stale: it is deleted when seen, never reported.
 */
export const ServerRecordSchema = z.object({
  pid: z.number().int(),
  projectId: z.string(),
  projectName: z.string(),
  projectDir: z.string(),
  host: z.string(),
  port: z.number().int(),
  url: z.string(),
  startedAt: z.string(),
  /** Process start time from /proc (Linux): guards against a reused pid. */
  procStart: z.string().optional(),
});
export type ServerRecord = z.infer<typeof ServerRecordSchema>;

/** Alive and, where the start time is known, the same process that wrote the record. */
export function isRecordLive(record: ServerRecord): boolean {
  return isSameProcessAlive(record.pid, record.procStart);
}

export class ServerRegistry {
  readonly dir: string;
  constructor(dataDir: string) {
    this.dir = dataPaths(dataDir).servers;
  }

  private fileFor(pid: number): string {
    return join(this.dir, `${pid}.json`);
  }

  async register(record: ServerRecord): Promise<void> {
    try {
      await fs.mkdir(this.dir, { recursive: true });
    } catch (e) {
      throw ioError(`Could not create ${this.dir}`, e);
    }
    await writeJsonAtomic(this.fileFor(record.pid), record);
  }

  /** Synchronous, so it also works from an exit path. */
  unregister(pid: number): void {
    try {
      rmSync(this.fileFor(pid), { force: true });
    } catch {
      /* nothing to do: a leftover record is cleaned as stale later */
    }
  }

  /** Live servers; stale and unreadable records are removed. */
  async list(): Promise<ServerRecord[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw ioError(`Could not read ${this.dir}`, e);
    }
    const out: ServerRecord[] = [];
    for (const name of names) {
      if (!/^\d+\.json$/.test(name)) continue;
      const file = join(this.dir, name);
      let record: ServerRecord | undefined;
      try {
        const parsed = ServerRecordSchema.safeParse(JSON.parse(await fs.readFile(file, 'utf8')));
        record = parsed.success ? parsed.data : undefined;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
        record = undefined;
      }
      // Files are written atomically, so an unreadable one is broken, not half-written.
      if (record && isRecordLive(record)) out.push(record);
      else await fs.rm(file, { force: true }).catch(() => undefined);
    }
    out.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
    return out;
  }
}
