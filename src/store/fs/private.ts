import { chmodSync, closeSync, lstatSync, openSync, readdirSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/**
 * The data directory is private (DECISIONS "Trust and data"): it is created 0700 and every file
 * and folder in it 0600 / 0700, since the request log holds clients' Authorization and Cookie
 * headers. Stores create what they write with these modes; an existing data directory with
 * looser ones is tightened when the stores are opened (tightenDataDir).
 */
export const PRIVATE_FILE = 0o600;
export const PRIVATE_DIR = 0o700;
/** What files outside the data directory get (the user's umask applies): project folders, exports. */
export const SHARED_FILE = 0o666;

/** mockdev's own entries at the top of a data directory: only these are tightened, never others. */
const OWN_ENTRY =
  /^(projects|environments|servers|ui-state|demo|[a-z]+-spool|folders\.json.*|settings\.json|license\.json|(requests|recordings)\.db(-wal|-shm|-journal)?|\.[a-z-]+\.lock)$/;

const loose = (s: Stats): boolean => (s.mode & 0o077) !== 0;

/** Makes one entry private when it is looser; counts what it changed. Never follows a link. */
function tighten(path: string, changed: { count: number }): void {
  let s: Stats;
  try {
    s = lstatSync(path);
  } catch {
    return;
  }
  if (s.isSymbolicLink()) return;
  if (s.isDirectory()) {
    if (loose(s)) chmodQuietly(path, PRIVATE_DIR, changed);
    let names: string[] = [];
    try {
      names = readdirSync(path);
    } catch {
      return;
    }
    for (const name of names) tighten(join(path, name), changed);
  } else if (s.isFile() && loose(s)) {
    chmodQuietly(path, PRIVATE_FILE, changed);
  }
}

function chmodQuietly(path: string, mode: number, changed: { count: number }): void {
  try {
    chmodSync(path, mode);
    changed.count++;
  } catch {
    // Not ours (another user's file in a shared folder): left as it is.
  }
}

/**
 * Makes an existing data directory private when it is not: the folder 0700, and mockdev's own
 * files and folders in it 0600 / 0700 (never anything else a folder the user named may hold).
 * A folder this user does not own, or a shared one (sticky bit, as /tmp), is left alone.
 * Returns a sentence saying what it did, once (afterwards the folder is private), or undefined.
 */
export function tightenDataDir(dataDir: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  let s: Stats;
  try {
    s = statSync(dataDir);
  } catch {
    return undefined; // made 0700 when first written
  }
  const uid = process.getuid?.();
  if (!s.isDirectory() || !loose(s) || (s.mode & 0o1000) !== 0 || (uid !== undefined && s.uid !== uid))
    return undefined;
  const changed = { count: 0 };
  chmodQuietly(dataDir, PRIVATE_DIR, changed);
  if (changed.count === 0) return undefined;
  let names: string[] = [];
  try {
    names = readdirSync(dataDir);
  } catch {
    // nothing more to do
  }
  for (const name of names) if (OWN_ENTRY.test(name)) tighten(join(dataDir, name), changed);
  const files = changed.count - 1;
  return `Made the data directory ${dataDir} private (0700${files ? `, and ${files} of its files and folders 0600/0700` : ''}): it holds clients' Authorization and Cookie headers`;
}

/**
 * Creates a database file private before SQLite opens it (SQLite gives its -wal and -shm files
 * the database file's mode), and tightens an existing one and its -wal and -shm files.
 */
export function preparePrivateFile(file: string): void {
  closeSync(openSync(file, 'a', PRIVATE_FILE));
  const changed = { count: 0 };
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      if (loose(statSync(f))) chmodQuietly(f, PRIVATE_FILE, changed);
    } catch {
      // not there: SQLite makes it with the database's mode
    }
  }
}
