import { promises as fs } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { MockdevError } from '../../core/errors.js';
import type { ContractStore, StoredContract, StoredProject } from '../../core/ports.js';
import { ioError, writeFileAtomic } from './json-file.js';
import { PROJECT_FILE, readProjectFile } from './project-folder.js';
import { isInside } from './project-lookup.js';
import { PRIVATE_FILE, SHARED_FILE } from './private.js';

/**
 * A project's contract document (docs/contract.md): `contract.yaml` or `contract.json` in the
 * project's folder, as the document was written, beside project.json (whose `contract.file`
 * names it). Written atomically; private in the data directory, the user's elsewhere (as the
 * project's other files). Deleting a folder project removes these files too (project-store.ts).
 */

/** The names mockdev writes a contract under: one per format. */
export const CONTRACT_FILES = { yaml: 'contract.yaml', json: 'contract.json' } as const;

/** A name project.json may give: a file in the project's folder, never a path out of it. */
const isPlainName = (name: string): boolean =>
  name !== '.' && name !== '..' && basename(name) === name && !/[\\/]/.test(name) && !name.includes('\0');

/**
 * The contract file a folder's project.json names, when it is one mockdev writes (a deleted
 * project takes it along); undefined otherwise, or when project.json cannot be read.
 */
export async function ownContractFile(dir: string): Promise<string | undefined> {
  const file = await readProjectFile(dir).then(
    (p) => p?.contract?.file,
    () => undefined,
  );
  return file !== undefined && (Object.values(CONTRACT_FILES) as string[]).includes(file) ? file : undefined;
}

export class FileContractStore implements ContractStore {
  private readonly dataDir: string;

  constructor(dataDir: string) {
    this.dataDir = resolve(dataDir);
  }

  /** The document's path, from project.json's `contract.file`; CORRUPT_FILE when it names a path. */
  private fileOf(project: StoredProject): string | undefined {
    const name = project.project.contract?.file;
    if (name === undefined) return undefined;
    if (!isPlainName(name)) {
      const file = join(project.key, PROJECT_FILE);
      throw new MockdevError(
        'CORRUPT_FILE',
        `${file} names the contract file "${name}", which is not a file name in the project's folder`,
        {
          hint: 'Give contract.file as a file name (such as contract.yaml), or run "mockdev contract import" again',
          details: { file, path: 'contract.file' },
        },
      );
    }
    return join(project.key, name);
  }

  async read(project: StoredProject): Promise<StoredContract | undefined> {
    const file = this.fileOf(project);
    if (file === undefined) return undefined;
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT')
        throw new MockdevError(
          'CORRUPT_FILE',
          `The contract file ${file} that ${PROJECT_FILE} names is missing`,
          {
            hint: 'Run "mockdev contract import" again, or restore the file',
            details: { file },
          },
        );
      throw ioError(`Could not read ${file}`, e, file);
    }
    return { text, file: basename(file), location: file };
  }

  async write(project: StoredProject, text: string, format: 'json' | 'yaml'): Promise<string> {
    const name = CONTRACT_FILES[format];
    const mode = isInside(this.dataDir, project.key) ? PRIVATE_FILE : SHARED_FILE;
    await writeFileAtomic(join(project.key, name), text, mode);
    return name;
  }

  async remove(project: StoredProject): Promise<void> {
    const file = this.fileOf(project);
    if (file === undefined) return;
    try {
      await fs.rm(file, { force: true });
    } catch (e) {
      throw ioError(`Could not delete ${file}`, e, file);
    }
  }
}
