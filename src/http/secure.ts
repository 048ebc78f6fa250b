import type { IncomingHttpHeaders, RequestListener } from 'node:http';
import { createSecureServer, Http2ServerRequest, type Http2Session } from 'node:http2';
import type { Server, Socket } from 'node:net';

/**
 * HTTPS for listen.ts: HTTP/1.1 and HTTP/2 on one port, chosen by ALPN (`h2`, `http/1.1`; a
 * client that offers neither gets HTTP/1.1), both through the one handler. An HTTP/2 request
 * reaches it as node's compatibility request, made to read as an HTTP/1.1 one: its headers
 * without the pseudo-headers (`:method`, `:path`, `:scheme`, `:authority`; method and target are
 * req.method and req.url as always) and with `host` from `:authority` when the client sent no
 * Host, as RFC 9113 8.3.1 has a gateway do. So templates, rules, the request log and the proxy
 * see the same headers whichever protocol carried the request.
 *
 * Closing: HTTP/1.1 connections as on a plain server; an HTTP/2 session gets a GOAWAY (its
 * streams in flight are answered, no new ones start) when idle ones close, and is destroyed with
 * every other connection when all close.
 */
/** What listen.ts opens: the server and how to close its connections. */
export interface Opened {
  server: Server;
  scheme: 'http' | 'https';
  /** Closes the connections with no request in flight (HTTP/2: ends each session gracefully). */
  closeIdle(): void;
  /** Closes every connection now. */
  closeAll(): void;
}

export function listenSecure(handler: RequestListener, tls: { cert: string; key: string }): Opened {
  const server = createSecureServer(
    { allowHTTP1: true, cert: tls.cert, key: tls.key, Http2ServerRequest: Http1LikeRequest },
    handler as unknown as Parameters<typeof createSecureServer>[1],
  );
  const sessions = new Set<Http2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  // Every TCP connection, mid-handshake ones too, for closeAll.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return {
    server,
    scheme: 'https',
    closeIdle: () => {
      // HTTP/1.1 connections: node's own tracking (allowHTTP1), as http.Server has it.
      (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
      for (const s of sessions) s.close();
    },
    closeAll: () => {
      for (const s of sessions) s.destroy();
      for (const s of sockets) s.destroy();
    },
  };
}

const COLON = 58;

/**
 * An HTTP/2 request read as an HTTP/1.1 one (see above): its header lists worked out when first
 * read, once. A class of its own (node's Http2ServerRequest option), not properties defined on
 * each request: every request keeps one shape.
 */
const base = (name: string) =>
  Object.getOwnPropertyDescriptor(Http2ServerRequest.prototype, name)!.get! as (this: unknown) => unknown;
const baseRawHeaders = base('rawHeaders');
const baseHeaders = base('headers');

// node's typings declare rawHeaders and headers as fields; they are accessors of the prototype.
const Http1LikeRequest = class extends (Http2ServerRequest as unknown as new (...args: never[]) => object) {
  #raw: string[] | undefined;
  #headers: IncomingHttpHeaders | undefined;

  get rawHeaders(): string[] {
    if (this.#raw !== undefined) return this.#raw;
    const raw = baseRawHeaders.call(this) as string[];
    const lines: string[] = [];
    let authority: string | undefined;
    let host = false;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i]!;
      if (name.charCodeAt(0) === COLON) {
        if (name === ':authority') authority = raw[i + 1];
        continue;
      }
      if (name === 'host') host = true;
      lines.push(name, raw[i + 1]!);
    }
    if (authority !== undefined && !host) lines.unshift('host', authority);
    return (this.#raw = lines);
  }

  get headers(): IncomingHttpHeaders {
    if (this.#headers !== undefined) return this.#headers;
    const given = baseHeaders.call(this) as IncomingHttpHeaders;
    const headers: IncomingHttpHeaders = {};
    const authority = given[':authority'];
    if (typeof authority === 'string' && given.host === undefined) headers.host = authority;
    for (const name of Object.keys(given)) if (name.charCodeAt(0) !== COLON) headers[name] = given[name];
    return (this.#headers = headers);
  }
} as unknown as typeof Http2ServerRequest;
