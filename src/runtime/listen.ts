import { createServer, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { MockdevError } from '../core/errors.js';

/**
 * The one place that opens a socket. Malformed requests get a 400 (431 for oversized headers)
 * with a JSON problem body, and the server keeps serving everyone else.
 */
export function listen(handler: RequestListener, options: { host: string; port: number }): Promise<Server> {
  const server = createServer(handler);
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const title = tooLarge ? 'Request Header Fields Too Large' : 'Bad Request';
    const body = JSON.stringify({
      type: 'about:blank',
      title,
      status,
      detail: `Malformed HTTP request (${err.code ?? 'parse error'})`,
    });
    socket.end(
      `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return new Promise((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(listenError(e, options));
    };
    const onListening = () => {
      server.off('error', onError);
      resolve(server);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(options.port, options.host);
  });
}

function listenError(e: NodeJS.ErrnoException, { host, port }: { host: string; port: number }): MockdevError {
  switch (e.code) {
    case 'EADDRINUSE':
      return new MockdevError('PORT_IN_USE', `Port ${port} is already in use on ${host}`, {
        hint: 'Pass another port with -p, or stop the process using it ("mockdev status" lists running mockdev servers)',
        details: { port, host },
      });
    case 'EACCES':
      return new MockdevError('INVALID_ARGUMENT', `Not allowed to listen on ${host}:${port}`, {
        hint: 'Use a port from 1024 to 65535',
        details: { port, host },
      });
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return new MockdevError(
        'INVALID_ARGUMENT',
        `Invalid --host "${host}": not an address of this machine`,
        {
          hint: 'Use 127.0.0.1 (the default), localhost, 0.0.0.0 or an address of a local interface',
          details: { host },
        },
      );
    default:
      return new MockdevError('IO_ERROR', `Could not listen on ${host}:${port}: ${e.code ?? e.message}`, {
        cause: e,
      });
  }
}
