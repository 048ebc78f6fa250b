import { statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import type { Endpoint } from '../core/model/endpoint.js';
import { ENDPOINTS_FILE, readEndpointsSync } from '../store/project-store.js';
import { compileProject, type CompiledProject } from './compile.js';

export interface EndpointSourceOptions {
  dir: string;
  bodyLimitBytes: number;
  /** Endpoints already read (the start-up read); compiled without reading again. */
  initial: Endpoint[];
  onReload?: (endpoints: Endpoint[]) => void;
  onWarning?: (message: string) => void;
  /** Fallback check of the file's stat, for file systems where watching misses events (ms). */
  pollMs?: number;
}

/**
 * Live reload of endpoints.json, whoever writes it (CLI, MCP, an editor). A file-system watch
 * marks the endpoints dirty; a slow stat poll covers file systems without watch events. The
 * request path only reads a flag: the file is re-read on the first request after a change.
 * A broken file keeps the last good endpoints and logs one warning per broken version.
 */
export class EndpointSource {
  private compiled: CompiledProject;
  private dirty = false;
  private signature: string;
  private warnedFor: string | undefined;
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private settle: NodeJS.Timeout | undefined;
  private readonly file: string;

  constructor(private readonly options: EndpointSourceOptions) {
    this.file = join(options.dir, ENDPOINTS_FILE);
    this.signature = this.stat();
    this.compiled = compileProject(options.initial, options.bodyLimitBytes);
    try {
      this.watcher = watch(options.dir, { persistent: false }, (_event, name) => {
        if (name === null || name === ENDPOINTS_FILE) this.markDirty();
      });
      this.watcher.on('error', () => this.watcher?.close());
    } catch {
      this.watcher = undefined; // the poll below still sees changes
    }
    this.timer = setInterval(() => {
      if (this.stat() !== this.signature) this.markDirty();
    }, options.pollMs ?? 500);
    this.timer.unref();
    this.current = this.current.bind(this);
  }

  /**
   * The next request reloads; without traffic, a short timer does (so a broken edit is
   * reported even when nobody calls the server).
   */
  private markDirty(): void {
    this.dirty = true;
    if (this.settle) return;
    this.settle = setTimeout(() => {
      this.settle = undefined;
      if (this.dirty) this.reload();
    }, 50);
    this.settle.unref();
  }

  private stat(): string {
    try {
      const s = statSync(this.file, { bigint: true });
      return `${s.ino}:${s.size}:${s.mtimeNs}`;
    } catch {
      return 'missing';
    }
  }

  /** The endpoints in force: reloads first when the file changed. */
  current(): CompiledProject {
    if (this.dirty) this.reload();
    return this.compiled;
  }

  get endpoints(): Endpoint[] {
    return this.current().endpoints;
  }

  reload(): void {
    this.dirty = false;
    const signature = this.stat();
    if (signature === this.signature) return;
    let endpoints: Endpoint[];
    try {
      endpoints = readEndpointsSync(this.options.dir);
    } catch (e) {
      // Keep serving the last good endpoints; say so once per broken version of the file.
      if (this.warnedFor !== signature) {
        this.warnedFor = signature;
        const message = e instanceof Error ? e.message : String(e);
        this.options.onWarning?.(
          `${message}. Still serving the last good endpoints (${this.compiled.endpoints.length}); fix the file and it reloads`,
        );
      }
      return;
    }
    this.signature = signature;
    this.warnedFor = undefined;
    this.compiled = compileProject(endpoints, this.options.bodyLimitBytes);
    this.options.onReload?.(endpoints);
  }

  close(): void {
    this.watcher?.close();
    if (this.timer) clearInterval(this.timer);
    if (this.settle) clearTimeout(this.settle);
  }
}
