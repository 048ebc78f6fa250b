/**
 * The two MCP transports of the HTTP mode, over the open sessions: Streamable HTTP on /mcp (a
 * session per initialize, its id in Mcp-Session-Id) and the legacy HTTP+SSE transport (a stream
 * on GET /mcp/sse, messages on POST /mcp/messages). Answers on these paths keep the JSON-RPC
 * error shape MCP clients read, with the problem (core/problem.ts) as the error's `data`.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { MockdevError } from '../core/errors.js';
import { toProblem } from '../core/problem.js';
import { parseJsonBody } from '../core/sliced-json.js';
import { ClientGone, DOCUMENT_BODY_LIMIT_BYTES, readBody, type BodyLimit } from '../http/body.js';
import { problemReply, writeReply } from '../http/reply.js';
import type { SessionRegistry, TransportKind } from './sessions.js';
import { MCP_WORDING } from './wording.js';

export const MCP_PATH = '/mcp';

/**
 * The largest JSON-RPC message taken: import_openapi carries a whole OpenAPI document as a
 * string (the admin API's import limit, http/body.ts).
 */
export const MCP_BODY_LIMIT: BodyLimit = {
  bytes: DOCUMENT_BODY_LIMIT_BYTES,
  name: 'the limit of an MCP message',
};

/** JSON-RPC error codes used on /mcp. */
const RPC = { parse: -32700, invalidRequest: -32600, server: -32000, noSession: -32001 } as const;

/** A JSON-RPC error on /mcp: the catalogue's HTTP status, the problem as `error.data`. */
export function sendRpcError(res: ServerResponse, error: MockdevError, code: number): void {
  const reply = problemReply(error, { say: MCP_WORDING });
  const problem = toProblem(error, { say: MCP_WORDING });
  writeReply(res, {
    status: reply.status,
    headers: { ...reply.headers, 'Content-Type': 'application/json; charset=utf-8' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      error: { code, message: problem.detail, data: problem },
      id: null,
    }),
  });
}

/**
 * Reads a JSON-RPC body (a large one parsed in slices: other clients are served meanwhile);
 * answers the JSON-RPC error itself and returns undefined when it cannot.
 */
async function readMessage(
  req: IncomingMessage,
  res: ServerResponse,
): Promise<{ body: unknown } | undefined> {
  let text: string;
  try {
    text = (await readBody(req, MCP_BODY_LIMIT)).toString('utf8');
  } catch (e) {
    if (e instanceof ClientGone) return undefined;
    sendRpcError(res, e as MockdevError, RPC.invalidRequest);
    return undefined;
  }
  try {
    return { body: await parseJsonBody(text) };
  } catch {
    sendRpcError(
      res,
      new MockdevError('INVALID_ARGUMENT', 'Parse error: the request body is not valid JSON'),
      RPC.parse,
    );
    return undefined;
  }
}

export interface TransportOptions {
  sessions: SessionRegistry;
  /** A protocol server for a new session; `sessionId` is read once the transport has one. */
  newServer(sessionId: () => string | undefined, kind: TransportKind): Server;
}

export function createTransports({ sessions, newServer }: TransportOptions) {
  /** GET, POST and DELETE /mcp: Streamable HTTP. */
  async function streamable(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    let body: unknown;
    if (req.method === 'POST') {
      const read = await readMessage(req, res);
      if (!read) return;
      body = read.body;
    }
    if (sessionId) {
      const session = sessions.get(sessionId);
      if (!session || session.transport !== 'streamable-http')
        return sendRpcError(
          res,
          new MockdevError(
            'NOT_FOUND',
            `Session "${sessionId}" not found: it ended or the server restarted`,
            {
              hint: 'Initialize a new session',
            },
          ),
          RPC.noSession,
        );
      sessions.touch(sessionId);
      if (req.method === 'GET') {
        session.openStreams++;
        res.once('close', () => {
          session.openStreams--;
          sessions.touch(sessionId);
        });
      }
      return (session.connection as StreamableHTTPServerTransport).handleRequest(req, res, body);
    }
    const initializing =
      req.method === 'POST' &&
      (Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body));
    if (!initializing)
      return sendRpcError(
        res,
        new MockdevError('INVALID_ARGUMENT', 'Bad request: no Mcp-Session-Id header', {
          hint: 'Send an initialize request first to open a session',
        }),
        RPC.server,
      );
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        const now = new Date().toISOString();
        sessions.add({
          id,
          transport: 'streamable-http',
          server,
          connection: transport,
          since: now,
          lastActivity: now,
          openStreams: 0,
        });
      },
    });
    const server = newServer(() => transport.sessionId, 'streamable-http');
    server.onclose = () => {
      if (transport.sessionId) sessions.remove(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  /** GET /mcp/sse: opens a legacy SSE session. */
  async function openSse(_req: IncomingMessage, res: ServerResponse): Promise<void> {
    const transport = new SSEServerTransport(`${MCP_PATH}/messages`, res);
    const server = newServer(() => transport.sessionId, 'sse');
    const now = new Date().toISOString();
    sessions.add({
      id: transport.sessionId,
      transport: 'sse',
      server,
      connection: transport,
      since: now,
      lastActivity: now,
      openStreams: 1,
    });
    server.onclose = () => sessions.remove(transport.sessionId);
    await server.connect(transport);
  }

  /** POST /mcp/messages?sessionId=…: a message of a legacy SSE session. */
  async function postSseMessage(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const id = url.searchParams.get('sessionId') ?? '';
    const session = sessions.get(id);
    if (!session || session.transport !== 'sse')
      return sendRpcError(
        res,
        new MockdevError('NOT_FOUND', `Session "${id}" not found`, {
          hint: `Open a new stream with GET ${MCP_PATH}/sse`,
        }),
        RPC.noSession,
      );
    const read = await readMessage(req, res);
    if (!read) return;
    sessions.touch(id);
    await (session.connection as SSEServerTransport).handlePostMessage(req, res, read.body);
  }

  return { streamable, openSse, postSseMessage };
}

/** The 405 of /mcp, in JSON-RPC. */
export const rpcMethodNotAllowed = (res: ServerResponse, method: string, allow: string[]): void =>
  sendRpcError(
    res,
    new MockdevError('METHOD_NOT_ALLOWED', `Method ${method} not allowed on ${MCP_PATH}`, {
      hint: `Use ${allow.join(', ')}`,
      details: { allow },
    }),
    RPC.server,
  );
