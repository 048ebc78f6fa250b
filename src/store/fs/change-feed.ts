import { readdirSync, readFileSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, join } from 'node:path';
import type { ProjectChange, Subscription } from '../../core/ports.js';
import { ENDPOINTS_FILE, FLOWS_FILE, PROJECT_FILE, RESOURCES_FILE } from './project-folder.js';

/**
 * The change feed of the folder store: notices changes to project folders whoever makes them
 * (this process, another mockdev, an editor). One folder is watched with fs.watch, backed by a
 * slow stat poll for file systems without watch events; the whole data directory is polled
 * (a stat of four files per project, the same on every platform). A change is reported once
 * per new version of the files.
 */

type Listener = (change: ProjectChange) => void;

/** The files a project folder's version is made of. */
const FEED_FILES = new Set([PROJECT_FILE, ENDPOINTS_FILE, FLOWS_FILE, RESOURCES_FILE]);

/** inode, size and mtime of the files of a folder, as one comparable string; undefined without project.json. */
function signatureSync(dir: string): string | undefined {
  const parts: string[] = [];
  for (const file of FEED_FILES) {
    try {
      const s = statSync(join(dir, file), { bigint: true });
      parts.push(`${s.ino}:${s.size}:${s.mtimeNs}`);
    } catch {
      if (file === PROJECT_FILE) return undefined;
      parts.push('-');
    }
  }
  return parts.join('|');
}

/**
 * One project folder. The listener runs synchronously from the watch event, so a change made
 * before a request was sent is seen by that request (the event is delivered first).
 */
export function watchFolder(dir: string, listener: Listener, pollMs: number): Subscription {
  const projectId = projectIdSync(dir);
  let last = signatureSync(dir);
  const check = () => {
    const now = signatureSync(dir);
    if (now === last) return;
    last = now;
    listener({ projectId, key: dir, change: now === undefined ? 'deleted' : 'updated' });
  };
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dir, { persistent: false }, (_event, name) => {
      if (name === null || FEED_FILES.has(name)) check();
    });
    watcher.on('error', () => watcher?.close());
  } catch {
    watcher = undefined; // the poll still sees changes
  }
  const timer = setInterval(check, pollMs);
  timer.unref();
  return {
    close: () => {
      watcher?.close();
      clearInterval(timer);
    },
  };
}

/** The id in a folder's project.json, read without validation; the folder's name when it has none. */
export function projectIdSync(dir: string): string {
  try {
    const parsed = JSON.parse(readFileSync(join(dir, PROJECT_FILE), 'utf8')) as { id?: unknown };
    if (typeof parsed.id === 'string') return parsed.id;
  } catch {
    /* a broken or missing project.json: the folder's name stands for it */
  }
  return basename(dir);
}

type Known = Map<string, { signature: string; id: string }>;

/** Folder -> signature and project id; the id is read again only for folders that changed. */
function scanSync(projectsDir: string, known: Known): Known {
  const out: Known = new Map();
  let names: string[];
  try {
    names = readdirSync(projectsDir);
  } catch {
    return out;
  }
  for (const folder of names) {
    if (folder.startsWith('.')) continue;
    const dir = join(projectsDir, folder);
    const sig = signatureSync(dir);
    if (sig === undefined) continue;
    const prev = known.get(folder);
    out.set(folder, { signature: sig, id: prev?.signature === sig ? prev.id : projectIdSync(dir) });
  }
  return out;
}

/** Every project folder under `projectsDir`, polled. */
export function watchProjectsDir(projectsDir: string, listener: Listener, pollMs: number): Subscription {
  // The baseline, read before returning: what exists already is not reported as created, and
  // a change made right after watch() returns is.
  let known = scanSync(projectsDir, new Map());
  let stopped = false;
  const tick = () => {
    const before = known;
    known = scanSync(projectsDir, before);
    for (const [folder, { signature, id }] of known) {
      if (stopped) return;
      const old = before.get(folder);
      const key = join(projectsDir, folder);
      if (old === undefined) listener({ projectId: id, key, change: 'created' });
      else if (old.signature !== signature) listener({ projectId: id, key, change: 'updated' });
    }
    for (const [folder, { id }] of before) {
      if (stopped) return;
      if (!known.has(folder)) listener({ projectId: id, key: join(projectsDir, folder), change: 'deleted' });
    }
  };
  const timer = setInterval(tick, pollMs);
  timer.unref();
  return {
    close: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
