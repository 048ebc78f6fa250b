import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { exportOpenApi } from '../../app/openapi.js';
import { MockdevError } from '../../core/errors.js';
import type { ExportOptions } from '../commands/export.js';
import { note } from '../output.js';
import { cliContext } from './context.js';

export async function exportProject(project: string, opts: ExportOptions): Promise<void> {
  const format = (opts.format ?? 'yaml').trim().toLowerCase();
  if (format !== 'json' && format !== 'yaml' && format !== 'yml') {
    throw new MockdevError('INVALID_ARGUMENT', `Invalid --format "${opts.format}": must be json or yaml`, {
      hint: 'Example: mockdev export my-api -f json',
    });
  }
  const version = (opts.openapi ?? '3.0')
    .trim()
    .replace(/^(3\.0)\.\d+$/, '$1')
    .replace(/^(3\.1)\.\d+$/, '$1');
  if (version !== '3.0' && version !== '3.1') {
    throw new MockdevError('INVALID_ARGUMENT', `Invalid --openapi "${opts.openapi}": must be 3.0 or 3.1`, {
      hint: 'Example: mockdev export my-api --openapi 3.1',
    });
  }
  const ctx = cliContext();
  const { text } = await exportOpenApi(ctx, project, {
    format: format === 'json' ? 'json' : 'yaml',
    openapiVersion: version,
  });
  if (opts.output === undefined || opts.output === '-') {
    process.stdout.write(text);
    return;
  }
  const target = resolve(ctx.cwd, opts.output);
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temp, text, 'utf8');
    await rename(temp, target);
  } catch (e) {
    await rm(temp, { force: true });
    const code = (e as NodeJS.ErrnoException).code;
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Cannot write ${opts.output}: ${code === 'ENOENT' ? 'its folder does not exist' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a folder' : (e as Error).message}`,
      {
        hint: 'Choose a path in an existing, writable folder',
      },
    );
  }
  note(
    `Wrote ${opts.output} (OpenAPI ${version === '3.1' ? '3.1.0' : '3.0.3'}, ${format === 'json' ? 'JSON' : 'YAML'})`,
  );
}
