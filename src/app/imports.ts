import { MockdevError, PLAIN_WORDING } from '../core/errors.js';
import { keepTextLiteral } from '../core/model/imported-text.js';
import type { LiteralText, TemplatesTreatment } from '../core/model/imports.js';
import type {
  ConvertedFormat,
  ConvertedImport,
  HarOptions,
  ImportFormat,
  WireMockSource,
} from '../formats/converted.js';
import { detectImportFormat, FORMAT_LABELS, type Recognizer } from '../formats/detect.js';
import { convertHar } from '../formats/har/index.js';
import { convertMockoon } from '../formats/mockoon/index.js';
import { convertPostman } from '../formats/postman/index.js';
import { convertWireMock } from '../formats/wiremock/index.js';
import type { AppContext } from './context.js';
import { importExtras, type ImportExtras } from './import-extras.js';
import { readImportSource, wireMockFromFile } from './import-source.js';
import { DRY_RUN_ID, writeImport, type ImportItem } from './import-write.js';
import { requirePro } from './license.js';
import {
  importOpenApi,
  projectNameFrom,
  type ImportInput,
  type ImportOptions,
  type ImportReport,
} from './openapi.js';
import { resolveProject } from './projects.js';

/**
 * `mockdev import` of any format (docs/import.md): OpenAPI, HAR, Postman, Mockoon, WireMock.
 * Reads the file (or a WireMock folder), detects the format unless given, converts, and writes
 * the endpoints and resources the way an OpenAPI import does (import-write.ts); `dryRun`
 * reports the same and writes nothing.
 */

export interface FileImportInput extends ImportInput {
  /** The format; absent: detected from the content. */
  format?: ImportFormat;
  /** HAR: only this host's entries. */
  includeHost?: string;
  /** HAR: static assets too. */
  all?: boolean;
  /** Postman: the collection's variables as an environment of the project (Pro). */
  env?: boolean;
}

export type FileImportReport = ImportReport &
  Required<Pick<ImportReport, 'format' | 'dryRun' | 'approximate' | 'resources' | 'variables'>>;

/** The converters by format (tests give their own). */
export interface Converters {
  har: (doc: unknown, options: HarOptions) => ConvertedImport;
  postman: (doc: unknown) => ConvertedImport;
  mockoon: (doc: unknown) => ConvertedImport;
  wiremock: (source: WireMockSource) => ConvertedImport;
}

export const CONVERTERS: Converters = {
  har: convertHar,
  postman: convertPostman,
  mockoon: convertMockoon,
  wiremock: convertWireMock,
};

export type FileImportOptions = ImportOptions & {
  recognizers?: Record<ConvertedFormat, Recognizer>;
  converters?: Converters;
};

export async function importFile(
  ctx: AppContext,
  input: FileImportInput,
  options: FileImportOptions = {},
): Promise<FileImportReport> {
  if (input.replace && input.overwrite)
    throw new MockdevError('INVALID_ARGUMENT', 'Give either overwrite or replace, not both');
  const target =
    input.projectRef !== undefined ? await resolveProject(ctx, input.projectRef, options) : undefined;
  if (input.env) await requirePro(ctx, 'environment');
  const source = await readImportSource(ctx, input, options.within);
  const format: ImportFormat =
    source.kind === 'folder'
      ? 'wiremock'
      : (input.format ?? detectImportFormat(source.parsed, source.label, options.recognizers));
  if (source.kind === 'folder' && input.format !== undefined && input.format !== 'wiremock')
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `${source.label} is a folder: only WireMock mappings are read from a folder`,
      {
        hint: 'Give the file itself for the other formats',
      },
    );
  if (format !== 'har' && (input.includeHost !== undefined || input.all))
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `includeHost and all are for HAR files; ${source.label} is ${FORMAT_LABELS[format]}`,
      {
        hint: (say) => `leave out ${say.option('includeHost')} and ${say.option('all')}`,
      },
    );
  if (format === 'openapi') {
    const text = source.kind === 'text' ? source : undefined;
    const report = await importOpenApi(
      ctx,
      { ...input, text: text?.file === undefined ? text?.text : undefined, file: text?.file },
      options,
    );
    return {
      ...report,
      format,
      dryRun: input.dryRun === true,
      approximate: [],
      resources: [],
      variables: [],
    };
  }
  const converters = options.converters ?? CONVERTERS;
  const within = options.within;
  const converted =
    format === 'wiremock'
      ? converters.wiremock(
          source.kind === 'folder' ? source.wiremock : await wireMockFromFile(ctx, source, within),
        )
      : source.kind === 'folder'
        ? unreachable()
        : format === 'har'
          ? converters.har(source.parsed.doc, { includeHost: input.includeHost, all: input.all })
          : converters[format](source.parsed.doc);
  return writeConverted(ctx, input, options, { converted, label: source.label, target, format });
}

const unreachable = (): never => {
  throw new Error('a folder is read as WireMock only');
};

