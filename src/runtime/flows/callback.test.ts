import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { sendCallback, type CallbackRequest } from './callback.js';

/**
 * A receiver on a raw socket: answers each request with 204 and keeps the connection, except the
 * requests `dropOn` names (1-based, counted over all connections): for those it resets the
 * connection without answering, as a server whose idle timeout closes a kept-alive socket just as
 * a request is written on it.
 */
async function receiver(t: { after(fn: () => unknown): void }, dropOn: number[]) {
  let requests = 0;
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      // One request at a time, no body (the tests send none).
      while (buffered.includes('\r\n\r\n')) {
        buffered = buffered.slice(buffered.indexOf('\r\n\r\n') + 4);
        requests++;
        if (dropOn.includes(requests)) return socket.resetAndDestroy();
        socket.write('HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    for (const s of sockets) s.destroy();
    return new Promise((resolve) => server.close(resolve));
  });
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
  return { url, counts: () => ({ requests, connections }) };
}

const requestTo = (url: URL): CallbackRequest => ({
  method: 'GET',
  url,
  headers: {},
  body: null,
  shownUrl: url.href,
});

describe('sendCallback', () => {
  it('makes a callback again on a new connection when a kept-alive one was reset before any answer', async (t) => {
    const r = await receiver(t, [2]);
    const first = await sendCallback(requestTo(r.url), 5000, new AbortController().signal);
    assert.equal(first.status, 204);
    // The second goes out on the kept-alive socket, which the receiver resets unanswered.
    const second = await sendCallback(requestTo(r.url), 5000, new AbortController().signal);
    assert.equal(second.status, 204);
    assert.deepEqual(r.counts(), { requests: 3, connections: 2 });
  });

  it('reports a connection reset on a fresh connection as the failure it is (no endless retry)', async (t) => {
    const r = await receiver(t, [1, 2, 3, 4]);
    await assert.rejects(
      sendCallback(requestTo(r.url), 5000, new AbortController().signal),
      /connection reset by 127\.0\.0\.1/,
    );
    assert.equal(r.counts().requests, 1);
  });
});
