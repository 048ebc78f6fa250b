import { MockdevError } from '../core/errors.js';
import type { ConvertedFormat, ImportFormat, Recognition } from './converted.js';
import { recognizeHar } from './har/index.js';
import { recognizeMockoon } from './mockoon/index.js';
import { readDocumentText } from './openapi/document-text.js';
import { recognizePostman } from './postman/index.js';
import { recognizeWireMock } from './wiremock/index.js';

/**
 * Which format a file to import is (docs/import.md "Detection"): the text is parsed once (JSON,
 * or YAML for OpenAPI), an object with `openapi` or `swagger` is OpenAPI, and each other
 * format's recognizer is asked in turn. A file none takes is refused (INVALID_ARGUMENT, exit 2)
 * saying which format it looked like and why that one refused it, or what it is.
 */

export type Recognizer = (doc: unknown) => Recognition;

/** What each format is called in messages. */
export const FORMAT_LABELS: Record<ImportFormat, string> = {
  openapi: 'OpenAPI',
  har: 'HAR',
  postman: 'Postman collection',
  mockoon: 'Mockoon environment',
  wiremock: 'WireMock mapping',
};

/** The recognizers, in the order they are asked. */
export const RECOGNIZERS: Record<ConvertedFormat, Recognizer> = {
  har: recognizeHar,
  postman: recognizePostman,
  mockoon: recognizeMockoon,
  wiremock: recognizeWireMock,
};

const NONE = 'not a HAR, Postman, Mockoon, WireMock or OpenAPI file';
const HINT =
  'Give a HAR file, a Postman collection (v2.0/v2.1), a Mockoon environment export, WireMock mappings or an OpenAPI document';

export interface ParsedImport {
  doc: unknown;
  syntax: 'json' | 'yaml';
}

/** The text parsed (JSON, else YAML); text that is neither is refused as none of the formats. */
export function parseImportText(text: string, label: string): ParsedImport {
  try {
    const read = readDocumentText(text, label);
    return { doc: read.value, syntax: read.format === 'json' ? 'json' : 'yaml' };
  } catch (e) {
    if (!(e instanceof MockdevError)) throw e;
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `${label} is ${NONE}: ${e.message.replace(`${label} `, 'it ')}`,
      {
        hint: HINT,
        details: { file: label },
      },
    );
  }
}

/** A short description of a parsed value, for the refusal. */
export function describeValue(doc: unknown, syntax: ParsedImport['syntax']): string {
  const lang = syntax === 'json' ? 'JSON' : 'YAML';
  if (Array.isArray(doc)) return `a ${lang} list of ${doc.length} item${doc.length === 1 ? '' : 's'}`;
  if (doc === null || typeof doc !== 'object')
    return `${lang} text whose top level is ${doc === null ? 'null' : `a ${typeof doc}`}, not an object`;
  const keys = Object.keys(doc);
  if (keys.length === 0) return `an empty ${lang} object`;
  const shown = keys.slice(0, 5).map((k) => JSON.stringify(k.slice(0, 40)));
  return `a ${lang} object with ${keys.length > 5 ? `${keys.length} fields (${shown.join(', ')}, …)` : `the field${keys.length === 1 ? '' : 's'} ${shown.join(', ')}`}`;
}

const isOpenApi = (doc: unknown): boolean =>
  doc !== null &&
  typeof doc === 'object' &&
  !Array.isArray(doc) &&
  ((doc as Record<string, unknown>).openapi !== undefined ||
    (doc as Record<string, unknown>).swagger !== undefined);

/**
 * The format of a parsed document. OpenAPI may be YAML; the others are JSON. `recognizers`
 * defaults to the converters' own.
 */
export function detectImportFormat(
  parsed: ParsedImport,
  label: string,
  recognizers: Record<ConvertedFormat, Recognizer> = RECOGNIZERS,
): ImportFormat {
  const { doc, syntax } = parsed;
  if (isOpenApi(doc)) return 'openapi';
  if (syntax === 'yaml') {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `${label} is ${NONE}: it is ${describeValue(doc, syntax)} without an "openapi" or "swagger" field (HAR, Postman, Mockoon and WireMock files are JSON)`,
      { hint: HINT, details: { file: label } },
    );
  }
  let refused: { format: ConvertedFormat; problem: string } | undefined;
  for (const [format, recognize] of Object.entries(recognizers) as [ConvertedFormat, Recognizer][]) {
    const r = recognize(doc);
    if (!r.looksLike) continue;
    if (r.problem === undefined) return format;
    refused ??= { format, problem: r.problem };
  }
  if (refused) {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `${label} looks like a ${FORMAT_LABELS[refused.format]} file but cannot be imported: ${refused.problem}`,
      {
        hint: (say) =>
          `Fix that in the file, or give the format with ${say.option('format')} if it is another one`,
        details: { file: label, format: refused.format },
      },
    );
  }
  throw new MockdevError('INVALID_ARGUMENT', `${label} is ${NONE}: it is ${describeValue(doc, syntax)}`, {
    hint: HINT,
    details: { file: label },
  });
}
