import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { ServerRecordSchema, type ServerRecord } from '../../core/model/server.js';
import type { ServerRegistry } from '../../core/ports.js';
import { dataPaths } from './data-dir.js';
import { ioError, readFolderNames, writeJsonAtomic } from './json-file.js';
import { isSameProcessAlive, processStartTime } from './process.js';

/**
 * Running servers, one JSON file per server process under <data>/servers/<pid>.json. A record
 * whose process is gone (killed, crashed), or whose pid now belongs to another process, is
 * stale: it is deleted when seen, never reported.
 */
export class FileServerRegistry implements ServerRegistry {
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
    // The start time tells this process from a later one that gets the same pid.
    await writeJsonAtomic(this.fileFor(record.pid), { ...record, procStart: processStartTime(record.pid) });
  }

  async unregister(pid: number): Promise<void> {
    // A leftover record is cleaned as stale later: nothing to report.
    await fs.rm(this.fileFor(pid), { force: true }).catch(() => undefined);
  }

  isRunning(record: ServerRecord): boolean {
    return isSameProcessAlive(record.pid, record.procStart);
  }

  signalStop(record: ServerRecord): boolean {
    if (!this.isRunning(record)) return false;
    try {
      process.kill(record.pid, 'SIGTERM');
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
      throw ioError(`Could not stop the server of "${record.projectName}" (pid ${record.pid})`, e);
    }
  }

  async list(): Promise<ServerRecord[]> {
    const names = await readFolderNames(this.dir);
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
      if (record && this.isRunning(record)) out.push(record);
      else await fs.rm(file, { force: true }).catch(() => undefined);
    }
    out.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
    return out;
  }
}
