import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A license signing key pair made by the test: its public key goes into MOCKDEV_LICENSE_PUBLIC_KEY. */
export interface TestSigner {
  publicKeyPem: string;
  privateKey: KeyObject;
  /** A key as DECISIONS "License keys" says, signed with this pair. */
  key(payload?: Partial<{ sub: string; plan: string; iat: number; exp: number | null }>): string;
}

export function testSigner(): TestSigner {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKey,
    key(payload = {}) {
      const body = {
        sub: 'dev@example.com',
        plan: 'pro',
        iat: Math.floor(Date.now() / 1000),
        exp: null,
        ...payload,
      };
      const p = Buffer.from(JSON.stringify(body)).toString('base64url');
      return `${p}.${sign(null, Buffer.from(p, 'ascii'), privateKey).toString('base64url')}`;
    },
  };
}

/** Unix seconds `days` from now (negative: in the past). */
export const daysFromNow = (days: number): number => Math.floor(Date.now() / 1000) + days * 86_400;

/** The same key with one character of its payload changed (a tampered key). */
export function tamper(key: string): string {
  const [payload, signature] = key.split('.') as [string, string];
  const json = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  json.sub = 'someone-else@example.com';
  return `${Buffer.from(JSON.stringify(json)).toString('base64url')}.${signature}`;
}

export interface StandInService {
  url: string;
  /** Requests received: method, path with query, parsed JSON body. */
  calls: { method: string; url: string; body: unknown }[];
  /** What GET /v1/activations answers next: status and body text (postStatus: the POSTs' status). */
  answer: { status: number; body: string };
  postStatus: number;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let text = '';
    req.setEncoding('utf8').on('data', (d: string) => (text += d));
    req.on('end', () => resolve(text));
  });

/** A local stand-in of the license service (docs/license.md) on 127.0.0.1, on a free port. */
export async function startStandInService(): Promise<StandInService> {
  const service: Omit<StandInService, 'url' | 'close'> = {
    calls: [],
    answer: { status: 200, body: JSON.stringify({ status: 'pending' }) },
    postStatus: 202,
  };
  const server: Server = createServer((req, res) => {
    void readBody(req).then((text) => {
      service.calls.push({
        method: req.method!,
        url: req.url!,
        body: text ? (JSON.parse(text) as unknown) : undefined,
      });
      if (req.method === 'POST' && (req.url === '/v1/activations' || req.url === '/v1/trials')) {
        res.writeHead(service.postStatus, { 'content-type': 'application/json' }).end('{}');
      } else if (req.method === 'GET' && req.url?.startsWith('/v1/activations?')) {
        res.writeHead(service.answer.status, { 'content-type': 'application/json' }).end(service.answer.body);
      } else {
        res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(service, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as StandInService;
}
