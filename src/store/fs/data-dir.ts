import { randomBytes } from 'node:crypto';
import { mkdirSync, rmdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { MockdevError } from '../../core/errors.js';
import { PRIVATE_DIR } from './private.js';

/** Where the data directory comes from: an environment variable, or the platform's default. */
export interface DataDirChoice {
  dir: string;
  /** The variable that decided it, with its value; none for the default under the home folder. */
  variable?: { name: 'MOCKDEV_DATA_DIR' | 'XDG_DATA_HOME' | 'APPDATA'; value: string };
}

const given = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/** The data directory of DECISIONS "Where state lives", and what decided it. */
export function chooseDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): DataDirChoice {
  if (given(env.MOCKDEV_DATA_DIR)) {
    const value = env.MOCKDEV_DATA_DIR;
    return { dir: value, variable: { name: 'MOCKDEV_DATA_DIR', value } };
  }
  if (platform === 'darwin') return { dir: join(homedir(), 'Library', 'Application Support', 'mockdev') };
  if (platform === 'win32') {
    if (given(env.APPDATA))
      return { dir: join(env.APPDATA, 'mockdev'), variable: { name: 'APPDATA', value: env.APPDATA } };
    return { dir: join(homedir(), 'AppData', 'Roaming', 'mockdev') };
  }
  if (given(env.XDG_DATA_HOME))
    return {
      dir: join(env.XDG_DATA_HOME, 'mockdev'),
      variable: { name: 'XDG_DATA_HOME', value: env.XDG_DATA_HOME },
    };
  return { dir: join(homedir(), '.local', 'share', 'mockdev') };
}

/**
 * The data directory of DECISIONS "Where state lives": $MOCKDEV_DATA_DIR, else the platform's
 * user data directory.
 */
export function resolveDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  return chooseDataDir(env, platform).dir;
}

/** The data directory's layout: every store finds its files here. */
export const dataPaths = (dataDir: string) => ({
  root: dataDir,
  projects: join(dataDir, 'projects'),
  /** The folder projects (made by `init`, served or opened by their folder) this data dir knows. */
  folders: join(dataDir, 'folders.json'),
  settings: join(dataDir, 'settings.json'),
  license: join(dataDir, 'license.json'),
  /** <id>.json (plain variables), <id>.secrets.json (0600), active.json (what each project uses). */
  environments: join(dataDir, 'environments'),
  requestLog: join(dataDir, 'requests.db'),
  recordings: join(dataDir, 'recordings.db'),
  servers: join(dataDir, 'servers'),
  /** <project id>.json: what the web UI keeps per project (the tree's expanded folders). */
  uiState: join(dataDir, 'ui-state'),
  /** The local CA and the leaf certificate: ca.pem, ca-key.pem, cert.pem, key.pem (keys 0600). */
  tls: join(dataDir, 'tls'),
  /** <project id>.json: the running tunnel of each project. */
  tunnels: join(dataDir, 'tunnels'),
  /** <project id>/<resource id>.json (the written state), <resource id>.r<revision>.json (staged). */
  resources: join(dataDir, 'resources'),
});

const errno = (e: unknown): string | undefined => (e as NodeJS.ErrnoException).code;

/** Why a folder cannot be used, in words: "/x/y is a file, not a folder". */
class Unusable extends Error {}

/** The first folder of `dir`'s path (from the top) that exists as something other than a folder. */
function fileInTheWay(dir: string): string | undefined {
  const parent = dirname(dir);
  if (parent !== dir) {
    const above = fileInTheWay(parent);
    if (above) return above;
  }
  try {
    return statSync(dir).isDirectory() ? undefined : dir;
  } catch {
    return undefined;
  }
}

function reasonOf(e: unknown, dir: string): string {
  switch (errno(e)) {
    case 'ENOTDIR':
    case 'EEXIST': {
      const file = fileInTheWay(dir) ?? dir;
      return `${file} is a file, not a folder`;
    }
    case 'EACCES':
    case 'EPERM':
      return `permission denied creating or writing ${dir}`;
    case 'EROFS':
      return `${dir} is on a read-only file system`;
    case 'ENOSPC':
      return 'the disk is full';
    case 'ENOENT':
      return `${dir} cannot be created: ${dirname(dir)} does not take new folders (or is a broken link)`;
    default:
      return `${dir}: ${errno(e) ?? (e as Error).message}`;
  }
}

/**
 * mkdir -p, one level at a time. Node's recursive mkdir retries forever when a parent exists but
 * answers ENOENT for a new child (anything under /proc, a link to nowhere): it makes the parent
 * (EEXIST, fine), tries the child again (ENOENT), and so on. Here a second ENOENT is final.
 * Any store that creates folders where the user points it can use this instead.
 */
export function makeFolders(dir: string, mode?: number): void {
  try {
    mkdirSync(dir, mode);
    return;
  } catch (e) {
    if (errno(e) === 'EEXIST') {
      if (statSync(dir).isDirectory()) return;
      throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${dir}'`), { code: 'ENOTDIR' });
    }
    const parent = dirname(dir);
    if (errno(e) !== 'ENOENT' || parent === dir) throw e;
    makeFolders(parent);
  }
  try {
    mkdirSync(dir, mode);
  } catch (e) {
    if (errno(e) !== 'EEXIST') throw e; // made meanwhile by another process
  }
}

/**
 * Makes sure `dir` is a folder mockdev can create things in: creates it (and its parents) when
 * missing, then creates and removes an empty folder in it, the one test every file system
 * answers truly (access(2) says yes to root under /proc). Throws an Unusable with the reason.
 */
function checkUsable(dir: string): void {
  try {
    makeFolders(dir, PRIVATE_DIR);
    if (!statSync(dir).isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
    const probe = join(dir, `.mockdev-probe-${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      mkdirSync(probe);
    } catch (e) {
      if (errno(e) === 'ENOENT') throw new Unusable(`${dir} does not take new folders`);
      throw e;
    }
    rmdirSync(probe);
  } catch (e) {
    if (e instanceof Unusable) throw e;
    throw new Unusable(reasonOf(e, dir));
  }
}

/**
 * The data directory chosen by the environment, checked before any command uses it: a value
 * that names a file, or a place that cannot be created or written, is an error naming the
 * variable that chose it (docs/errors.md "The data directory"), never a failure deep in a store.
 */
export function usableDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const choice = chooseDataDir(env, platform);
  try {
    checkUsable(choice.dir);
  } catch (e) {
    if (!(e instanceof Unusable)) throw e;
    const reason = e.message;
    const { variable } = choice;
    if (variable?.name === 'MOCKDEV_DATA_DIR') {
      throw new MockdevError(
        'INVALID_ARGUMENT',
        `MOCKDEV_DATA_DIR=${variable.value} is not a usable data directory: ${reason}`,
        {
          hint: 'Point it at a folder mockdev can create and write, or unset it',
          details: { dataDir: choice.dir },
        },
      );
    }
    if (variable) {
      throw new MockdevError(
        'INVALID_ARGUMENT',
        `${variable.name}=${variable.value} gives no usable data directory (${choice.dir}): ${reason}`,
        {
          hint: `Point ${variable.name} at a folder mockdev can create and write, or set MOCKDEV_DATA_DIR to one`,
          details: { dataDir: choice.dir },
        },
      );
    }
    throw new MockdevError('IO_ERROR', `The data directory ${choice.dir} is not usable: ${reason}`, {
      hint: 'Set MOCKDEV_DATA_DIR to a folder mockdev can create and write',
      details: { dataDir: choice.dir },
    });
  }
  return choice.dir;
}
