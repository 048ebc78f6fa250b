/**
 * Pure helpers of the file import (any of the five formats; unit-tested in file-import-model.test.ts):
 * the query of the admin API's import route, and the report read as rows and counts.
 */
import { query } from '../api/client';
import type { ImportFormat, ImportReport } from './types';

export type { ImportFormat };

/** The formats the server can be told to read a file as (the import route's `format`), with their names on screen. */
export const FORMAT_LABELS = {
  openapi: 'OpenAPI (or Swagger)',
  har: 'HAR (a browser’s network capture)',
  postman: 'Postman collection',
  mockoon: 'Mockoon environment',
  wiremock: 'WireMock mappings',
} as const satisfies Record<ImportFormat, string>;

/** What the user chose on the form. */
export interface FileImportOptions {
  /** '' : detected by the server from the content. */
  format: ImportFormat | '';
  /** Into this project (its id), or a new one (undefined). */
  project?: string;
  existing: 'skip' | 'overwrite' | 'replace';
  /** HAR: only this host's entries (default: the host with most entries). */
  includeHost: string;
  /** HAR: static assets too. */
  all: boolean;
  /** Postman: the collection's variables as an environment of the project (Pro). */
  env?: boolean;
}

/** `?format=…&project=…&dryRun=true…` for POST /import: only what differs from the defaults. */
export function importQuery(o: FileImportOptions, dryRun: boolean): string {
  const har = o.format === '' || o.format === 'har';
  return query({
    format: o.format || undefined,
    project: o.project,
    overwrite: o.project && o.existing === 'overwrite' ? 'true' : undefined,
    replace: o.project && o.existing === 'replace' ? 'true' : undefined,
    includeHost: har ? o.includeHost.trim() || undefined : undefined,
    all: har && o.all ? 'true' : undefined,
    env: o.env ? 'true' : undefined,
    dryRun: dryRun ? 'true' : undefined,
  });
}

/** One item of the source said about in the report: approximate (message) or skipped (reason). */
export interface ReportNote {
  method?: string;
  path?: string;
  name?: string;
  message?: string;
  reason?: string;
}

/** The report of the import route (every format; `dryRun` for its preview). */
export type FileImportReport = ImportReport;

/** A note as a table row: method, where (path, else the source's name), what. */
export function noteRow(n: ReportNote): { method: string; where: string; what: string } {
  const where = [n.path, n.path && n.name ? `(${n.name})` : n.name].filter(Boolean).join(' ');
  return { method: n.method ?? '', where, what: n.message ?? n.reason ?? '' };
}

/** "1 endpoint", "3 endpoints". */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
