import { existsSync, promises as fs } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { Flow } from '../../core/model/flow.js';
import { MockdevError } from '../../core/errors.js';
import { ID_PATTERN } from '../../core/ids.js';
import type { Endpoint } from '../../core/model/endpoint.js';
import type { ProjectFile } from '../../core/model/project.js';
import type { Resource } from '../../core/model/resource.js';
import type {
  ProjectChange,
  ProjectChangeResult,
  ProjectQuery,
  ProjectSummary,
  ProjectStore,
  StoredProject,
  Subscription,
  UnreadableProject,
} from '../../core/ports.js';
import { watchFolder, watchProjectsDir } from './change-feed.js';
import { dataPaths, makeFolders } from './data-dir.js';
import { FolderRegistry, realFolder, type KnownFolder } from './folder-registry.js';
import { ioError, readFolderNames } from './json-file.js';
import { ownContractFile } from './contract-files.js';
import { withLock } from './lock.js';
import { PRIVATE_DIR, PRIVATE_FILE, SHARED_FILE } from './private.js';
import { ProjectIndex, type IndexEntry } from './project-index.js';
import { NONE, isInside, nameClash, nameTaken, pick, type Found } from './project-lookup.js';
import {
  ENDPOINTS_FILE,
  FLOWS_FILE,
  RESOURCES_FILE,
  LOCK_FILE,
  PROJECT_FILE,
  hasProject,
  readFolderLists,
  readFolder,
  readProjectFile,
  writeFolder,
} from './project-folder.js';

export interface FolderProjectStoreOptions {
  /** How often the change feed polls (ms): one folder, and the whole data directory. */
  folderPollMs?: number;
  dataDirPollMs?: number;
  /** Told, in one line, of what the store did on its own (a broken list of folders moved aside). */
  onWarning?: (message: string) => void;
}

/**
 * Projects as folders of JSON files (DECISIONS "Where state lives"): managed projects in
 * `<data>/projects/<id>/`, and projects in folders the user chose (`init`), which the data
 * directory remembers (folders.json) once made, served or opened by their folder. Writes are
 * atomic and serialised by lock files: one per project folder, and one for the data directory
 * around anything that takes or changes a name. A project's key is its absolute folder.
 */
export class FolderProjectStore implements ProjectStore {
  readonly dataDir: string;
  readonly projectsDir: string;
  private readonly index: ProjectIndex;
  private readonly folders: FolderRegistry;

  constructor(
    dataDir: string,
    private readonly options: FolderProjectStoreOptions = {},
  ) {
    this.dataDir = resolve(dataDir);
    this.projectsDir = resolve(dataPaths(dataDir).projects);
    this.index = new ProjectIndex(this.projectsDir);
    this.folders = new FolderRegistry(resolve(dataPaths(dataDir).folders), { onWarning: options.onWarning });
  }

  private stored(
    dir: string,
    content: { project: ProjectFile; endpoints: Endpoint[]; flows: Flow[]; resources?: Resource[] },
  ): StoredProject {
    return {
      key: dir,
      location: dir,
      managed: isInside(this.projectsDir, dir),
      project: content.project,
      endpoints: content.endpoints,
      flows: content.flows,
      resources: content.resources ?? [],
    };
  }

  /** Whether a folder lies in the data directory: what is there is private (private.ts). */
  private inDataDir(dir: string): boolean {
    return isInside(this.dataDir, dir);
  }

  /** The mode of a project's files: private in the data directory, the user's (umask) elsewhere. */
  private fileMode(dir: string): number {
    return this.inDataDir(dir) ? PRIVATE_FILE : SHARED_FILE;
  }

  private async readDir(dir: string): Promise<StoredProject | undefined> {
    const content = await readFolder(dir);
    return content && this.stored(dir, content);
  }

