import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { MockdevError } from '../../core/errors.js';
import { TreeStateSchema, type TreeState } from '../../core/model/ui-state.js';
import type { UiStateStore } from '../../core/ports.js';
import { dataPaths } from './data-dir.js';
import { ioError, readJsonFile, writeJsonAtomic } from './json-file.js';
import { PRIVATE_DIR } from './private.js';

/** ui-state/<project id>.json in the data directory (outside project folders, which may be in git). */
export class FileUiStateStore implements UiStateStore {
  readonly dir: string;
  constructor(dataDir: string) {
    this.dir = dataPaths(dataDir).uiState;
  }

  private file(projectId: string): string {
    if (!/^[A-Za-z0-9_-]{1,128}$/.test(projectId))
      throw new MockdevError('INVALID_ARGUMENT', `"${projectId}" is not a project id`);
    return join(this.dir, `${projectId}.json`);
  }

  async readTree(projectId: string): Promise<TreeState | undefined> {
    const file = this.file(projectId);
    let raw: unknown;
    try {
      raw = await readJsonFile(file);
    } catch {
      // A damaged UI state costs only which folders are open: as if never saved, never fail.
      return undefined;
    }
    if (raw === undefined) return undefined;
    const parsed = TreeStateSchema.safeParse(raw);
    return parsed.success ? parsed.data : undefined;
  }

  async writeTree(projectId: string, state: TreeState): Promise<void> {
    const file = this.file(projectId);
    try {
      await fs.mkdir(this.dir, { recursive: true, mode: PRIVATE_DIR });
    } catch (e) {
      throw ioError(`Could not create ${this.dir}`, e);
    }
    await writeJsonAtomic(file, { expanded: [...new Set(state.expanded)] });
  }

  async removeProject(projectId: string): Promise<void> {
    await fs.rm(this.file(projectId), { force: true }).catch(() => undefined);
  }
}
