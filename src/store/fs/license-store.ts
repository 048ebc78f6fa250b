import { promises as fs } from 'node:fs';
import { MockdevError } from '../../core/errors.js';
import { StoredLicenseSchema, type StoredLicense } from '../../core/model/license.js';
import type { LicenseStore } from '../../core/ports.js';
import { dataPaths } from './data-dir.js';
import { formatJson, ioError, writeFileAtomic } from './json-file.js';
import { PRIVATE_DIR } from './private.js';

/**
 * license.json in the data directory, readable by the user only (0600). Its errors never quote
 * the file's text: it holds the key.
 */
export class FileLicenseStore implements LicenseStore {
  readonly file: string;
  constructor(private readonly dataDir: string) {
    this.file = dataPaths(dataDir).license;
  }

  async read(): Promise<StoredLicense | undefined> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw ioError(`Could not read ${this.file}`, e);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw this.corrupt('is not valid JSON');
    }
    const parsed = StoredLicenseSchema.safeParse(json);
    if (!parsed.success) throw this.corrupt('does not hold a license (key, activation, activatedAt)');
    return parsed.data;
  }

  async write(license: StoredLicense): Promise<void> {
    try {
      await fs.mkdir(this.dataDir, { recursive: true, mode: PRIVATE_DIR });
    } catch (e) {
      throw ioError(`Could not create the data directory ${this.dataDir}`, e);
    }
    await writeFileAtomic(this.file, formatJson(StoredLicenseSchema.parse(license)), 0o600);
  }

  private corrupt(why: string): MockdevError {
    return new MockdevError('CORRUPT_FILE', `${this.file} ${why}`, {
      hint: 'Activate your license again (mockdev license activate <KEY>), which replaces the file',
      details: { file: this.file },
    });
  }
}
