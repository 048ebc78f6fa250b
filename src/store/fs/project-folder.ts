import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { MockdevError } from '../../core/errors.js';
import { EndpointListSchema, type Endpoint } from '../../core/model/endpoint.js';
import { FlowListSchema, type Flow } from '../../core/model/flow.js';
import { ResourceListSchema, type Resource } from '../../core/model/resource.js';
import { PROJECT_SCHEMA_VERSION, ProjectFileSchema, type ProjectFile } from '../../core/model/project.js';
import * as z from 'zod';
import { checkShape, ioError, readJsonFile, writeJsonAtomic } from './json-file.js';

/**
 * One project folder: `project.json`, `endpoints.json` and, once it has flows, `flows.json`, and
 * once it has resources, `resources.json` (DECISIONS "Where state lives"), read and written
 * whole. A folder is a project once `project.json` exists. `project.json`'s schemaVersion covers
 * them all.
 */
export const PROJECT_FILE = 'project.json';
export const ENDPOINTS_FILE = 'endpoints.json';
export const FLOWS_FILE = 'flows.json';
export const RESOURCES_FILE = 'resources.json';
export const LOCK_FILE = '.mockdev.lock';

/** What the name index and the known-folders list keep of a project.json, with its stamp. */
export const ProjectStampSchema = z.object({
  id: z.string(),
  name: z.string(),
  port: z.number(),
  /** inode, size and mtime of project.json when it was read. */
  stamp: z.string(),
});
export type ProjectStamp = z.infer<typeof ProjectStampSchema>;

/** The stamp of a folder's project.json (inode, size, mtime); undefined when it holds none. */
export async function projectFileStamp(dir: string): Promise<string | undefined> {
  const file = join(dir, PROJECT_FILE);
  try {
    const s = await fs.stat(file, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}`;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw ioError(`Could not read ${file}`, e);
  }
}

export interface FolderContent {
  project: ProjectFile;
  endpoints: Endpoint[];
  flows: Flow[];
  resources: Resource[];
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
      { hint: 'Upgrade mockdev to open this project', details: { file } },
    );
  }
  // Version 0: files written by hand before schemaVersion existed. Same fields otherwise.
  if (version === 0) return { ...obj, schemaVersion: 1 };
  return obj;
}

/** project.json of a folder, validated; undefined when the folder holds none. */
export async function readProjectFile(dir: string): Promise<ProjectFile | undefined> {
  const file = join(dir, PROJECT_FILE);
  const raw = await readJsonFile(file);
  if (raw === undefined) return undefined;
  return checkShape(file, ProjectFileSchema, migrateProjectFile(file, raw));
}

/** endpoints.json of a folder, validated; none when the file does not exist. */
export async function readEndpointsFile(dir: string): Promise<Endpoint[]> {
  const file = join(dir, ENDPOINTS_FILE);
  const raw = await readJsonFile(file);
  return raw === undefined ? [] : checkShape(file, EndpointListSchema, raw);
}

/** flows.json of a folder, validated; none when the file does not exist. */
export async function readFlowsFile(dir: string): Promise<Flow[]> {
  const file = join(dir, FLOWS_FILE);
  const raw = await readJsonFile(file);
  return raw === undefined ? [] : checkShape(file, FlowListSchema, raw);
}

/** resources.json of a folder, validated; none when the file does not exist. */
export async function readResourcesFile(dir: string): Promise<Resource[]> {
  const file = join(dir, RESOURCES_FILE);
  const raw = await readJsonFile(file);
  return raw === undefined ? [] : checkShape(file, ResourceListSchema, raw);
}

/** What a folder holds beside its project.json: endpoints, flows and resources, validated. */
export async function readFolderLists(
  dir: string,
): Promise<{ endpoints: Endpoint[]; flows: Flow[]; resources: Resource[] }> {
  const [endpoints, flows, resources] = await Promise.all([
    readEndpointsFile(dir),
    readFlowsFile(dir),
    readResourcesFile(dir),
  ]);
  return { endpoints, flows, resources };
}

/** Every file of a folder, validated; undefined when it holds no project.json. */
export async function readFolder(dir: string): Promise<FolderContent | undefined> {
  const [project, lists] = await Promise.all([readProjectFile(dir), readFolderLists(dir)]);
  return project && { project, ...lists };
}

export async function hasProject(dir: string): Promise<boolean> {
  try {
    await fs.access(join(dir, PROJECT_FILE));
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes what changed: endpoints, flows and resources first, then project.json (a folder is a
 * project once it exists). `mode`: the files' permissions (private in the data directory, the
 * user's elsewhere). A project without flows (resources) gets no flows.json (resources.json)
 * until it has one (`init` writes two files); once written, it stays (an empty list).
 */
export async function writeFolder(
  dir: string,
  content: { project?: ProjectFile; endpoints?: Endpoint[]; flows?: Flow[]; resources?: Resource[] },
  mode: number,
): Promise<void> {
  if (content.resources !== undefined)
    await writeJsonAtomic(join(dir, RESOURCES_FILE), ResourceListSchema.parse(content.resources), mode);
  if (content.flows !== undefined)
    await writeJsonAtomic(join(dir, FLOWS_FILE), FlowListSchema.parse(content.flows), mode);
  if (content.endpoints !== undefined)
    await writeJsonAtomic(join(dir, ENDPOINTS_FILE), EndpointListSchema.parse(content.endpoints), mode);
  if (content.project !== undefined)
    await writeJsonAtomic(join(dir, PROJECT_FILE), ProjectFileSchema.parse(content.project), mode);
}
