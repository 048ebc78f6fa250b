import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type * as z from 'zod';
import { MockdevError, ioFailure } from '../../core/errors.js';
import { issueMessage, jsonSyntaxProblem } from '../../core/validate.js';
import { PRIVATE_FILE } from './private.js';

/** Pretty-printed JSON with a final newline: readable and friendly to git diffs. */
export const formatJson = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/**
 * Writes a file atomically: the content goes to a temp file in the same folder, is flushed,
 * then renamed over the target, so a reader never sees half a file. `mode`: the new file's
 * permissions: private (0600) by default, as everything in the data directory; SHARED_FILE
 * for the user's own files (project folders, exports).
 */
export async function writeFileAtomic(file: string, content: string, mode = PRIVATE_FILE): Promise<void> {
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await fs.open(tmp, 'w', mode);
    try {
      await handle.writeFile(content, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, file);
  } catch (e) {
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    throw ioError(`Could not write ${file}`, e);
  }
}

export async function writeJsonAtomic(file: string, value: unknown, mode = PRIVATE_FILE): Promise<void> {
  await writeFileAtomic(file, formatJson(value), mode);
}

/** Reads and parses a JSON file; undefined when it does not exist; CORRUPT_FILE when broken. */
export async function readJsonFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw ioError(`Could not read ${file}`, e);
  }
  return parseJsonText(file, text);
}

export function parseJsonText(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new MockdevError('CORRUPT_FILE', `${file} is not valid JSON (${jsonSyntaxProblem(e)})`, {
      hint: 'Fix the file by hand or restore it from version control; mockdev will not overwrite it',
      details: { file },
    });
  }
}

/** Validates parsed JSON against a schema, naming the file and the first problem. */
export function checkShape<S extends z.ZodType>(file: string, schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const where = issue.path.length ? ` at ${issue.path.join('.')}` : '';
  throw new MockdevError('CORRUPT_FILE', `${file} has an invalid value${where}: ${issueMessage(issue)}`, {
    hint: 'Fix the file by hand or restore it from version control; mockdev will not overwrite it',
    details: { file, path: issue.path.join('.') },
  });
}

/** The names in a folder; none when the folder does not exist. */
export async function readFolderNames(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw ioError(`Could not read ${dir}`, e);
  }
}

/** IO_ERROR for a failed read or write: the message (naming the file), then the cause in words. */
export const ioError = (message: string, e: unknown, file?: string): MockdevError =>
  ioFailure(message, e, file);
