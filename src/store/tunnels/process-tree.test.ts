import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { hasEnded, stopTree } from './process-tree.js';

/** A detached node process; `ignoreTerm` makes it ignore SIGTERM. */
function detached(t: { after(fn: () => void): void }, ignoreTerm: boolean): number {
  const code = `${ignoreTerm ? "process.on('SIGTERM', () => {});" : ''} setInterval(() => {}, 1 << 30);`;
  const child = spawn(process.execPath, ['-e', code], { detached: true, stdio: 'ignore' });
  child.unref();
  t.after(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone
    }
  });
  return child.pid!;
}

const started = (ms = 300) => new Promise((r) => setTimeout(r, ms));

describe('stopTree', { skip: process.platform === 'win32' && 'POSIX process groups' }, () => {
  it('ends a process with SIGTERM', async (t) => {
    const pid = detached(t, false);
    await started();
    assert.equal(await stopTree(pid, 5000), true);
    assert.equal(hasEnded(pid), true);
  });

  it('sends SIGKILL after the grace period to one that ignores SIGTERM', async (t) => {
    const pid = detached(t, true);
    await started();
    const t0 = Date.now();
    assert.equal(await stopTree(pid, 400), true);
    assert.equal(hasEnded(pid), true);
    assert.ok(Date.now() - t0 >= 400, 'it waited the grace period first');
  });

  it('sends nothing to a pid that is not the process recorded', async (t) => {
    const pid = detached(t, false);
    await started();
    assert.equal(await stopTree(pid, 1000, 'another-start-time'), process.platform !== 'linux');
    if (process.platform === 'linux') assert.equal(hasEnded(pid), false);
  });
});
