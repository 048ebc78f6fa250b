import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type DocumentRoute = (req: IncomingMessage, res: ServerResponse, base: string) => void;

export interface DocumentServer {
  /** `http://127.0.0.1:<port>` */
  base: string;
  url(path: string): string;
  /** Closes the server and every socket it holds (a route that never answers included). */
  close(): Promise<void>;
}

/**
 * A local HTTP server on a port the OS picks, answering each path with its route (404 for
 * others): documents to fetch, redirects, errors, answers that never come.
 */
export async function documentServer(routes: Record<string, DocumentRoute>): Promise<DocumentServer> {
  let base = '';
  const server = createServer((req, res) => {
    const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
    if (route) route(req, res, base);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    url: (path) => `${base}${path}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
