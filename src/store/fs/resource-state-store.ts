import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { MockdevError } from '../../core/errors.js';
import {
  ResourceSeedSchema,
  ResourceStateSchema,
  type ResourceItem,
  type ResourceState,
} from '../../core/model/resource.js';
import type { ResourceStateStore } from '../../core/ports.js';
import { dataPaths } from './data-dir.js';
import { checkShape, ioError, readJsonFile, writeJsonAtomic } from './json-file.js';
import { PRIVATE_DIR } from './private.js';

const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The state of resources in the data directory (ports-serving.ts ResourceStateStore):
 * resources/<project id>/<resource id>.json, written whole and atomically, and
 * <resource id>.r<revision>.json for staged items.
 */
export class FileResourceStateStore implements ResourceStateStore {
  readonly dir: string;
  constructor(dataDir: string) {
    this.dir = dataPaths(dataDir).resources;
  }

  private folder(projectId: string): string {
    if (!SAFE_ID.test(projectId))
      throw new MockdevError('INVALID_ARGUMENT', `"${projectId}" is not a project id`);
    return join(this.dir, projectId);
  }

  private file(projectId: string, resourceId: string, revision?: number): string {
    if (!SAFE_ID.test(resourceId))
      throw new MockdevError('INVALID_ARGUMENT', `"${resourceId}" is not a resource id`);
    const suffix = revision === undefined ? '' : `.r${revision}`;
    return join(this.folder(projectId), `${resourceId}${suffix}.json`);
  }

  private async ensureFolder(projectId: string): Promise<void> {
    const dir = this.folder(projectId);
    try {
      await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR });
    } catch (e) {
      throw ioError(`Could not create ${dir}`, e);
    }
  }

  async read(projectId: string, resourceId: string): Promise<ResourceState | undefined> {
    const file = this.file(projectId, resourceId);
    const raw = await readJsonFile(file);
    return raw === undefined ? undefined : checkShape(file, ResourceStateSchema, raw);
  }

  async write(projectId: string, resourceId: string, state: ResourceState): Promise<void> {
    await this.ensureFolder(projectId);
    await writeJsonAtomic(this.file(projectId, resourceId), state);
  }

  /**
   * Writes the items staged for `revision`, and forgets those staged for revisions before the
   * one before it: only the newest two can still be taken (the definition is bumped to
   * `revision` right after; until then it is at most one behind).
   */
  async stage(projectId: string, resourceId: string, revision: number, items: ResourceItem[]): Promise<void> {
    await this.ensureFolder(projectId);
    await writeJsonAtomic(this.file(projectId, resourceId, revision), items);
    const dir = this.folder(projectId);
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    const old = names.filter((n) => {
      const m = /^(.+)\.r(\d+)\.json$/.exec(n);
      return m !== null && m[1] === resourceId && Number(m[2]) < revision - 1;
    });
    await Promise.all(old.map((n) => fs.rm(join(dir, n), { force: true }).catch(() => undefined)));
  }

  async readStaged(
    projectId: string,
    resourceId: string,
    revision: number,
  ): Promise<ResourceItem[] | undefined> {
    const file = this.file(projectId, resourceId, revision);
    const raw = await readJsonFile(file);
    return raw === undefined ? undefined : checkShape(file, ResourceSeedSchema, raw);
  }

  async remove(projectId: string, resourceId: string): Promise<void> {
    const dir = this.folder(projectId);
    const own = (name: string) =>
      name === `${resourceId}.json` || (name.startsWith(`${resourceId}.r`) && name.endsWith('.json'));
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    await Promise.all(names.filter(own).map((n) => fs.rm(join(dir, n), { force: true })));
  }

  async removeProject(projectId: string): Promise<void> {
    await fs.rm(this.folder(projectId), { recursive: true, force: true }).catch(() => undefined);
  }
}
