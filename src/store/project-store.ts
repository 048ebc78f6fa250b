import { promises as fs, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { MockdevError } from '../core/errors.js';
import { EndpointListSchema, type Endpoint } from '../core/model/endpoint.js';
import { PROJECT_SCHEMA_VERSION, ProjectFileSchema, type ProjectFile } from '../core/model/project.js';
import { dataPaths } from './data-dir.js';
import { checkShape, ioError, parseJsonText, readJsonFile, writeJsonAtomic } from './json-file.js';
import { withLock } from './lock.js';

export const PROJECT_FILE = 'project.json';
export const ENDPOINTS_FILE = 'endpoints.json';
const LOCK_FILE = '.mockdev.lock';

/** A project as it sits on disk: its folder, its project.json and its endpoints.json. */
export interface ProjectState {
  dir: string;
  project: ProjectFile;
  endpoints: Endpoint[];
}

/** Upgrades an older project.json to the current schema; refuses one from a newer mockdev. */
export function migrateProjectFile(file: string, raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const obj = raw as Record<string, unknown>;
  const version = obj.schemaVersion ?? 0;
  if (typeof version !== 'number' || !Number.isInteger(version)) return raw;
  if (version > PROJECT_SCHEMA_VERSION) {
    throw new MockdevError(
      'UNSUPPORTED_VERSION',
      `${file} has schemaVersion ${version}, but this mockdev reads up to ${PROJECT_SCHEMA_VERSION}`,
      { hint: 'Upgrade mockdev to open this project' },
    );
  }
  // Version 0: files written by hand before schemaVersion existed. Same fields otherwise.
  if (version === 0) return { ...obj, schemaVersion: 1 };
  return obj;
}

export function parseProjectFile(file: string, raw: unknown): ProjectFile {
  if (raw === undefined) {
    throw new MockdevError('PROJECT_NOT_FOUND', `No ${PROJECT_FILE} in ${file}`);
  }
  return checkShape(file, ProjectFileSchema, migrateProjectFile(file, raw));
}

export function parseEndpoints(file: string, raw: unknown): Endpoint[] {
  if (raw === undefined) return [];
  return checkShape(file, EndpointListSchema, raw);
}

/** Reads endpoints.json synchronously: the mock server's live reload uses it. */
export function readEndpointsSync(dir: string): Endpoint[] {
  const file = join(dir, ENDPOINTS_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw ioError(`Could not read ${file}`, e);
  }
  return parseEndpoints(file, parseJsonText(file, text));
}

export class ProjectStore {
  readonly dataDir: string;
  readonly projectsDir: string;

  constructor(dataDir: string) {
    this.dataDir = dataDir;
    this.projectsDir = dataPaths(dataDir).projects;
  }

  /** Folder of a project made in the data directory. */
  dirFor(id: string): string {
    return join(this.projectsDir, id);
  }

  isInDataDir(dir: string): boolean {
    return (
      resolve(dir).startsWith(resolve(this.projectsDir) + '/') ||
      resolve(dir).startsWith(resolve(this.projectsDir) + '\\')
    );
  }

  async exists(dir: string): Promise<boolean> {
    try {
      await fs.access(join(dir, PROJECT_FILE));
      return true;
    } catch {
      return false;
    }
  }

  async read(dir: string): Promise<ProjectState> {
    const projectPath = join(dir, PROJECT_FILE);
    const endpointsPath = join(dir, ENDPOINTS_FILE);
    const [rawProject, rawEndpoints] = await Promise.all([
      readJsonFile(projectPath),
      readJsonFile(endpointsPath),
    ]);
    if (rawProject === undefined) {
      throw new MockdevError('PROJECT_NOT_FOUND', `No project in ${dir} (${PROJECT_FILE} is missing)`, {
        hint: 'Run "mockdev init" there, or pass a project id or name',
      });
    }
    return {
      dir,
      project: parseProjectFile(projectPath, rawProject),
      endpoints: parseEndpoints(endpointsPath, rawEndpoints),
    };
  }

  /** Every project in the data directory. A broken one is reported, not skipped silently. */
  async list(): Promise<{ states: ProjectState[]; errors: MockdevError[] }> {
    let entries: string[];
    try {
      entries = await fs.readdir(this.projectsDir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { states: [], errors: [] };
      throw ioError(`Could not read ${this.projectsDir}`, e);
    }
    const states: ProjectState[] = [];
    const errors: MockdevError[] = [];
    await Promise.all(
      entries
        .filter((e) => !e.startsWith('.'))
        .map(async (entry) => {
          const dir = join(this.projectsDir, entry);
          if (!(await this.exists(dir))) return;
          try {
            states.push(await this.read(dir));
          } catch (e) {
            if (e instanceof MockdevError) errors.push(e);
            else throw e;
          }
        }),
    );
    states.sort(
      (a, b) =>
        a.project.createdAt.localeCompare(b.project.createdAt) ||
        a.project.name.localeCompare(b.project.name),
    );
    return { states, errors };
  }

  /** Writes a new project folder. Fails with CONFLICT if it already holds a project (unless overwrite). */
  async create(state: ProjectState, options: { overwrite?: boolean } = {}): Promise<void> {
    try {
      await fs.mkdir(state.dir, { recursive: true });
    } catch (e) {
      throw ioError(`Could not create folder ${state.dir}`, e);
    }
    await withLock(join(state.dir, LOCK_FILE), async () => {
      if (!options.overwrite && (await this.exists(state.dir))) {
        throw new MockdevError('CONFLICT', `${join(state.dir, PROJECT_FILE)} already exists`, {
          hint: 'Pass --force to overwrite it, or choose another folder',
        });
      }
      // endpoints first: a folder is a project once project.json exists.
      await writeJsonAtomic(join(state.dir, ENDPOINTS_FILE), state.endpoints);
      await writeJsonAtomic(join(state.dir, PROJECT_FILE), state.project);
    });
  }

  /**
   * Read-modify-write under the project's lock: `change` gets the state as it is on disk now
   * (never a stale copy) and returns the new state and a result. Two processes changing one
   * project at once are serialised, so neither change is lost.
   */
  async update<T>(
    dir: string,
    change: (
      state: ProjectState,
    ) => Promise<{ state: ProjectState; result: T }> | { state: ProjectState; result: T },
  ): Promise<T> {
    return withLock(join(dir, LOCK_FILE), async () => {
      const current = await this.read(dir);
      const { state, result } = await change(current);
      if (state.endpoints !== current.endpoints) {
        await writeJsonAtomic(join(dir, ENDPOINTS_FILE), EndpointListSchema.parse(state.endpoints));
      }
      if (state.project !== current.project || state.endpoints !== current.endpoints) {
        await writeJsonAtomic(join(dir, PROJECT_FILE), ProjectFileSchema.parse(state.project));
      }
      return result;
    });
  }

  /** Deletes a project. Data-dir projects lose their folder; others lose only mockdev's files. */
  async remove(dir: string): Promise<void> {
    await withLock(join(dir, LOCK_FILE), async () => {
      if (this.isInDataDir(dir)) {
        await fs.rm(dir, { recursive: true, force: true });
      } else {
        await fs.rm(join(dir, PROJECT_FILE), { force: true });
        await fs.rm(join(dir, ENDPOINTS_FILE), { force: true });
      }
    }).catch((e) => {
      if (e instanceof MockdevError) throw e;
      throw ioError(`Could not delete ${dir}`, e);
    });
  }

  /** Serialises operations on the whole data directory (creating or renaming projects). */
  async withDataDirLock<T>(fn: () => Promise<T>): Promise<T> {
    try {
      await fs.mkdir(this.projectsDir, { recursive: true });
    } catch (e) {
      throw ioError(`Could not create the data directory ${this.projectsDir}`, e);
    }
    return withLock(join(this.projectsDir, LOCK_FILE), fn);
  }

  /** Absolute folder for a user-given path, relative to cwd. */
  static folder(path: string, cwd = process.cwd()): string {
    return isAbsolute(path) ? path : resolve(cwd, path);
  }
}
