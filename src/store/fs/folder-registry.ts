import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import * as z from 'zod';
import { MockdevError } from '../../core/errors.js';
import type { ProjectFile } from '../../core/model/project.js';
import { checkShape, ioError, readJsonFile, writeJsonAtomic } from './json-file.js';
import { withLock } from './lock.js';
import {
  ProjectStampSchema,
  projectFileStamp,
  readProjectFile,
  type ProjectStamp,
} from './project-folder.js';
import { PRIVATE_DIR } from './private.js';

/**
 * The folder projects a data directory knows (`<data>/folders.json`): projects outside
 * `<data>/projects/` that were made by `init`, served, or otherwise opened by their folder. It
 * lets the project store find them by id and name, and list them, after that.
 *
 * The folders are the truth; this file only says where to look. An entry whose folder holds no
 * project.json any more is dropped when read; one whose project.json changed (a rename, an
 * `init --force`) is read again. One whose project.json is broken keeps the id and name it had,
 * so a lookup of it reports the broken file rather than "not found".
 */
export interface KnownFolder extends ProjectStamp {
  /** The folder, absolute with symlinks resolved (one entry per folder however it was named). */
  dir: string;
  /** Why project.json could not be read the last time it changed (id and name are the ones before). */
  problem?: MockdevError;
}

const FOLDERS_VERSION = 1;

const FoldersFileSchema = z.object({
  version: z.literal(FOLDERS_VERSION),
  folders: z.record(z.string(), ProjectStampSchema),
});

/** The folder with symlinks resolved; as given when it cannot be resolved. */
export const realFolder = (dir: string): Promise<string> => fs.realpath(dir).catch(() => dir);

/** A failed write of this bookkeeping never fails the command that caused it (a read-only data dir). */
const bestEffort = async (fn: () => Promise<void>): Promise<void> => {
  try {
    await fn();
  } catch (e) {
    if (!(e instanceof MockdevError && (e.code === 'IO_ERROR' || e.code === 'LOCKED'))) throw e;
  }
};

/** What folders.json holds, as read: entries, or why none could be taken from it. */
interface Loaded {
  entries: Map<string, KnownFolder>;
  /** The file is broken (not JSON, or not this shape): it is moved aside, never overwritten. */
  broken?: MockdevError;
  /** The file is a newer mockdev's: left as it is, and nothing is written over it. */
  newer?: number;
}

export interface FolderRegistryOptions {
  /** Told, in one line, of a broken list moved aside or a newer one left alone. */
  onWarning?: (message: string) => void;
}

export class FolderRegistry {
  readonly file: string;
  private readonly lockFile: string;
  private warnedNewer = false;

  constructor(
    file: string,
    private readonly options: FolderRegistryOptions = {},
  ) {
    this.file = file;
    this.lockFile = join(dirname(file), '.folders.lock');
  }

  /** The file as it is now; one that cannot be read now (permissions) counts as empty. */
  private async read(): Promise<Loaded> {
    let raw: unknown;
    try {
      raw = await readJsonFile(this.file);
    } catch (e) {
      if (e instanceof MockdevError && e.code === 'CORRUPT_FILE') return { entries: new Map(), broken: e };
      return { entries: new Map() };
    }
    if (raw === undefined) return { entries: new Map() };
    const version = (raw as { version?: unknown } | null)?.version;
    if (typeof version === 'number' && version > FOLDERS_VERSION)
      return { entries: new Map(), newer: version };
    try {
      const data = checkShape(this.file, FoldersFileSchema, raw);
      return { entries: new Map(Object.entries(data.folders).map(([dir, e]) => [dir, { dir, ...e }])) };
    } catch (e) {
      if (!(e instanceof MockdevError)) throw e;
      return { entries: new Map(), broken: e };
    }
  }

  /** Says once that a newer mockdev's list is left alone. */
  private warnNewer(version: number): void {
    if (this.warnedNewer) return;
    this.warnedNewer = true;
    this.options.onWarning?.(
      `${this.file} was written by a newer mockdev (version ${version}): its project folders are not known to this one, and the file is left as it is`,
    );
  }

