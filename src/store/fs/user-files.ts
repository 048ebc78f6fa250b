import { promises as fs } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { MockdevError } from '../../core/errors.js';
import type { UserFiles } from '../../core/ports.js';
import { writeFileAtomic } from './json-file.js';
import { SHARED_FILE } from './private.js';

const inside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

const why = (e: unknown): string => {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return (e as Error).message;
};

/**
 * Files the user names, on the local disk. The containment rule (`within`) is checked on the
 * path as given and again with every symlink resolved, so a link inside the folder cannot
 * lead out of it.
 */
export class LocalUserFiles implements UserFiles {
  constructor(private readonly cwd: string) {}

  resolve(path: string): string {
    return resolve(this.cwd, path);
  }

  async read(path: string, options: { within?: { root: string; name: string } } = {}): Promise<Buffer> {
    const full = await this.reach(path, options.within);
    try {
      return await fs.readFile(full);
    } catch (e) {
      throw new MockdevError('INVALID_ARGUMENT', `Cannot read ${path}: ${why(e)}`, {
        hint: 'Check the path',
        details: { file: path },
      });
    }
  }

  async list(
    path: string,
    options: { within?: { root: string; name: string } } = {},
  ): Promise<{ name: string; folder: boolean }[] | undefined> {
    const full = await this.reach(path, options.within);
    let entries;
    try {
      if (!(await fs.stat(full)).isDirectory()) return undefined;
      entries = await fs.readdir(full, { withFileTypes: true });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw new MockdevError('INVALID_ARGUMENT', `Cannot read the folder ${path}: ${why(e)}`, {
        hint: 'Check the path',
        details: { file: path },
      });
    }
    return entries
      .map((d) => ({ name: d.name, folder: d.isDirectory() }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** The absolute path of `path`, refused when `within` is given and it leads outside. */
  private async reach(path: string, within: { root: string; name: string } | undefined): Promise<string> {
    const full = resolve(within?.root ?? this.cwd, path);
    if (within) {
      const outside = () =>
        new MockdevError('INVALID_ARGUMENT', `The file ${path} is outside ${within.name} (${within.root})`, {
          hint: (say) =>
            `give the document as ${say.option('text')} instead, or put the file inside ${within.name}`,
          details: { file: path },
        });
      if (!inside(resolve(within.root), full)) throw outside();
      let real: string | undefined;
      let realRoot: string | undefined;
      try {
        [real, realRoot] = await Promise.all([fs.realpath(full), fs.realpath(within.root)]);
      } catch {
        // a missing file is reported by the read below
      }
      if (real !== undefined && realRoot !== undefined && !inside(realRoot, real)) throw outside();
    }
    return full;
  }

  async writeAtomic(path: string, text: string): Promise<void> {
    const full = resolve(this.cwd, path);
    try {
      const stat = await fs.stat(dirname(full));
      if (!stat.isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
    } catch (e) {
      throw new MockdevError('INVALID_ARGUMENT', `Cannot write ${path}: its folder does not exist`, {
        hint: 'Choose a path in an existing, writable folder',
        cause: e,
      });
    }
    try {
      await writeFileAtomic(full, text, SHARED_FILE);
    } catch (e) {
      const cause = e instanceof MockdevError ? (e.cause ?? e) : e;
      throw new MockdevError('INVALID_ARGUMENT', `Cannot write ${path}: ${why(cause)}`, {
        hint: 'Choose a path in an existing, writable folder',
        cause,
      });
    }
  }
}
