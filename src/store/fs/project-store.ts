import { existsSync, promises as fs } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { MockdevError } from '../../core/errors.js';
import { ID_PATTERN } from '../../core/ids.js';
import type { Endpoint } from '../../core/model/endpoint.js';
import type { ProjectFile } from '../../core/model/project.js';
import type {
  ProjectChange,
  ProjectChangeResult,
  ProjectStore,
  StoredProject,
  Subscription,
} from '../../core/ports.js';
import { watchFolder, watchProjectsDir } from './change-feed.js';
import { dataPaths } from './data-dir.js';
import { ioError, readFolderNames } from './json-file.js';
import { withLock } from './lock.js';
import { ProjectIndex, type IndexEntry } from './project-index.js';
import {
  ENDPOINTS_FILE,
  LOCK_FILE,
  PROJECT_FILE,
  hasProject,
  readEndpointsFile,
  readFolder,
  readProjectFile,
  writeFolder,
} from './project-folder.js';

export interface FolderProjectStoreOptions {
  /** How often the change feed polls (ms): one folder, and the whole data directory. */
  folderPollMs?: number;
  dataDirPollMs?: number;
}

const isInside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
};

const nameClash = (entries: IndexEntry[], name: string, exceptFolder?: string): IndexEntry | undefined =>
  entries.find((e) => e.folder !== exceptFolder && e.name.toLowerCase() === name.toLowerCase());

const nameTaken = (clash: IndexEntry): MockdevError =>
  new MockdevError('NAME_TAKEN', `A project named "${clash.name}" already exists (id ${clash.id})`, {
    hint: 'Choose another name, or update the existing project',
    details: { existingId: clash.id },
  });

/**
 * Projects as folders of JSON files (DECISIONS "Where state lives"): managed projects in
 * `<data>/projects/<id>/`, and projects in folders the user chose (`init`). Writes are atomic and
 * serialised by lock files: one per project folder, and one for the data directory around
 * anything that takes or changes a name. A project's key is its absolute folder.
 */
export class FolderProjectStore implements ProjectStore {
  readonly projectsDir: string;
  private readonly index: ProjectIndex;

  constructor(
    dataDir: string,
    private readonly options: FolderProjectStoreOptions = {},
  ) {
    this.projectsDir = resolve(dataPaths(dataDir).projects);
    this.index = new ProjectIndex(this.projectsDir);
  }

  private stored(dir: string, content: { project: ProjectFile; endpoints: Endpoint[] }): StoredProject {
    return {
      key: dir,
      location: dir,
      managed: isInside(this.projectsDir, dir),
      project: content.project,
      endpoints: content.endpoints,
    };
  }

  private async readDir(dir: string): Promise<StoredProject | undefined> {
    const content = await readFolder(dir);
    return content && this.stored(dir, content);
  }

  /** Serialises what takes or changes a name among the managed projects. */
  private async withDataDirLock<T>(fn: () => Promise<T>): Promise<T> {
    try {
      await fs.mkdir(this.projectsDir, { recursive: true });
    } catch (e) {
      throw ioError(`Could not create the data directory ${this.projectsDir}`, e);
    }
    return withLock(join(this.projectsDir, LOCK_FILE), fn);
  }

  /**
   * Brings the name index up to date. A lookup must work in a data directory this process
   * cannot write (shared read-only): then the index is rebuilt in memory only.
   */
  private async refreshIndex(): Promise<{ entries: IndexEntry[]; errors: MockdevError[] }> {
    if (!existsSync(this.projectsDir)) return { entries: [], errors: [] };
    try {
      return await withLock(join(this.projectsDir, LOCK_FILE), () => this.index.refresh());
    } catch (e) {
      if (!(e instanceof MockdevError && e.code === 'IO_ERROR')) throw e;
      return this.index.refresh({ write: false });
    }
  }

  private async indexEntries(): Promise<IndexEntry[]> {
    return (await this.index.load()) ?? (await this.refreshIndex()).entries;
  }

  async list(): Promise<{ projects: StoredProject[]; errors: MockdevError[] }> {
    const entries = await readFolderNames(this.projectsDir);
    const projects: StoredProject[] = [];
    const errors: MockdevError[] = [];
    await Promise.all(
      entries
        .filter((e) => !e.startsWith('.'))
        .map(async (entry) => {
          try {
            const found = await this.readDir(join(this.projectsDir, entry));
            if (found) projects.push(found);
          } catch (e) {
            if (e instanceof MockdevError) errors.push(e);
            else throw e;
          }
        }),
    );
    projects.sort(
      (a, b) =>
        a.project.createdAt.localeCompare(b.project.createdAt) ||
        a.project.name.localeCompare(b.project.name),
    );
    return { projects, errors };
  }

  async names(): Promise<{ id: string; name: string }[]> {
    return (await this.indexEntries()).map((e) => ({ id: e.id, name: e.name }));
  }

  async get(id: string): Promise<StoredProject | undefined> {
    return (await this.find(id)).find((p) => p.project.id === id);
  }

