import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { findProgram, runProgram } from './programs.js';

/** Running (a zombie left for a parent to reap is not). */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
};

describe('the programs tls status asks', () => {
  it('finds a program on the given PATH only, and runs it without a shell', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'mockdev-programs-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'certutil'), '#!/bin/sh\necho "args: $*"; echo oops >&2; exit 3\n');
    chmodSync(join(dir, 'certutil'), 0o755);
    assert.equal(await findProgram('certutil', { PATH: `/nonexistent:${dir}` }), join(dir, 'certutil'));
    assert.equal(await findProgram('certutil', { PATH: '/nonexistent' }), undefined);
    const r = await runProgram(join(dir, 'certutil'), ['-L', '$HOME; x'], { env: {}, timeoutMs: 10_000 });
    assert.deepEqual(r, { code: 3, stdout: 'args: -L $HOME; x\n', stderr: 'oops\n', timedOut: false });
  });

  it('answers "timed out" when the bound passes, and kills the program and what it started', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'mockdev-programs-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    // It starts a child that would hold the output open for ten minutes, then waits as long.
    writeFileSync(
      join(dir, 'keytool'),
      `#!/bin/sh\nsleep 600 &\necho $! > ${join(dir, 'child')}\nsleep 600\n`,
    );
    chmodSync(join(dir, 'keytool'), 0o755);
    const started = Date.now();
    const r = await runProgram(join(dir, 'keytool'), [], { env: {}, timeoutMs: 500 });
    assert.equal(r.timedOut, true);
    assert.equal(r.code, null);
    assert.ok(Date.now() - started < 10_000, 'resolved at the bound, not when the program ends');
    const child = Number(readFileSync(join(dir, 'child'), 'utf8'));
    for (let i = 0; i < 100 && alive(child); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(alive(child), false, 'the child was killed too');
  });

  it('says why a program could not start', async () => {
    const r = await runProgram('/nonexistent/keytool', [], { env: {}, timeoutMs: 5_000 });
    assert.equal(r.timedOut, false);
    assert.match(r.error ?? '', /ENOENT/);
  });
});
