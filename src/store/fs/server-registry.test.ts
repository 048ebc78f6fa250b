/**
 * The file registry's own side of run requests (the ServerRegistry contract, test/contract/,
 * covers what every implementation does): the folder a server's requests wait in is removed
 * with its record, and swept when its server is gone.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ServerRecord } from '../../core/model/server.js';
import { FileServerRegistry } from './server-registry.js';

const root = mkdtempSync(join(tmpdir(), 'mockdev-registry-'));
after(() => rmSync(root, { recursive: true, force: true }));

const serverRecord = (pid: number, port: number): ServerRecord => ({
  pid,
  projectId: 'p1',
  projectName: 'Project',
  projectDir: '/somewhere',
  host: '127.0.0.1',
  port,
  url: `http://127.0.0.1:${port}`,
  startedAt: new Date().toISOString(),
});

describe('FileServerRegistry run requests', () => {
  it('removes the requests waiting for a server with its record, and sweeps those of a server gone', async () => {
    const registry = new FileServerRegistry(join(root, 'data'));
    const record = serverRecord(process.pid, 4100);
    await registry.register(record);
    assert.equal(registry.requestRun(record, { runId: 'r1', flowId: 'f1' }), true);
    assert.deepEqual(readdirSync(registry.dir).sort(), [
      `${process.pid}-4100.json`,
      `${process.pid}-4100.runs`,
    ]);
    await registry.unregister(record);
    assert.deepEqual(readdirSync(registry.dir), []);
    // Left by a server that died without unregistering.
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    mkdirSync(join(registry.dir, `${gone}-4101.runs`));
    writeFileSync(join(registry.dir, `${gone}-4101.runs`, '0-0-r2.json'), '{"runId":"r2","flowId":"f1"}');
    assert.deepEqual(await registry.list(), []);
    assert.equal(existsSync(join(registry.dir, `${gone}-4101.runs`)), false);
  });
});