  async find(ref: string): Promise<StoredProject[]> {
    // Projects made here live in a folder named after their id: no index needed.
    if (ID_PATTERN.test(ref)) {
      const direct = join(this.projectsDir, ref);
      const project = await readProjectFile(direct);
      if (project?.id === ref)
        return [this.stored(direct, { project, endpoints: await readEndpointsFile(direct) })];
    }
    const pick = (entries: IndexEntry[]): IndexEntry[] => {
      const byId = entries.filter((e) => e.id === ref);
      if (byId.length) return byId.slice(0, 1);
      const exact = entries.filter((e) => e.name === ref);
      return exact.length ? exact : entries.filter((e) => e.name.toLowerCase() === ref.toLowerCase());
    };
    for (let attempt = 0; attempt < 2; attempt++) {
      const entries = attempt === 0 ? await this.indexEntries() : (await this.refreshIndex()).entries;
      const candidates = pick(entries);
      if (candidates.length === 0) continue;
      // Verify against the projects themselves: the index may be older than a hand edit. A
      // broken file of a candidate is reported (it must never make a project disappear).
      const projects = await Promise.all(
        candidates.map(async (c) => {
          const dir = join(this.projectsDir, c.folder);
          const project = await readProjectFile(dir);
          if (project?.id !== c.id || project.name !== c.name) return undefined;
          return this.stored(dir, { project, endpoints: await readEndpointsFile(dir) });
        }),
      );
      if (projects.every((p) => p !== undefined)) return projects as StoredProject[];
    }
    return [];
  }

  async openFolder(path: string, cwd: string): Promise<StoredProject | undefined> {
    return this.readDir(resolve(cwd, path));
  }

  async read(key: string): Promise<StoredProject> {
    const found = await this.readDir(key);
    if (!found) {
      throw new MockdevError('PROJECT_NOT_FOUND', `No project in ${key} (${PROJECT_FILE} is missing)`, {
        hint: (say) => `${say.action('initProject')}, or give a project id or name`,
      });
    }
    return found;
  }

  async create(
    project: ProjectFile,
    endpoints: Endpoint[],
    options: { folder?: { path: string; cwd: string; overwrite?: boolean } } = {},
  ): Promise<StoredProject> {
    if (options.folder) {
      const dir = resolve(options.folder.cwd, options.folder.path);
      await this.writeNewFolder(dir, project, endpoints, options.folder.overwrite === true);
      return this.stored(dir, { project, endpoints });
    }
    return this.withDataDirLock(async () => {
      const { entries } = await this.index.refresh();
      const clash = nameClash(entries, project.name);
      if (clash) throw nameTaken(clash);
      const dir = join(this.projectsDir, project.id);
      await this.writeNewFolder(dir, project, endpoints, false);
      await this.index.record(entries, project.id, project.id, project.name);
      return this.stored(dir, { project, endpoints });
    });
  }

  private async writeNewFolder(
    dir: string,
    project: ProjectFile,
    endpoints: Endpoint[],
    overwrite: boolean,
  ): Promise<void> {
    try {
      await fs.mkdir(dir, { recursive: true });
    } catch (e) {
      throw ioError(`Could not create folder ${dir}`, e);
    }
    await withLock(join(dir, LOCK_FILE), async () => {
      if (!overwrite && (await hasProject(dir))) {
        throw new MockdevError('CONFLICT', `${join(dir, PROJECT_FILE)} already exists`, {
          hint: (say) => `${say.turnOn('force')} to overwrite it, or choose another folder`,
        });
      }
      await writeFolder(dir, { endpoints, project });
    });
  }

  async update<T>(
    key: string,
    change: (current: StoredProject) => ProjectChangeResult<T> | Promise<ProjectChangeResult<T>>,
  ): Promise<T> {
    return withLock(join(key, LOCK_FILE), async () => {
      const current = await this.read(key);
      const next = await change(current);
      const renamed =
        current.managed && next.project !== undefined && next.project.name !== current.project.name;
      if (!renamed) {
        await writeFolder(key, next);
        return next.result;
      }
      const folder = basename(key);
      await this.withDataDirLock(async () => {
        const { entries } = await this.index.refresh();
        const clash = nameClash(entries, next.project!.name, folder);
        if (clash) throw nameTaken(clash);
        await writeFolder(key, next);
        await this.index.record(entries, folder, next.project!.id, next.project!.name);
      });
      return next.result;
    });
  }

  async remove(key: string): Promise<void> {
    const managed = isInside(this.projectsDir, key);
    await withLock(join(key, LOCK_FILE), async () => {
      if (managed) {
        await fs.rm(key, { recursive: true, force: true });
      } else {
        await fs.rm(join(key, PROJECT_FILE), { force: true });
        await fs.rm(join(key, ENDPOINTS_FILE), { force: true });
      }
    }).catch((e) => {
      if (e instanceof MockdevError) throw e;
      throw ioError(`Could not delete ${key}`, e);
    });
    if (managed) await this.refreshIndex();
  }

  watch(listener: (change: ProjectChange) => void, options: { key?: string } = {}): Subscription {
    if (options.key !== undefined)
      return watchFolder(options.key, listener, this.options.folderPollMs ?? 500);
    return watchProjectsDir(this.projectsDir, listener, this.options.dataDirPollMs ?? 1000);
  }
}
