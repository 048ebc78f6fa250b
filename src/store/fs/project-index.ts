import { join } from 'node:path';
import * as z from 'zod';
import { MockdevError } from '../../core/errors.js';
import { readFolderNames, readJsonFile, writeJsonAtomic } from './json-file.js';
import {
  ProjectStampSchema,
  projectFileStamp,
  readProjectFile,
  type ProjectStamp,
} from './project-folder.js';

/**
 * The name index of the data directory's projects (`projects/.index.json`): folder -> id, name
 * and a stamp of its project.json. It answers "which project is called X" without reading every
 * project. It is a cache, never the truth: a lookup verifies what it finds in the project itself,
 * and `refresh()` brings it up to date from the folders (stat each project.json, re-read only the
 * changed ones) whenever a lookup misses or finds it stale, and before a name is taken.
 */
export const INDEX_FILE = '.index.json';

export interface IndexEntry extends ProjectStamp {
  folder: string;
}

const IndexFileSchema = z.object({
  version: z.literal(1),
  folders: z.record(z.string(), ProjectStampSchema),
});

export class ProjectIndex {
  private readonly file: string;

  constructor(private readonly projectsDir: string) {
    this.file = join(projectsDir, INDEX_FILE);
  }

  /** The index as last written; undefined when there is none (or it cannot be read: refresh rebuilds it). */
  async load(): Promise<IndexEntry[] | undefined> {
    let raw: unknown;
    try {
      raw = await readJsonFile(this.file);
    } catch {
      return undefined;
    }
    const parsed = IndexFileSchema.safeParse(raw);
    if (!parsed.success) return undefined;
    return Object.entries(parsed.data.folders).map(([folder, e]) => ({ folder, ...e }));
  }

  /**
   * Brings the index up to date with the folders and writes it when it changed (unless told
   * not to). Call it while holding the data directory's lock. Folders whose project.json cannot
   * be read are left out and returned as errors.
   */
  async refresh(
    options: { write?: boolean } = {},
  ): Promise<{ entries: IndexEntry[]; errors: MockdevError[] }> {
    const before = new Map((await this.load())?.map((e) => [e.folder, e]));
    const names = await readFolderNames(this.projectsDir);
    const errors: MockdevError[] = [];
    const found = await Promise.all(
      names
        .filter((n) => !n.startsWith('.'))
        .map(async (folder): Promise<IndexEntry | undefined> => {
          const dir = join(this.projectsDir, folder);
          const stamp = await projectFileStamp(dir);
          if (stamp === undefined) return undefined;
          const known = before.get(folder);
          if (known?.stamp === stamp) return known;
          try {
            const project = await readProjectFile(dir);
            return project && { folder, id: project.id, name: project.name, port: project.port, stamp };
          } catch (e) {
            if (!(e instanceof MockdevError)) throw e;
            errors.push(e);
            return undefined;
          }
        }),
    );
    const entries = found.filter((e): e is IndexEntry => e !== undefined);
    const changed =
      entries.length !== before.size || entries.some((e) => before.get(e.folder) !== e) || errors.length > 0;
    if (changed && options.write !== false) await this.write(entries);
    return { entries, errors };
  }

  async write(entries: IndexEntry[]): Promise<void> {
    const folders: Record<string, Omit<IndexEntry, 'folder'>> = {};
    for (const { folder, ...rest } of [...entries].sort((a, b) => a.folder.localeCompare(b.folder)))
      folders[folder] = rest;
    await writeJsonAtomic(this.file, { version: 1, folders });
  }

  /** Records a folder's project after this process wrote it (the caller holds the lock). */
  async record(
    entries: IndexEntry[],
    folder: string,
    project: Pick<IndexEntry, 'id' | 'name' | 'port'>,
  ): Promise<void> {
    const stamp = (await projectFileStamp(join(this.projectsDir, folder))) ?? '';
    const { id, name, port } = project;
    await this.write([...entries.filter((e) => e.folder !== folder), { folder, id, name, port, stamp }]);
  }
}
