import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { SettingsSchema, type Settings } from '../../core/model/settings.js';
import type { SettingsStore } from '../../core/ports.js';
import { dataPaths } from './data-dir.js';
import { checkShape, ioError, readJsonFile, writeJsonAtomic } from './json-file.js';
import { withLock } from './lock.js';
import { PRIVATE_DIR } from './private.js';

/** settings.json in the data directory; defaults when the file does not exist. */
export class FileSettingsStore implements SettingsStore {
  readonly file: string;
  constructor(private readonly dataDir: string) {
    this.file = dataPaths(dataDir).settings;
  }

  async read(): Promise<Settings> {
    const raw = await readJsonFile(this.file);
    return checkShape(this.file, SettingsSchema, raw ?? {});
  }

  async update(patch: Partial<Settings>): Promise<Settings> {
    try {
      await fs.mkdir(this.dataDir, { recursive: true, mode: PRIVATE_DIR });
    } catch (e) {
      throw ioError(`Could not create the data directory ${this.dataDir}`, e);
    }
    return withLock(join(this.dataDir, '.settings.lock'), async () => {
      const next = SettingsSchema.parse({ ...(await this.read()), ...patch });
      await writeJsonAtomic(this.file, next);
      return next;
    });
  }
}
