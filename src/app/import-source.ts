import { dirname, join } from 'node:path';
import { MockdevError } from '../core/errors.js';
import { controlReason, notTextReason } from '../core/text.js';
import type { WireMockSource } from '../formats/converted.js';
import { parseImportText, type ParsedImport } from '../formats/detect.js';
import type { AppContext } from './context.js';
import type { Within } from './openapi-load.js';

/**
 * Reading what `import` is given: a document's text (a file, or given as text), or a WireMock
 * folder (its `mappings/*.json` and the `__files/` bodies they name). Through ctx.files, so the
 * admin API's `within` rule holds for every file read.
 */

export type ImportSource =
  | { kind: 'text'; label: string; text: string; parsed: ParsedImport; file?: string }
  | { kind: 'folder'; label: string; wiremock: WireMockSource };

const HINT =
  'Give a HAR file, a Postman collection, a Mockoon environment export, WireMock mappings or an OpenAPI document';

export async function readImportSource(
  ctx: AppContext,
  input: { text?: string; file?: string },
  within: Within,
): Promise<ImportSource> {
  if (input.text !== undefined && input.file !== undefined)
    throw new MockdevError('INVALID_ARGUMENT', 'Give either the document text or a file, not both');
  if (input.text !== undefined) {
    const reason = controlReason(input.text);
    if (reason)
      throw new MockdevError('INVALID_INPUT', `The document is not text: ${reason}`, { hint: HINT });
    const label = 'The document';
    return { kind: 'text', label, text: input.text, parsed: parseImportText(input.text, label) };
  }
  const file = input.file;
  if (file === undefined || file.trim() === '')
    throw new MockdevError('INVALID_ARGUMENT', 'No file to import given', {
      hint: (say) => `give it as ${say.option('file')} or ${say.option('text')}`,
    });
  const entries = await ctx.files.list(file, { within });
  if (entries)
    return { kind: 'folder', label: file, wiremock: await readWireMockFolder(ctx, file, entries, within) };
  const bytes = await ctx.files.read(file, { within });
  const reason = notTextReason(bytes);
  if (reason)
    throw new MockdevError('INVALID_ARGUMENT', `${file} is not a text file: ${reason}`, {
      hint: HINT,
      details: { file },
    });
  const text = bytes.toString('utf8');
  return { kind: 'text', label: file, text, parsed: parseImportText(text, file), file };
}

type Entries = { name: string; folder: boolean }[];

/** A mapping file's JSON, or why it cannot be read (one line naming the file). */
function parseMapping(text: string, file: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch (e) {
    throw new MockdevError(
      'INVALID_INPUT',
      `${file} is not valid JSON: ${(e as Error).message.split('\n')[0]}`,
      {
        hint: 'Fix the mapping file (WireMock mappings are JSON)',
        details: { file },
      },
    );
  }
}

/**
 * A WireMock folder: `mappings/` (any depth) with `__files/` beside it, or a folder of mapping
 * files itself (then `__files/` inside it or beside it).
 */
async function readWireMockFolder(
  ctx: AppContext,
  folder: string,
  entries: Entries,
  within: Within,
): Promise<WireMockSource> {
  const hasMappings = entries.some((e) => e.folder && e.name === 'mappings');
  const mappingsDir = hasMappings ? join(folder, 'mappings') : folder;
  const files: string[] = [];
  const walk = async (dir: string, list: Entries) => {
    for (const e of list) {
      const path = join(dir, e.name);
      if (e.folder) {
        if (e.name === '__files') continue;
        await walk(path, (await ctx.files.list(path, { within })) ?? []);
      } else if (e.name.toLowerCase().endsWith('.json')) files.push(path);
    }
  };
  await walk(mappingsDir, hasMappings ? ((await ctx.files.list(mappingsDir, { within })) ?? []) : entries);
  if (files.length === 0)
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `${folder} holds no WireMock mapping files (mappings/*.json)`,
      {
        hint: 'Give the folder that holds mappings/ (and __files/), or one mapping file',
        details: { file: folder },
      },
    );
  const mappings = [];
  for (const path of files) {
    const text = (await ctx.files.read(path, { within })).toString('utf8');
    mappings.push({ file: path.slice(mappingsDir.length + 1) || path, content: parseMapping(text, path) });
  }
  const bodiesDir =
    hasMappings || entries.some((e) => e.folder && e.name === '__files')
      ? join(folder, '__files')
      : join(dirname(folder), '__files');
  return { mappings, bodyFile: await preloadBodies(ctx, bodiesDir, mappings, within) };
}

/** The `bodyFileName`s the mappings name, read now (the converter is synchronous and does no I/O). */
export async function preloadBodies(
  ctx: AppContext,
  bodiesDir: string,
  mappings: { content: unknown }[],
  within: Within,
): Promise<WireMockSource['bodyFile']> {
  const names = new Set<string>();
  const collect = (mapping: unknown) => {
    const response = (mapping as { response?: { bodyFileName?: unknown } } | null)?.response;
    if (typeof response?.bodyFileName === 'string') names.add(response.bodyFileName);
  };
  for (const { content } of mappings) {
    const list = (content as { mappings?: unknown } | null)?.mappings;
    if (Array.isArray(list)) list.forEach(collect);
    else collect(content);
  }
  const bodies = new Map<string, Buffer>();
  for (const name of names) {
    // Only inside __files: a name that leads out of it (../) is treated as missing.
    if (name.split(/[/\\]/).includes('..')) continue;
    try {
      bodies.set(name, await ctx.files.read(join(bodiesDir, name), { within }));
    } catch (e) {
      if (!(e instanceof MockdevError)) throw e;
    }
  }
  return (name) => bodies.get(name);
}

/** One mapping file (or `{ "mappings": [...] }`) as a WireMock source; bodies from `__files` beside it or its folder's parent. */
export async function wireMockFromFile(
  ctx: AppContext,
  source: Extract<ImportSource, { kind: 'text' }>,
  within: Within,
): Promise<WireMockSource> {
  const mappings = [{ file: source.label.replace(/^.*[/\\]/, ''), content: source.parsed.doc }];
  if (source.file === undefined) return { mappings, bodyFile: () => undefined };
  const dir = dirname(source.file);
  const beside = await ctx.files.list(join(dir, '__files'), { within }).catch(() => undefined);
  const bodiesDir = beside ? join(dir, '__files') : join(dirname(dir), '__files');
  return { mappings, bodyFile: await preloadBodies(ctx, bodiesDir, mappings, within) };
}
