import { createServer, STATUS_CODES, type RequestListener } from 'node:http';
import type { AddressInfo, Server, Socket } from 'node:net';
import { MockdevError } from '../core/errors.js';
import { problemReply } from './reply.js';
import type { Opened } from './secure.js';

/**
 * The one place that opens a socket: the mock server, the MCP HTTP server and the admin API
 * listen through it. With `tls`, HTTPS: HTTP/1.1 and HTTP/2 on one port (ALPN; secure.ts), through
 * the same handler, HTTP/2 requests looking like HTTP/1.1 ones to it. Malformed requests get a 400 (431 for oversized
 * headers) with a problem body (reply.ts), and the server keeps serving everyone else. Listen errors
 * map to one set of errors: a busy port is PORT_IN_USE (exit 4) naming it; a port or host this
 * machine cannot use is INVALID_ARGUMENT (exit 2) saying what to use instead.
 */
export interface ListenOptions {
  host: string;
  /** 0 asks the OS for a free port. */
  port: number;
  /** What listens, for messages ("the MCP server"). */
  what?: string;
  /** Serve HTTPS with this PEM pair (HTTP/1.1 and HTTP/2). */
  tls?: { cert: string; key: string };
}

export interface Listening {
  server: Server;
  port: number;
  /** http://host:port (https:// with TLS), with an IPv6 host in brackets. */
  url: string;
  /** Closes the connections with no request in flight (HTTP/2: ends each session gracefully). */
  closeIdle(): void;
  /** Closes every connection now. */
  closeAll(): void;
}

export const hostForUrl = (host: string): string => (host.includes(':') ? `[${host}]` : host);

export async function listen(handler: RequestListener, options: ListenOptions): Promise<Listening> {
  let opened: Opened;
  // node:http2 and TLS are loaded only by a server that serves HTTPS (a plain start stays quick).
  if (options.tls) opened = (await import('./secure.js')).listenSecure(handler, options.tls);
  else {
    const plain = createServer(handler);
    opened = {
      server: plain,
      scheme: 'http',
      closeIdle: () => plain.closeIdleConnections(),
      closeAll: () => plain.closeAllConnections(),
    };
  }
  const { server, scheme, closeIdle, closeAll } = opened;
  server.on('clientError', onClientError);
  return new Promise((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(listenError(e, options));
    };
    const onListening = () => {
      server.off('error', onError);
      const port = (server.address() as AddressInfo).port;
      resolve({ server, port, url: `${scheme}://${hostForUrl(options.host)}:${port}`, closeIdle, closeAll });
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(options.port, options.host);
  });
}

/** A request node could not parse (HTTP/1.1): a problem reply, the connection closed. */
function onClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(rawProblem(malformed(err)));
}

export function listenError(e: NodeJS.ErrnoException, { host, port }: ListenOptions): MockdevError {
  switch (e.code) {
    case 'EADDRINUSE':
      return new MockdevError('PORT_IN_USE', `Port ${port} is already in use on ${host}`, {
        hint: (say) =>
          `choose another port with ${say.option('port')}, or stop the process using it (${say.action('listServers')} to see running mockdev servers)`,
        details: { port, host },
        cause: e,
      });
    case 'EACCES':
      return new MockdevError('INVALID_ARGUMENT', `Not allowed to listen on ${host}:${port}`, {
        hint: 'Use a port from 1024 to 65535',
        details: { port, host },
        cause: e,
      });
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return new MockdevError('INVALID_ARGUMENT', `Invalid host "${host}": not an address of this machine`, {
        hint: 'Use 127.0.0.1 (the default), localhost, 0.0.0.0 or an address of a local interface',
        details: { host },
        cause: e,
      });
    default:
      return new MockdevError('IO_ERROR', `Could not listen on ${host}:${port}: ${e.code ?? e.message}`, {
        cause: e,
      });
  }
}

/** The refusal of a request node could not parse: 431 for oversized headers, else 400. */
function malformed(err: NodeJS.ErrnoException): MockdevError {
  if (err.code === 'HPE_HEADER_OVERFLOW')
    return new MockdevError('HEADERS_TOO_LARGE', 'The request headers are larger than this server reads', {
      hint: 'Send fewer or shorter headers (cookies included)',
    });
  return new MockdevError('MALFORMED_REQUEST', `Malformed HTTP request (${err.code ?? 'parse error'})`);
}

/** A problem written straight to a socket (no request object exists), closing the connection. */
function rawProblem(error: MockdevError): string {
  const { status, headers, body } = problemReply(error);
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status]}`];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  lines.push(`Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close');
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}
