import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { ENDPOINTS_FILE, PROJECT_FILE } from '../store/project-store.js';

export interface ProjectChange {
  event: 'project_changed';
  change: 'created' | 'updated' | 'deleted';
  projectId: string;
}

/** The mtimes and sizes of a project's files, as one comparable string. */
async function fingerprint(dir: string): Promise<string | undefined> {
  const parts: string[] = [];
  for (const file of [PROJECT_FILE, ENDPOINTS_FILE]) {
    try {
      const s = await fs.stat(join(dir, file));
      parts.push(`${s.mtimeMs}:${s.size}`);
    } catch {
      if (file === PROJECT_FILE) return undefined;
      parts.push('-');
    }
  }
  return parts.join('|');
}

/**
 * Notices changes to the projects in the data directory, whoever makes them (MCP tools, the
 * CLI, the UI, hand edits), by polling file stats: cheap, and the same on every platform.
 */
export class ProjectWatcher {
  private known = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly projectsDir: string,
    private readonly onChange: (change: ProjectChange) => void,
    private readonly intervalMs = 1000,
  ) {}

  async start(): Promise<void> {
    this.known = await this.scan();
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private async scan(): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    let names: string[];
    try {
      names = await fs.readdir(this.projectsDir);
    } catch {
      return out;
    }
    await Promise.all(
      names
        .filter((n) => !n.startsWith('.'))
        .map(async (name) => {
          const print = await fingerprint(join(this.projectsDir, name));
          if (print) out.set(name, print);
        }),
    );
    return out;
  }

  private async tick(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const now = await this.scan();
      const before = this.known;
      this.known = now;
      for (const [id, print] of now) {
        const old = before.get(id);
        if (old === undefined) this.onChange({ event: 'project_changed', change: 'created', projectId: id });
        else if (old !== print) this.onChange({ event: 'project_changed', change: 'updated', projectId: id });
      }
      for (const id of before.keys()) {
        if (!now.has(id)) this.onChange({ event: 'project_changed', change: 'deleted', projectId: id });
      }
    } finally {
      this.running = false;
    }
  }
}