  /**
   * Moves a broken list aside (DECISIONS: a corrupt file is never overwritten silently) and says
   * where; the caller holds the lock. Folder projects are known again once opened by their folder.
   */
  private async moveAside(problem: MockdevError): Promise<void> {
    const aside = `${this.file}.broken-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    try {
      await fs.rename(this.file, aside);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return; // moved by another process
      throw ioError(`Could not move the broken ${this.file} aside`, e, this.file);
    }
    this.options.onWarning?.(
      `${problem.message}: moved it to ${aside} and started a new list of project folders; a folder project is known again once served or opened by its folder`,
    );
  }

  /**
   * The entries as last written. The file is mockdev's own bookkeeping: a broken one is moved
   * aside (with a warning) and counts as empty; a newer mockdev's counts as empty, left alone.
   */
  private async load(): Promise<Map<string, KnownFolder>> {
    const loaded = await this.read();
    if (loaded.newer !== undefined) this.warnNewer(loaded.newer);
    if (loaded.broken)
      await bestEffort(() =>
        withLock(this.lockFile, async () => {
          const again = await this.read();
          if (again.broken) await this.moveAside(again.broken);
        }),
      );
    return loaded.entries;
  }

  private async write(entries: Map<string, KnownFolder>): Promise<void> {
    const folders: Record<string, { id: string; name: string; port: number; stamp: string }> = {};
    for (const e of [...entries.values()].sort((a, b) => a.dir.localeCompare(b.dir)))
      folders[e.dir] = { id: e.id, name: e.name, port: e.port, stamp: e.stamp };
    await writeJsonAtomic(this.file, { version: FOLDERS_VERSION, folders });
  }

  /** Read-modify-write under the registry's lock; `change` returns false when there is nothing to write. */
  private async change(change: (entries: Map<string, KnownFolder>) => boolean): Promise<void> {
    await bestEffort(async () => {
      try {
        await fs.mkdir(dirname(this.file), { recursive: true, mode: PRIVATE_DIR });
      } catch (e) {
        throw ioError(`Could not create the data directory ${dirname(this.file)}`, e);
      }
      await withLock(this.lockFile, async () => {
        const loaded = await this.read();
        if (loaded.newer !== undefined) return this.warnNewer(loaded.newer);
        if (loaded.broken) await this.moveAside(loaded.broken);
        if (change(loaded.entries)) await this.write(loaded.entries);
      });
    });
  }

  /** One entry brought up to date with its folder; undefined when the folder holds no project any more. */
  private async check(entry: KnownFolder): Promise<KnownFolder | undefined> {
    let stamp: string | undefined;
    try {
      stamp = await projectFileStamp(entry.dir);
    } catch {
      return entry; // cannot look now (permissions): keep it as it was
    }
    if (stamp === undefined) return undefined;
    if (stamp === entry.stamp) return entry;
    try {
      const project = await readProjectFile(entry.dir);
      return project && { dir: entry.dir, id: project.id, name: project.name, port: project.port, stamp };
    } catch (e) {
      if (!(e instanceof MockdevError)) throw e;
      return { ...entry, problem: e };
    }
  }

  /**
   * The known folders that still hold a project, with their current ids and names. What changed
   * since the file was written is written back when it can be (never failing the read).
   */
  async current(): Promise<KnownFolder[]> {
    const known = await this.load();
    if (known.size === 0) return [];
    const checked = await Promise.all([...known.values()].map((e) => this.check(e)));
    const live = checked.filter((e): e is KnownFolder => e !== undefined);
    const updates = new Map(live.filter((e) => !e.problem && e !== known.get(e.dir)).map((e) => [e.dir, e]));
    const gone = [...known.keys()].filter((dir) => !live.some((e) => e.dir === dir));
    if (updates.size > 0 || gone.length > 0) {
      await this.change((entries) => {
        let changed = false;
        for (const dir of gone) {
          // Only what is still the entry that was found gone (another process may have re-added it).
          if (entries.get(dir)?.stamp === known.get(dir)?.stamp) changed = entries.delete(dir) || changed;
        }
        for (const [dir, e] of updates) {
          entries.set(dir, e);
          changed = true;
        }
        return changed;
      });
    }
    return live;
  }

  /** Records the project in a folder (a no-op when it is known as it is). */
  async remember(dir: string, project: Pick<ProjectFile, 'id' | 'name' | 'port'>): Promise<void> {
    const real = await realFolder(dir);
    const known = (await this.load()).get(real);
    if (known && known.id === project.id && known.name === project.name && known.port === project.port)
      return;
    const stamp = (await projectFileStamp(real).catch(() => undefined)) ?? '';
    await this.change((entries) => {
      entries.set(real, { dir: real, id: project.id, name: project.name, port: project.port, stamp });
      return true;
    });
  }

  /** Forgets a folder (its project was deleted). */
  async forget(dir: string): Promise<void> {
    const real = await realFolder(dir);
    if (!(await this.load()).has(real)) return;
    await this.change((entries) => entries.delete(real));
  }
}
