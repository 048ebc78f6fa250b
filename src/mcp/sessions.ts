import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

export type TransportKind = 'streamable-http' | 'sse' | 'stdio';

export interface Session {
  id: string;
  transport: TransportKind;
  server: Server;
  connection: Transport;
  since: string;
  lastActivity: string;
  /** Server-to-client streams the client holds open (a live client keeps its GET stream). */
  openStreams: number;
}

/** What /mcp/connections shows of a session. */
export interface ConnectionInfo {
  id: string;
  transport: TransportKind;
  client: { name: string; version: string } | null;
  since: string;
  lastActivity: string;
  /** Server-to-client streams open (Streamable HTTP: the GET stream; SSE: 1). */
  streams: number;
}

/** The open MCP sessions of the HTTP mode, each with its own protocol server. */
export class SessionRegistry {
  private readonly sessions = new Map<string, Session>();

  add(session: Session): void {
    this.sessions.set(session.id, session);
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  remove(id: string): void {
    this.sessions.delete(id);
  }

  touch(id: string): void {
    const s = this.sessions.get(id);
    if (s) s.lastActivity = new Date().toISOString();
  }

  /** Ends Streamable HTTP sessions with no open stream and no request for `idleMs`. */
  async expireIdle(idleMs: number, now = Date.now()): Promise<void> {
    const idle = [...this.sessions.values()].filter(
      (s) =>
        s.transport === 'streamable-http' &&
        s.openStreams === 0 &&
        now - Date.parse(s.lastActivity) >= idleMs,
    );
    for (const s of idle) this.sessions.delete(s.id);
    await Promise.all(idle.map((s) => s.server.close().catch(() => undefined)));
  }

  get size(): number {
    return this.sessions.size;
  }

  client(id: string | undefined): { name: string; version: string } | null {
    const info = id ? this.sessions.get(id)?.server.getClientVersion() : undefined;
    return info ? { name: info.name, version: info.version } : null;
  }

  list(): ConnectionInfo[] {
    return [...this.sessions.values()].map((s) => ({
      id: s.id,
      transport: s.transport,
      client: this.client(s.id),
      since: s.since,
      lastActivity: s.lastActivity,
      streams: s.openStreams,
    }));
  }

  /** Sends a logging notification to every session; a session that cannot take it is skipped. */
  async broadcast(data: Record<string, unknown>): Promise<void> {
    await Promise.all(
      [...this.sessions.values()].map((s) =>
        s.server.sendLoggingMessage({ level: 'info', logger: 'mockdev', data }, s.id).catch(() => undefined),
      ),
    );
  }

  async closeAll(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((s) => s.server.close().catch(() => undefined)));
  }
}
