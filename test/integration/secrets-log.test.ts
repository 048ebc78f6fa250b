/**
 * Secrets stay out of the request log whatever form a template gives them (issue 20, part 2):
 * JSON-escaped (`{{json env}}`), upper- or lower-cased, URL-encoded, through Handlebars blocks and
 * the flat fast path, in the body and the headers. The client gets the response as rendered;
 * `requests show`, the admin API and MCP's get_request give the same response with each
 * secret-derived part as `********`, and nothing on disk holds a form of the secret.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createApiHandler } from '../../src/api/handler.js';
import { ALL_ROUTES } from '../../src/api/routes/index.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { json } from '../helpers/cli.js';
import { proSandbox, startProServer } from '../helpers/pro.js';
import { leakedPieces } from '../helpers/secrets.js';
import { makeProject, waitUntil } from '../helpers/server.js';

const TOKEN = 'Sk_Live"Quote\\Back/Ünï';
const HOST = 'api.test';
/** The forms of the secret the templates below write (and their pieces): none may be logged. */
const leaks = (text: string) => leakedPieces(text, TOKEN);

describe('secrets and the request log, whatever form a template gives them', () => {
  it('requests show, the admin API and MCP return the response with every secret-derived part masked', async (t) => {
    const sandbox = await proSandbox(t);
    const { cli, dataDir } = sandbox;
    await makeProject(dataDir, 'served', [
      {
        // The flat fast path: text and expressions only.
        path: '/flat',
        body: '{"raw":"{{env.TOKEN}}","up":"{{uppercase env.TOKEN}}","low":"{{lowercase env.TOKEN}}","url":"{{urlEncode env.TOKEN}}","env":{{json env}}}',
        headers: { 'X-Token': 'Bearer {{uppercase env.TOKEN}}', 'X-Host': '{{env.HOST}}' },
      },
      {
        // Handlebars blocks.
        path: '/blocks',
        body: '{{#each env}}{{@key}}={{lowercase this}};{{/each}}{{#with env}}{{json TOKEN}}{{/with}}',
        contentType: 'text/plain',
      },
    ]);
    const ok = async (args: string[]) => {
      const r = await cli(args);
      assert.equal(r.code, 0, r.stderr);
      return r;
    };
    await ok(['environment', 'create', '-n', 'dev', '-p', 'served', '--var', `HOST=${HOST}`]);
    // A secret with a quote and a backslash: its JSON form differs from it.
    await ok(['environment', 'update', 'dev', '--secret', `TOKEN=${TOKEN}`]);
    await ok(['environment', 'activate', 'served', 'dev']);
    const { ctx, server } = await startProServer(sandbox, 'served');

    const flat = await fetch(`${server.url}/flat`, { signal: AbortSignal.timeout(10_000) });
    assert.equal(flat.headers.get('x-token'), `Bearer ${TOKEN.toUpperCase()}`, 'the client gets it rendered');
    const flatText = await flat.text();
    assert.equal(flat.headers.get('content-length'), String(Buffer.byteLength(flatText)));
    assert.equal(
      flatText,
      `{"raw":"${TOKEN}","up":"${TOKEN.toUpperCase()}","low":"${TOKEN.toLowerCase()}","url":"${encodeURIComponent(TOKEN)}","env":${JSON.stringify({ HOST, TOKEN })}}`,
    );
    const blocks = await (
      await fetch(`${server.url}/blocks`, { signal: AbortSignal.timeout(10_000) })
    ).text();
    assert.equal(blocks, `HOST=${HOST};TOKEN=${TOKEN.toLowerCase()};${JSON.stringify(TOKEN)}`);

    const list = async () =>
      json<{ id: string; path: string }[]>(await ok(['requests', 'list', 'served', '--json']));
    await waitUntil(async () => (await list()).length === 2, 'both requests in the log');
    const ids = Object.fromEntries((await list()).map((r) => [r.path, r.id]));

    // The admin API and MCP over the same data directory.
    const api = createApiHandler({ ctx, routes: ALL_ROUTES, origins: () => [], loopback: true });
    const mcpServer = createMcpServer({ ctx, version: '0.0.0-test' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcpServer.connect(serverSide);
    const mcp = new Client({ name: 'test', version: '0.0.0' });
    await mcp.connect(clientSide);
    sandbox.defer(() => mcp.close());

    const expected: Record<string, { body: string; headers: Record<string, string> }> = {
      '/flat': {
        body: '{"raw":"********","up":"********","low":"********","url":"********","env":{"HOST":"api.test","TOKEN":"********"}}',
        headers: { 'X-Token': 'Bearer ********', 'X-Host': HOST },
      },
      '/blocks': { body: 'HOST=api.test;TOKEN=********;"********"', headers: {} },
    };
    for (const [path, id] of Object.entries(ids)) {
      const shown = (await ok(['requests', 'show', id!, '--json'])).stdout;
      const viaApi = await api({
        method: 'GET',
        url: `/api/v1/requests/${id}`,
        headers: { host: '127.0.0.1' },
        body: '',
      });
      assert.ok('body' in viaApi && viaApi.status === 200, JSON.stringify(viaApi));
      const viaMcp = (await mcp.callTool({
        name: 'get_request',
        arguments: { requestId: id },
      })) as CallToolResult;
      assert.ok(!viaMcp.isError);
      for (const [surface, text] of [
        ['requests show', shown],
        ['the admin API', viaApi.body],
        ['MCP', JSON.stringify(viaMcp)],
      ] as const) {
        assert.deepEqual(leaks(text), [], `${surface} ${path}: ${text}`);
        const record = JSON.parse(surface === 'MCP' ? JSON.stringify(viaMcp.structuredContent) : text) as {
          response: { body: string; headers: Record<string, string> };
        };
        assert.equal(record.response.body, expected[path]!.body, `${surface} ${path}`);
        for (const [k, v] of Object.entries(expected[path]!.headers))
          assert.equal(record.response.headers[k], v, `${surface} ${path} ${k}`);
      }
    }
    // The log's files hold no form of the secret either.
    for (const name of readdirSync(dataDir).filter(
      (n) => n.startsWith('requests') && statSync(join(dataDir, n)).isFile(),
    ))
      assert.deepEqual(leaks(readFileSync(join(dataDir, name), 'utf8')), [], name);
  });
});
