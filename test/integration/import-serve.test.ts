/**
 * Served responses after import: documents and cURL commands imported through the CLI, then
 * `mockdev serve` (on a free port the OS picks) answers with what the import produced,
 * including the unusual path templates.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CLI, ROOT, runCli, tempDir } from '../helpers/cli.js';

const FIX = join(ROOT, 'test', 'fixtures', 'openapi');
let tmp: ReturnType<typeof tempDir>;
const children: ChildProcess[] = [];

before(() => {
  tmp = tempDir('mockdev-serve-import-');
});
after(() => {
  for (const c of children) if (c.exitCode === null && c.pid) process.kill(c.pid, 'SIGKILL');
  tmp.cleanup();
});

/** Starts `mockdev serve PROJECT -p 0` and resolves with its base URL. */
function serve(dataDir: string, project: string): Promise<{ base: string; stop: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'serve', project, '-p', '0'], {
      env: { ...process.env, MOCKDEV_DATA_DIR: dataDir, MOCKDEV_LOG_LEVEL: undefined },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      if (child.pid) process.kill(child.pid, 'SIGKILL');
      reject(new Error(`serve did not start in time\n${out}\n${err}`));
    }, 20_000);
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /at (http:\/\/[^\s]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          base: m[1]!,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              const kill = setTimeout(() => child.pid && process.kill(child.pid, 'SIGKILL'), 5_000);
              child.once('exit', () => {
                clearTimeout(kill);
                done();
              });
              if (child.pid) process.kill(child.pid, 'SIGTERM');
            }),
        });
      }
    });
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}\n${out}\n${err}`));
    });
  });
}

const get = async (url: string, method = 'GET') => {
  const res = await fetch(url, { method, signal: AbortSignal.timeout(10_000) });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    headers: res.headers,
    text: await res.text(),
  };
};

describe('served responses after import', () => {
  it('serves what an OpenAPI import produced, path templates included', async () => {
    const dataDir = join(tmp.dir, 'a');
    for (const f of ['petstore-3.0.yaml', 'api-3.1.yaml', 'swagger-2.0.json']) {
      const r = await runCli(['import', join(FIX, f)], { dataDir });
      assert.equal(r.code, 0, r.stderr);
    }
    const pet = await serve(dataDir, 'Petstore');
    try {
      const list = await get(`${pet.base}/pets`);
      assert.equal(list.status, 200);
      assert.match(list.type, /application\/json/);
      assert.equal(list.headers.get('x-next'), '/pets?page=2');
      assert.deepEqual(JSON.parse(list.text), [
        { name: 'string', tag: 'string', status: 'available', born: '2024-01-01', id: 0 },
      ]);
      const one = await get(`${pet.base}/pets/123`);
      assert.deepEqual(JSON.parse(one.text), { id: 1, name: 'Rex', tag: 'dog' });
      const created = await get(`${pet.base}/pets`, 'POST');
      assert.equal(created.status, 201);
      const deleted = await get(`${pet.base}/pets/5`, 'DELETE');
      assert.equal(deleted.status, 204);
      const health = await get(`${pet.base}/health`);
      assert.match(health.type, /text\/plain/);
      assert.equal(health.text, 'ok');
    } finally {
      await pet.stop();
    }

    const templates = await serve(dataDir, 'Templates 3.1');
    try {
      const call = await get(`${templates.base}/2010-04-01/Accounts/AC42/Calls/CA0123.json`);
      assert.equal(call.status, 200, call.text);
      assert.equal(JSON.parse(call.text).sid, 'CA0123456789abcdef0123456789abcdef');
      const compare = await get(`${templates.base}/repos/octo/hello/compare/main...feature-x`);
      assert.equal(compare.status, 200, compare.text);
      assert.equal(JSON.parse(compare.text).status, 'ahead');
      const team = await get(`${templates.base}/enterprises/acme/teams/platform-team`, 'DELETE');
      assert.equal(team.status, 204, team.text);
    } finally {
      await templates.stop();
    }

    const legacy = await serve(dataDir, 'Legacy Users');
    try {
      const csv = await get(`${legacy.base}/reports/2024-05.csv`);
      assert.equal(csv.status, 200, csv.text);
      assert.match(csv.type, /text\/csv/);
      assert.equal(csv.text, 'day,total\n1,10\n');
      const xml = await get(`${legacy.base}/users/abc`);
      assert.match(xml.type, /application\/xml/);
      assert.equal(xml.text, '<user><id>1</id></user>');
    } finally {
      await legacy.stop();
    }
  });

  it('serves endpoints imported from cURL commands', async () => {
    const dataDir = join(tmp.dir, 'b');
    assert.equal((await runCli(['project', 'create', 'FromCurl'], { dataDir })).code, 0);
    const cmds = [
      `curl https://api.example.com/api/v1/users/42 -H 'Authorization: Bearer x'`,
      `curl -X POST https://api.example.com/api/v1/orders -H 'Content-Type: application/json' -d '{"sku":"A-1","qty":2}'`,
    ];
    for (const c of cmds) {
      const r = await runCli(['curl', c, '-p', 'FromCurl'], { dataDir });
      assert.equal(r.code, 0, r.stderr);
    }
    const server = await serve(dataDir, 'FromCurl');
    try {
      const user = await get(`${server.base}/api/v1/users/42`);
      assert.equal(user.status, 200);
      assert.equal(user.text, '');
      const order = await get(`${server.base}/api/v1/orders`, 'POST');
      assert.equal(order.status, 200);
      assert.deepEqual(JSON.parse(order.text), { sku: 'A-1', qty: 2 });
    } finally {
      await server.stop();
    }
  });
});
