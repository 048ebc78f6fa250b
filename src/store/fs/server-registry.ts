import {
  existsSync,
  mkdirSync,
  promises as fs,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { ServerRecordSchema, type ServerRecord } from '../../core/model/server.js';
import type { FlowRunRequest, ServerRegistry, Subscription } from '../../core/ports.js';
import { dataPaths } from './data-dir.js';
import { ioError, readFolderNames, writeJsonAtomic } from './json-file.js';
import { isSameProcessAlive, processStartTime } from './process.js';
import { PRIVATE_DIR, PRIVATE_FILE } from './private.js';

/** How often a host process looks for stop requests of the servers it runs (ms). */
export const STOP_REQUEST_POLL_MS = 200;

type ServerKey = Pick<ServerRecord, 'pid' | 'port'>;

/** Run requests this process made (requestRun), so that their files sort in the order made. */
let runRequests = 0;

/**
 * Running servers, one JSON file per server under <data>/servers/<pid>-<port>.json (one process
 * may run several; a `<pid>.json` of an earlier mockdev is read too). A record whose process is
 * gone (killed, crashed), or whose pid now belongs to another process, is stale: it is deleted
 * when seen, never reported.
 *
 * A stop is SIGTERM to the server's process, except for a server whose record says
 * `stopByRequest` (it shares its process with others, as in `mockdev ui`): then the stop is the
 * file <pid>-<port>.stop, which the host polls for (onStopRequest), stops that server and
 * removes its record.
 *
 * A run of a flow asked for by hand (`flow run`) is a file in the folder <pid>-<port>.runs, one
 * per request, named so that they sort in the order they were made; the host polls that folder
 * (onRunRequest) and removes each file as it takes it.
 */
export class FileServerRegistry implements ServerRegistry {
  readonly dir: string;
  constructor(dataDir: string) {
    this.dir = dataPaths(dataDir).servers;
  }

  private fileFor(key: ServerKey): string {
    return join(this.dir, `${key.pid}-${key.port}.json`);
  }

  private stopFileFor(key: ServerKey): string {
    return join(this.dir, `${key.pid}-${key.port}.stop`);
  }

  private runsDirFor(key: ServerKey): string {
    return join(this.dir, `${key.pid}-${key.port}.runs`);
  }

  async register(record: ServerRecord): Promise<void> {
    try {
      await fs.mkdir(this.dir, { recursive: true, mode: PRIVATE_DIR });
    } catch (e) {
      throw ioError(`Could not create ${this.dir}`, e);
    }
    // A stop request left by an earlier server of this pid and port is not for this one.
    await fs.rm(this.stopFileFor(record), { force: true }).catch(() => undefined);
    await fs.rm(this.runsDirFor(record), { recursive: true, force: true }).catch(() => undefined);
    // The start time tells this process from a later one that gets the same pid.
    await writeJsonAtomic(this.fileFor(record), { ...record, procStart: processStartTime(record.pid) });
  }

  async unregister(key: ServerKey): Promise<void> {
    // A leftover record is cleaned as stale later: nothing to report.
    await fs.rm(this.fileFor(key), { force: true }).catch(() => undefined);
    await fs.rm(this.stopFileFor(key), { force: true }).catch(() => undefined);
    await fs.rm(this.runsDirFor(key), { recursive: true, force: true }).catch(() => undefined);
  }

  requestRun(record: ServerRecord, request: FlowRunRequest): boolean {
    // Its record gone, a server takes no more requests (its process may live on: `mockdev ui`, tests).
    if (!this.isRunning(record) || !existsSync(this.fileFor(record))) return false;
    const dir = this.runsDirFor(record);
    try {
      mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
      // Time, then this process's count: several requests within one millisecond keep their order.
      const name = `${Date.now().toString(36).padStart(9, '0')}-${(++runRequests).toString(36).padStart(8, '0')}-${request.runId}.json`;
      writeFileSync(join(dir, `${name}.tmp`), JSON.stringify(request), { mode: PRIVATE_FILE });
      // Renamed whole: the host never reads half a request.
      renameSync(join(dir, `${name}.tmp`), join(dir, name));
      return true;
    } catch (e) {
      throw ioError(
        `Could not ask the server of "${record.projectName}" (pid ${record.pid}) to start a run`,
        e,
      );
    }
  }

  onRunRequest(key: ServerKey, listener: (request: FlowRunRequest) => void): Subscription {
    const dir = this.runsDirFor(key);
    let done = false;
    const timer = setInterval(() => {
      if (done) return;
      let names: string[];
      try {
        names = readdirSync(dir)
          .filter((n) => n.endsWith('.json'))
          .sort();
      } catch {
        return; // no request yet
      }
      for (const name of names) {
        const file = join(dir, name);
        let request: FlowRunRequest | undefined;
        try {
          const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<FlowRunRequest>;
          if (typeof parsed.runId === 'string' && typeof parsed.flowId === 'string')
            request = { runId: parsed.runId, flowId: parsed.flowId };
        } catch {
          request = undefined; // written whole (renamed): a broken one is nobody's
        }
        rmSync(file, { force: true });
        if (request && !done) listener(request);
      }
    }, STOP_REQUEST_POLL_MS);
    timer.unref();
    return {
      close: () => {
        done = true;
        clearInterval(timer);
      },
    };
  }

  isRunning(record: ServerRecord): boolean {
    if (!isSameProcessAlive(record.pid, record.procStart)) return false;
    // A server sharing its process is gone once its host removed its record.
    return !record.stopByRequest || existsSync(this.fileFor(record));
  }

  signalStop(record: ServerRecord): boolean {
    if (!this.isRunning(record)) return false;
    if (record.stopByRequest) {
      try {
        writeFileSync(this.stopFileFor(record), new Date().toISOString(), { mode: PRIVATE_FILE });
        return true;
      } catch (e) {
        throw ioError(`Could not ask the server of "${record.projectName}" (pid ${record.pid}) to stop`, e);
      }
    }
    try {
      process.kill(record.pid, 'SIGTERM');
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
      throw ioError(`Could not stop the server of "${record.projectName}" (pid ${record.pid})`, e);
    }
  }

  onStopRequest(key: ServerKey, listener: () => void): Subscription {
    const file = this.stopFileFor(key);
    let done = false;
    const timer = setInterval(() => {
      if (done || !existsSync(file)) return;
      done = true;
      clearInterval(timer);
      rmSync(file, { force: true });
      listener();
    }, STOP_REQUEST_POLL_MS);
    timer.unref();
    return {
      close: () => {
        done = true;
        clearInterval(timer);
      },
    };
  }

  async list(): Promise<ServerRecord[]> {
    const names = await readFolderNames(this.dir);
    const out: ServerRecord[] = [];
    for (const name of names) {
      if (/^\d+-\d+\.runs$/.test(name)) {
        // Run requests whose server is gone are nobody's.
        if (!names.includes(name.replace(/\.runs$/, '.json')))
          await fs.rm(join(this.dir, name), { recursive: true, force: true }).catch(() => undefined);
        continue;
      }
      if (/^\d+-\d+\.stop$/.test(name)) {
        // A stop request whose server is gone is nobody's.
        if (!names.includes(name.replace(/\.stop$/, '.json')))
          await fs.rm(join(this.dir, name), { force: true }).catch(() => undefined);
        continue;
      }
      if (!/^\d+(-\d+)?\.json$/.test(name)) continue;
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
      if (record && isSameProcessAlive(record.pid, record.procStart)) out.push(record);
      else await fs.rm(file, { force: true }).catch(() => undefined);
    }
    out.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
    return out;
  }
}
