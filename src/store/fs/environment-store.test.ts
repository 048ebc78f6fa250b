import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FileEnvironmentStore } from './environment-store.js';

describe('FileEnvironmentStore on disk', () => {
  it('keeps the secrets in <id>.secrets.json (0600), out of <id>.json; a broken one is never quoted', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'mockdev-envstore-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const store = new FileEnvironmentStore(dir);
    await store.create({
      id: 'e1',
      name: 'dev',
      projectId: null,
      variables: { HOST: 'h', TOKEN: 'top-secret-value' },
      secretKeys: ['TOKEN'],
      createdAt: 'x',
      updatedAt: 'x',
    });
    const plain = readFileSync(join(dir, 'environments', 'e1.json'), 'utf8');
    assert.ok(!plain.includes('top-secret-value'));
    assert.match(plain, /"TOKEN"/);
    const secretsFile = join(dir, 'environments', 'e1.secrets.json');
    assert.equal(statSync(secretsFile).mode & 0o777, 0o600);
    assert.deepEqual(JSON.parse(readFileSync(secretsFile, 'utf8')), { TOKEN: 'top-secret-value' });
    writeFileSync(secretsFile, '{"TOKEN": top-secret-value');
    await assert.rejects(store.get('e1'), (e: Error & { code?: string }) => {
      assert.equal(e.code, 'CORRUPT_FILE');
      assert.ok(!e.message.includes('top-secret'));
      return true;
    });
    await store.update('e1', (c) => c).catch(() => undefined);
    writeFileSync(secretsFile, '{"TOKEN": "v"}');
    await store.update('e1', (c) => ({ ...c, secretKeys: [] }));
    assert.throws(() => statSync(secretsFile), { code: 'ENOENT' });
  });
});
