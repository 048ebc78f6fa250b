import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempContext } from '../../../test/helpers/context.js';
import type { AppContext } from '../../app/context.js';
import { createProject, deleteProject, initProject } from '../../app/projects.js';
import { MockdevError } from '../../core/errors.js';
import type { ContractRef } from '../../core/model/contract.js';
import type { StoredProject } from '../../core/ports.js';

const YAML = 'openapi: 3.0.3\ninfo: { title: T, version: "1" }\npaths: {}\n';

/** Writes the document through the store and records it in project.json, as an import does. */
async function giveContract(
  ctx: AppContext,
  stored: StoredProject,
  format: 'json' | 'yaml',
): Promise<StoredProject> {
  const file = await ctx.contracts.write(stored, YAML, format);
  const ref: ContractRef = { file, source: 'upload', importedAt: new Date().toISOString() };
  await ctx.projects.update(stored.key, (current) => ({
    project: { ...current.project, contract: ref },
    result: undefined,
  }));
  return ctx.projects.read(stored.key);
}

describe('FileContractStore', () => {
  it('writes the document beside project.json (private in the data directory), reads it back, removes it', async (t) => {
    const ctx = tempContext(t);
    await createProject(ctx, { name: 'shop' });
    const [stored] = await ctx.projects.find('shop');
    assert.equal(await ctx.contracts.read(stored!), undefined, 'no contract recorded: none read');
    const withContract = await giveContract(ctx, stored!, 'yaml');
    const file = join(stored!.key, 'contract.yaml');
    assert.equal(readFileSync(file, 'utf8'), YAML);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(await ctx.contracts.read(withContract), {
      text: YAML,
      file: 'contract.yaml',
      location: file,
    });
    await ctx.contracts.remove(withContract);
    assert.equal(existsSync(file), false);
  });

  it('says which file is missing, and refuses a project.json naming a path out of the folder', async (t) => {
    const ctx = tempContext(t);
    await createProject(ctx, { name: 'shop' });
    const [stored] = await ctx.projects.find('shop');
    const withContract = await giveContract(ctx, stored!, 'json');
    await ctx.contracts.remove(withContract);
    await assert.rejects(ctx.contracts.read(withContract), (e: MockdevError) => {
      assert.equal(e.code, 'CORRUPT_FILE');
      assert.match(e.message, /The contract file .*contract\.json that project\.json names is missing/);
      return true;
    });
    writeFileSync(join(stored!.key, '..', 'secret.yaml'), 'not yours');
    const escaping = {
      ...withContract,
      project: {
        ...withContract.project,
        contract: { ...withContract.project.contract!, file: '../secret.yaml' },
      },
    };
    for (const op of [() => ctx.contracts.read(escaping), () => ctx.contracts.remove(escaping)])
      await assert.rejects(op(), (e: MockdevError) => {
        assert.equal(e.code, 'CORRUPT_FILE');
        assert.match(
          e.message,
          /names the contract file "\.\.\/secret\.yaml", which is not a file name in the project's folder/,
        );
        return true;
      });
    assert.ok(existsSync(join(stored!.key, '..', 'secret.yaml')));
  });

  it('deleting a folder project removes its contract file with its other files, and nothing else', async (t) => {
    const ctx = tempContext(t);
    const { dir } = await initProject(ctx, { path: 'api', name: 'api' });
    const stored = (await ctx.projects.openFolder('api', ctx.cwd))!;
    await giveContract(ctx, stored, 'yaml');
    writeFileSync(join(dir, 'contract.json'), '{"mine": true}'); // the user's, not recorded
    writeFileSync(join(dir, 'notes.md'), 'keep me');
    assert.ok(existsSync(join(dir, 'contract.yaml')));
    await deleteProject(ctx, 'api');
    assert.equal(existsSync(join(dir, 'project.json')), false);
    assert.equal(existsSync(join(dir, 'contract.yaml')), false);
    assert.ok(existsSync(join(dir, 'contract.json')), 'a file project.json did not name stays');
    assert.ok(existsSync(join(dir, 'notes.md')));
  });
});
