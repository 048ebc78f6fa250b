import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { MockdevError } from '../core/errors.js';
import { problemReply, writeReply } from '../http/reply.js';

/**
 * The web UI's files (dist/ui, built by `npm run build`), served by `mockdev ui` beside the admin
 * API. They are read once at start (a few hundred KB) and gzipped once, so a page load costs no
 * disk read. Hashed assets are cached for a year; the rest (index.html, the service worker
 * sw.js, the manifest and icons) is revalidated on each use (no-cache, a 304 when its ETag
 * still holds), so a new build shows at once; index.html answers every path that is not a
 * file (the UI's own places, `/projects/<id>/endpoints`), so a reload opens the same screen.
 */

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** The page talks only to its own origin; it cannot be framed; nothing is sniffed. */
const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

interface UiFile {
  type: string;
  body: Buffer;
  gzip?: Buffer;
  immutable: boolean;
  /** A strong validator of the contents: a reload of an unchanged file is a 304. */
  etag: string;
}

/** dist/ui of this installation: the first ancestor of this module holding dist/ui/index.html. */
export function findUiDir(from = dirname(fileURLToPath(import.meta.url))): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'dist', 'ui');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

function readTree(root: string): Map<string, UiFile> {
  const files = new Map<string, UiFile>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else {
        const path = `/${relative(root, full).split(sep).join('/')}`;
        const body = readFileSync(full);
        const type = TYPES[extname(name)] ?? 'application/octet-stream';
        const compressible =
          /^(text\/|application\/(manifest\+)?json|image\/svg)/.test(type) && body.length > 1024;
        files.set(path, {
          type,
          body,
          gzip: compressible ? gzipSync(body, { level: 9 }) : undefined,
          immutable: path.startsWith('/assets/'),
          etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
        });
      }
    }
  };
  walk(root);
  return files;
}

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>mockdev: the web UI is not built</title></head>
<body><main><h1>The web UI is not built</h1><p>This mockdev has no dist/ui folder. Run <code>npm run build</code>
(<code>npm install</code> runs it), then start <code>mockdev ui</code> again. The admin API answers at <a href="/api/v1/health">/api/v1</a>.</p></main></body></html>`;

/** A refusal as the problem of every HTTP surface (http/reply.ts), with the pages' security headers. */
function refuse(res: ServerResponse, error: MockdevError): void {
  const reply = problemReply(error);
  writeReply(res, { ...reply, headers: { ...reply.headers, ...SECURITY_HEADERS } });
}

/** The request handler for every path outside /api (mockdev ui's `fallback`). */
export function createUiFiles(dir: string | undefined): (req: IncomingMessage, res: ServerResponse) => void {
  const files = dir && existsSync(join(dir, 'index.html')) ? readTree(dir) : undefined;
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return refuse(
        res,
        new MockdevError(
          'METHOD_NOT_ALLOWED',
          `${req.method} is not answered here: the web UI's files take GET and HEAD`,
          {
            hint: 'The admin API is under /api/v1',
            details: { allow: ['GET', 'HEAD'] },
          },
        ),
      );
    if (!files) {
      res.writeHead(503, {
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
        ...SECURITY_HEADERS,
      });
      return void res.end(req.method === 'HEAD' ? undefined : NOT_BUILT);
    }
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      path = '/';
    }
    let file = files.get(path);
    if (!file && extname(path) !== '' && !path.startsWith('/projects/'))
      return refuse(res, new MockdevError('NOT_FOUND', `No file ${path} in the web UI`));
    file ??= files.get('/index.html')!;
    const gzip = file.gzip && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const body = gzip ? file.gzip! : file.body;
    const headers = {
      'Cache-Control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      ETag: file.etag,
      ...(file.gzip ? { Vary: 'Accept-Encoding' } : {}),
      ...SECURITY_HEADERS,
    };
    if (req.headers['if-none-match']?.split(/\s*,\s*/).includes(file.etag)) {
      res.writeHead(304, headers);
      return void res.end();
    }
    res.writeHead(200, {
      'Content-Type': file.type,
      'Content-Length': body.length,
      ...headers,
      ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
