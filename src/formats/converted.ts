import type { EndpointInput } from '../core/model/endpoint.js';
import type { ResourceInput } from '../core/model/resource.js';

/**
 * What the importers of other tools' files give the app (issue 27; docs/import.md): each format
 * (har/, postman/, mockoon/, wiremock/ beside openapi/) is a pure converter from the parsed
 * document to this shape; the app's import use case (app/imports.ts) detects the format, writes
 * the endpoints (and resources) into a new or an existing project the way an OpenAPI import
 * does, and reports. No I/O here: the app reads the files.
 */

export { IMPORT_FORMATS } from '../core/model/imports.js';
export type ImportFormat = (typeof import('../core/model/imports.js').IMPORT_FORMATS)[number];
export type ConvertedFormat = Exclude<ImportFormat, 'openapi'>;

/** One item of the source said about in the report: where (any of method/path/name) and what. */
export interface ImportNote {
  method?: string;
  path?: string;
  /** The source's own name for the item (a Postman request, a Mockoon route, a WireMock mapping file). */
  name?: string;
  /** Approximate: what was lost in translation. Skipped: why it was left out. */
  message: string;
}

export interface ConvertedImport {
  format: ConvertedFormat;
  /** The name a new project gets (the collection's, the environment's); absent: from the file name. */
  title?: string;
  description?: string;
  /** The port a new project gets (Mockoon's environment port), when free to use. */
  port?: number;
  /**
   * The endpoints, in the source's order, each a whole EndpointInput (name set; no id). Two with
   * the same method and path are the converter's mistake: one endpoint with variations instead.
   */
  endpoints: EndpointInput[];
  /** Resources (Mockoon's data buckets and CRUD routes). */
  resources: ResourceInput[];
  /** Items translated only approximately, and what was lost. */
  approximate: ImportNote[];
  /** Items left out, and why. */
  skipped: ImportNote[];
  /**
   * Variables the source defines (Postman's collection variables), for the report and `--env`.
   * `secret`: the source marks it as one (Postman's `type: "secret"`): its value is masked in
   * the report and kept as a secret of the environment.
   */
  variables: { name: string; value: string; secret?: boolean }[];
  /**
   * true: the source's `{{…}}` are templates and kept as such (Mockoon, WireMock's
   * response-template); false: the text is data, sent as written (templating off, as an
   * OpenAPI import without --templates).
   */
  templates: boolean;
}

/**
 * How a converter judges a parsed document before converting it: whether it looks like its
 * format (`looksLike`), and when it does but cannot be converted, why (`problem`: one line,
 * naming the field, e.g. "log.entries is not a list"). Used by the format detection to say
 * which format a refused file looked like and why.
 */
export interface Recognition {
  looksLike: boolean;
  problem?: string;
}

/** A WireMock source as the app read it: the mapping files (parsed JSON) and the `__files` bodies. */
export interface WireMockSource {
  /** Each mapping file (or the one file given), its name for the report and its parsed JSON. */
  mappings: { file: string; content: unknown }[];
  /** A `bodyFileName`'s content (relative to `__files`), or undefined when there is none. */
  bodyFile(name: string): Buffer | undefined;
}

/** Options of the HAR converter (the CLI's --include-host and --all). */
export interface HarOptions {
  /** Only entries of this host (default: the host with most entries; the others are skipped). */
  includeHost?: string;
  /** Static assets (images, scripts, styles, fonts) too. */
  all?: boolean;
}

/**
 * The converters' signatures (each in its folder's index.ts):
 *   recognizeHar(doc: unknown): Recognition;           convertHar(doc: unknown, options: HarOptions): ConvertedImport;
 *   recognizePostman(doc: unknown): Recognition;       convertPostman(doc: unknown): ConvertedImport;
 *   recognizeMockoon(doc: unknown): Recognition;       convertMockoon(doc: unknown): ConvertedImport;
 *   recognizeWireMock(doc: unknown): Recognition;      convertWireMock(source: WireMockSource): ConvertedImport;
 * A converter never throws for an item it cannot translate (it reports it as skipped); it throws
 * MockdevError INVALID_INPUT (one line, naming the field) only when the document as a whole
 * cannot be read as its format.
 */
export type Converter<I> = (input: I) => ConvertedImport;