async function writeConverted(
  ctx: AppContext,
  input: FileImportInput,
  options: FileImportOptions,
  at: {
    converted: ConvertedImport;
    label: string;
    target: Awaited<ReturnType<typeof resolveProject>> | undefined;
    format: ConvertedFormat;
  },
): Promise<FileImportReport> {
  const { converted, label, target } = at;
  const templates: TemplatesTreatment = input.templates
    ? 'option'
    : converted.templates
      ? 'source'
      : 'literal';
  const literal = new Map<ImportItem, string[]>();
  const items: (ImportItem & { name?: string })[] = converted.endpoints.map((e) => {
    const item = { method: e.method ?? 'GET', path: e.path, input: e, name: e.name };
    if (templates === 'literal') {
      const kept = keepTextLiteral(e, 'all');
      item.input = kept.input;
      if (kept.literal.length) literal.set(item, kept.literal);
    }
    return item;
  });
  const extras: ImportExtras = await importExtras(ctx, converted, {
    dryRun: input.dryRun === true,
    env: input.env === true,
  });
  const port = target ? undefined : await freePort(ctx, converted, extras);
  const say = options.say ?? PLAIN_WORDING;
  const written =
    items.length === 0
      ? undefined
      : await writeImport(ctx, {
          target,
          project: {
            name: projectNameFrom(converted.title ?? '', label),
            description: converted.description ?? '',
            port,
          },
          items,
          onClash: input.replace ? 'replace' : input.overwrite ? 'update' : 'skip',
          say,
          dryRun: input.dryRun,
          refuse: input.strict
            ? (item, reason) => {
                throw new MockdevError(
                  'INVALID_INPUT',
                  `${item.method} ${item.path} cannot be imported: ${reason}`,
                  {
                    hint: (s) =>
                      `Fix it in the file (nothing was imported), or import without ${s.option('strict')} to leave it out`,
                  },
                );
              }
            : undefined,
          noneLeft: (refused) =>
            new MockdevError(
              'INVALID_INPUT',
              `${label}: none of its endpoints can be imported (${refused.length === 1 ? '' : `${refused.length} refused; the first: `}${refused[0]![0].method} ${refused[0]![0].path}: ${refused[0]![1]})`,
              { hint: 'Fix the file; nothing was imported' },
            ),
        });
  if (!written && converted.resources.length === 0)
    throw new MockdevError(
      'INVALID_INPUT',
      `${label}: nothing in it can be imported${converted.skipped.length ? ` (${converted.skipped.length} item${converted.skipped.length === 1 ? '' : 's'} skipped; the first: ${converted.skipped[0]!.message})` : ''}`,
      {
        hint: `Check that the file is a ${FORMAT_LABELS[at.format]} file with requests or mappings in it`,
      },
    );
  const project =
    written?.project ??
    (target
      ? (await import('./projects.js')).toProject(target)
      : await extras.emptyProject(
          projectNameFrom(converted.title ?? '', label),
          converted.description ?? '',
          port,
        ));
  const after = await extras.finish(project.id === DRY_RUN_ID ? undefined : project.id);
  const skipped: ImportReport['skipped'] = [
    ...converted.skipped.map((n) => ({
      method: n.method ?? '',
      path: n.path ?? '',
      reason: n.message,
      ...(n.name ? { name: n.name } : {}),
    })),
    ...(written?.skipped ?? []).map((s) => ({
      method: s.method,
      path: s.path,
      reason: s.reason,
      ...(s.existingId ? { existingId: s.existingId } : {}),
      ...(s.item?.name ? { name: s.item.name } : {}),
    })),
    ...after.skipped,
  ];
  const made = [...(written?.created ?? []), ...(written?.updated ?? []), ...(written?.replaced ?? [])];
  const byRoute = new Map([...literal].map(([item, parts]) => [`${item.method} ${item.path}`, parts]));
  const literalText: LiteralText[] = made.flatMap((e) => {
    const parts = byRoute.get(`${e.method} ${e.path}`);
    return parts ? [{ endpointId: e.id, method: e.method, path: e.path, parts }] : [];
  });
  return {
    project: { ...project, endpointCount: project.endpointCount },
    created: written?.created ?? [],
    updated: written?.updated ?? [],
    replaced: written?.replaced ?? [],
    kept: written?.kept ?? [],
    dropped: written?.dropped ?? [],
    templates,
    literal: literalText,
    skipped,
    warnings: [],
    warningCount: 0,
    format: at.format,
    dryRun: input.dryRun === true,
    approximate: [...converted.approximate, ...extras.approximate],
    resources: after.resources,
    variables: extras.variables,
    ...(after.environment ? { environment: after.environment } : {}),
  };
}

/** The port a new project gets: the source's when no project uses it. */
async function freePort(
  ctx: AppContext,
  converted: ConvertedImport,
  extras: ImportExtras,
): Promise<number | undefined> {
  if (converted.port === undefined) return undefined;
  const user = (await ctx.projects.summaries()).find((p) => p.port === converted.port);
  if (!user) return converted.port;
  extras.approximate.push({
    message: `port ${converted.port} is used by project "${user.name}": the new project gets the next free port`,
  });
  return undefined;
}
