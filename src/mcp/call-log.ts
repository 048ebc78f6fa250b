import type { McpLoggingMode } from './logging-mode.js';
import type { CallRecord } from './server.js';

/** A call as /mcp/logs shows it: the call plus which connection made it. */
export interface CallLogEntry extends CallRecord {
  sessionId: string | null;
  transport: string;
  client: { name: string; version: string } | null;
}

/**
 * The recent MCP calls, newest last, bounded. What is kept follows the logging mode:
 * `off` keeps nothing, `errors` keeps failed calls only, `all` keeps every call.
 */
export class CallLog {
  private readonly entries: CallLogEntry[] = [];

  constructor(
    readonly mode: McpLoggingMode,
    readonly capacity = 1000,
  ) {}

  /** Whether a call with this outcome is kept in this mode. */
  keeps(ok: boolean): boolean {
    return this.mode === 'all' || (this.mode === 'errors' && !ok);
  }

  add(entry: CallLogEntry): void {
    if (!this.keeps(entry.ok)) return;
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  /** The `limit` most recent entries, newest first. */
  recent(limit: number): CallLogEntry[] {
    return this.entries.slice(-limit).reverse();
  }

  get size(): number {
    return this.entries.length;
  }
}