  /** Serialises what takes or changes a name among the managed projects. */
  private async withDataDirLock<T>(fn: () => Promise<T>): Promise<T> {
    try {
      await fs.mkdir(this.projectsDir, { recursive: true, mode: PRIVATE_DIR });
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

  /** The known folder projects a query reaches: none, all, or those inside the data directory. */
  private async knownFolders(query: ProjectQuery): Promise<KnownFolder[]> {
    if (query.managedOnly) return [];
    const known = await this.folders.current();
    if (!query.dataDirOnly || known.length === 0) return known;
    const root = await realFolder(this.dataDir);
    return known.filter((k) => isInside(root, k.dir));
  }

  async list(
    query: ProjectQuery = {},
  ): Promise<{ projects: StoredProject[]; unreadable: UnreadableProject[] }> {
    const [entries, known] = await Promise.all([readFolderNames(this.projectsDir), this.knownFolders(query)]);
    const projects: StoredProject[] = [];
    const failed: { dir: string; error: MockdevError; known?: KnownFolder }[] = [];
    const dirs: { dir: string; known?: KnownFolder }[] = [
      ...entries.filter((e) => !e.startsWith('.')).map((dir) => ({ dir: join(this.projectsDir, dir) })),
      ...known.map((k) => ({ dir: k.dir, known: k })),
    ];
    await Promise.all(
      dirs.map(async ({ dir, known }) => {
        try {
          const found = await this.readDir(dir);
          if (found) projects.push(found);
        } catch (e) {
          if (e instanceof MockdevError) failed.push({ dir, error: e, known });
          else throw e;
        }
      }),
    );
    projects.sort(
      (a, b) =>
        a.project.createdAt.localeCompare(b.project.createdAt) ||
        a.project.name.localeCompare(b.project.name),
    );
    return { projects, unreadable: await this.unreadable(failed) };
  }

  /** Projects that could not be read, with the id and name the index or the known folders had. */
  private async unreadable(
    failed: { dir: string; error: MockdevError; known?: KnownFolder }[],
  ): Promise<UnreadableProject[]> {
    if (failed.length === 0) return [];
    const index = new Map((await this.index.load())?.map((e) => [join(this.projectsDir, e.folder), e]));
    return failed
      .map(({ dir, error, known }) => {
        const before = known ?? index.get(dir);
        const file = error.details?.file;
        return {
          key: dir,
          location: dir,
          managed: isInside(this.projectsDir, dir),
          file: typeof file === 'string' ? file : join(dir, PROJECT_FILE),
          error,
          ...(before ? { id: before.id, name: before.name } : {}),
        };
      })
      .sort((a, b) => a.location.localeCompare(b.location));
  }

  /** From the index brought up to date (a stat per project; only changed project.json files are read). */
  async summaries(query: ProjectQuery = {}): Promise<ProjectSummary[]> {
    const [{ entries }, known] = await Promise.all([this.refreshIndex(), this.knownFolders(query)]);
    return [
      ...entries.map(({ id, name, port }) => ({ id, name, port, managed: true })),
      ...known.map(({ id, name, port }) => ({ id, name, port, managed: false })),
    ];
  }

  async get(id: string): Promise<StoredProject | undefined> {
    return (await this.find(id, { managedOnly: true })).find((p) => p.project.id === id);
  }

  /**
   * Managed projects and known folder projects alike: the best kind of match wins (id, then
   * exact name, then name in another case), and every project that matches that way is returned.
   */
  async find(ref: string, query: ProjectQuery = {}): Promise<StoredProject[]> {
    const [managed, folders] = await Promise.all([
      this.findManaged(ref),
      query.managedOnly ? NONE : this.findFolders(ref, query),
    ]);
    if (managed.projects.length === 0) return folders.projects;
    if (folders.projects.length === 0 || managed.rank < folders.rank) return managed.projects;
    if (folders.rank < managed.rank) return folders.projects;
    return [...managed.projects, ...folders.projects];
  }

  private async findManaged(ref: string): Promise<Found> {
    // Projects made here live in a folder named after their id: no index needed.
    if (ID_PATTERN.test(ref)) {
      const direct = join(this.projectsDir, ref);
      const project = await readProjectFile(direct);
      if (project?.id === ref)
        return {
          rank: 0,
          projects: [this.stored(direct, { project, ...(await readFolderLists(direct)) })],
        };
    }
    for (let attempt = 0; attempt < 2; attempt++) {
      const entries = attempt === 0 ? await this.indexEntries() : (await this.refreshIndex()).entries;
      const { rank, picked } = pick(entries, ref);
      if (picked.length === 0) continue;
      const candidates = rank === 0 ? picked.slice(0, 1) : picked;
      // Verify against the projects themselves: the index may be older than a hand edit. A
      // broken file of a candidate is reported (it must never make a project disappear).
      const projects = await Promise.all(
        candidates.map(async (c) => {
          const dir = join(this.projectsDir, c.folder);
          const project = await readProjectFile(dir);
          if (project?.id !== c.id || project.name !== c.name) return undefined;
          return this.stored(dir, { project, ...(await readFolderLists(dir)) });
        }),
      );
      if (projects.every((p) => p !== undefined)) return { rank, projects: projects as StoredProject[] };
    }
    return NONE;
  }

  /** The known folder projects an id or name refers to, read from their folders. */
  private async findFolders(ref: string, query: ProjectQuery): Promise<Found> {
    const { rank, picked } = pick(await this.knownFolders(query), ref);
    // A broken file of a candidate is reported, as for managed projects.
    const read = await Promise.all(
      picked.map(async (k: KnownFolder) => {
        const found = await this.readDir(k.dir);
        // Changed since it was checked (a rename a moment ago): not what was asked for.
        return found?.project.id === k.id && found.project.name === k.name ? found : undefined;
      }),
    );
    const projects = read.filter((p): p is StoredProject => p !== undefined);
    return projects.length ? { rank, projects } : NONE;
  }

  /** Opens the project in a folder and, when it is not a managed one, remembers the folder. */
  async openFolder(path: string, cwd: string): Promise<StoredProject | undefined> {
    const found = await this.readDir(resolve(cwd, path));
    if (found) await this.remember(found);
    return found;
  }

  /**
   * Adds a folder project to the known folders. A managed project reached through another
   * spelling of its path (a symlink in it) is not one: it would be found twice.
   */
  private async remember(stored: StoredProject): Promise<void> {
    if (stored.managed) return;
    const [root, dir] = await Promise.all([realFolder(this.projectsDir), realFolder(stored.key)]);
    if (isInside(root, dir)) return;
    await this.folders.remember(dir, stored.project);
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
    options: { folder?: { path: string; cwd: string; overwrite?: boolean }; flows?: Flow[] } = {},
  ): Promise<StoredProject> {
    const flows = options.flows ?? [];
    if (options.folder) {
      const dir = resolve(options.folder.cwd, options.folder.path);
      await this.writeNewFolder(dir, project, endpoints, flows, options.folder.overwrite === true);
      const created = this.stored(dir, { project, endpoints, flows });
      await this.remember(created);
      return created;
    }
    return this.withDataDirLock(async () => {
      const { entries } = await this.index.refresh();
      const clash = nameClash(entries, project.name);
      if (clash) throw nameTaken(clash);
      const dir = join(this.projectsDir, project.id);
      await this.writeNewFolder(dir, project, endpoints, flows, false);
      await this.index.record(entries, project.id, project);
      return this.stored(dir, { project, endpoints, flows });
    });
  }

  private async writeNewFolder(
    dir: string,
    project: ProjectFile,
    endpoints: Endpoint[],
    flows: Flow[],
    overwrite: boolean,
  ): Promise<void> {
    try {
      // Not fs.mkdir's recursive mode: under /proc it retries forever.
      makeFolders(dir, this.inDataDir(dir) ? PRIVATE_DIR : undefined);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOTDIR') {
        // `init notes.txt`, or `init notes.txt/api`: the path is (or goes through) a file.
        throw new MockdevError(
          'INVALID_ARGUMENT',
          `${dir} is not a folder: it or a folder above it is a file`,
          {
            hint: 'Give the path of a folder (new or existing) for project.json and endpoints.json',
          },
        );
      }
      throw ioError(`Could not create folder ${dir}`, e);
    }
    await withLock(join(dir, LOCK_FILE), async () => {
      if (!overwrite && (await hasProject(dir))) {
        throw new MockdevError('CONFLICT', `${join(dir, PROJECT_FILE)} already exists`, {
          hint: (say) => `${say.turnOn('force')} to overwrite it, or choose another folder`,
        });
      }
      // The flows of a project this one overwrites are not its own.
      if (flows.length === 0) await fs.rm(join(dir, FLOWS_FILE), { force: true });
      await fs.rm(join(dir, RESOURCES_FILE), { force: true });
      await writeFolder(dir, { endpoints, project, ...(flows.length ? { flows } : {}) }, this.fileMode(dir));
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
        await writeFolder(key, next, this.fileMode(key));
        return next.result;
      }
      const folder = basename(key);
      await this.withDataDirLock(async () => {
        const { entries } = await this.index.refresh();
        const clash = nameClash(entries, next.project!.name, folder);
        if (clash) throw nameTaken(clash);
        await writeFolder(key, next, this.fileMode(key));
        await this.index.record(entries, folder, next.project!);
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
        // The contract document project.json names goes too, when mockdev wrote it (its name).
        const contractFile = await ownContractFile(key);
        await fs.rm(join(key, PROJECT_FILE), { force: true });
        await fs.rm(join(key, ENDPOINTS_FILE), { force: true });
        await fs.rm(join(key, FLOWS_FILE), { force: true });
        await fs.rm(join(key, RESOURCES_FILE), { force: true });
        if (contractFile) await fs.rm(join(key, contractFile), { force: true });
      }
    }).catch((e) => {
      if (e instanceof MockdevError) throw e;
      throw ioError(`Could not delete ${key}`, e);
    });
    if (managed) await this.refreshIndex();
    else await this.folders.forget(key);
  }

  watch(listener: (change: ProjectChange) => void, options: { key?: string } = {}): Subscription {
    if (options.key !== undefined)
      return watchFolder(options.key, listener, this.options.folderPollMs ?? 500);
    return watchProjectsDir(this.projectsDir, listener, this.options.dataDirPollMs ?? 1000);
  }
}
