import { headerSchema } from './operation-facts.js';
import { sampleFromSchema } from './sample.js';

/**
 * An OpenAPI response as endpoint fields: its content type, its header values, its example
 * bodies (the `example`, each named example, else a sample of the schema), for OpenAPI 3 and
 * Swagger 2.0 (import.ts). Pure.
 */

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

export const isJsonMediaType = (ct: string): boolean =>
  /^application\/(.+\+)?json\b/i.test(ct.trim()) || /[/+]json\s*(;|$)/i.test(ct.trim());

/** A body text from an example value, as the media type wants it. */
export function bodyFromExample(value: unknown, contentType: string, raw = false): string {
  if (value === undefined) return '';
  if (typeof value === 'string') {
    if (raw || !isJsonMediaType(contentType)) return value;
    try {
      JSON.parse(value);
      return value; // the document already wrote JSON text
    } catch {
      return JSON.stringify(value);
    }
  }
  return JSON.stringify(value, null, 2);
}

export interface ResponseExample {
  /** Example name for named examples, undefined for `example` or a generated sample. */
  name?: string;
  body: string;
}

export interface ResponseShape {
  contentType: string;
  headers: Record<string, string>;
  examples: ResponseExample[];
  /** The same response in further media types (OpenAPI 3 `content` with several entries). */
  others?: ResponseShape[];
}

/** A header's value: its example (or first of examples), else the schema's example, default or a sample. */
function headerValue(header: unknown): string | undefined {
  if (!isObj(header)) return undefined;
  const schema = headerSchema(header);
  const explicit = [header.example, isObj(header.examples) ? firstExampleValue(header.examples) : undefined];
  let found: unknown = explicit.find((v) => v !== undefined && v !== null);
  if (found === undefined && isObj(schema) && typeof schema.$ref !== 'string')
    found = sampleFromSchema(schema);
  if (found === undefined || found === null) return undefined;
  return typeof found === 'string' ? found : JSON.stringify(found);
}

function firstExampleValue(examples: Obj): unknown {
  for (const ex of Object.values(examples)) if (isObj(ex) && ex.value !== undefined) return ex.value;
  return undefined;
}

function responseHeaders(response: Obj): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObj(response.headers)) return out;
  for (const [name, header] of Object.entries(response.headers)) {
    if (name.toLowerCase() === 'content-type') continue;
    const value = headerValue(header);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

export function oas3Response(response: Obj): ResponseShape {
  const headers = responseHeaders(response);
  const content = isObj(response.content) ? response.content : {};
  const entry = Object.entries(content)[0];
  if (!entry) return { contentType: 'application/json', headers, examples: [{ body: '' }] };
  const [contentType, media] = entry;
  const m = isObj(media) ? media : {};
  const examples = explicitExamples(m, contentType);
  if (examples.length === 0) examples.push({ body: sampleBody(m.schema, contentType) });
  // Further media types add variations, but only for examples they spell out.
  const others = Object.entries(content)
    .slice(1)
    .map(([ct, media]) => ({
      contentType: ct,
      headers,
      examples: explicitExamples(isObj(media) ? media : {}, ct),
    }))
    .filter((shape) => shape.examples.length > 0);
  return { contentType, headers, examples, others };
}

function explicitExamples(m: Obj, contentType: string): ResponseExample[] {
  const raw = m['x-mockdev-raw'] === true;
  const examples: ResponseExample[] = [];
  if (m.example !== undefined) examples.push({ body: bodyFromExample(m.example, contentType, raw) });
  if (isObj(m.examples)) {
    for (const [name, ex] of Object.entries(m.examples)) {
      if (!isObj(ex) || ex.value === undefined) continue;
      examples.push({
        name,
        body: bodyFromExample(ex.value, contentType, raw || ex['x-mockdev-raw'] === true),
      });
    }
  }
  return examples;
}

export function swagger2Response(response: Obj, produces: string[]): ResponseShape {
  const headers = responseHeaders(response);
  const examples = isObj(response.examples) ? response.examples : {};
  const exampleTypes = Object.keys(examples);
  const contentType =
    exampleTypes.find((t) => produces.includes(t)) ?? produces[0] ?? exampleTypes[0] ?? 'application/json';
  if (examples[contentType] !== undefined) {
    return {
      contentType,
      headers,
      examples: [{ body: bodyFromExample(examples[contentType], contentType) }],
    };
  }
  if (response.schema === undefined) return { contentType, headers, examples: [{ body: '' }] };
  return { contentType, headers, examples: [{ body: sampleBody(response.schema, contentType) }] };
}

function sampleBody(schema: unknown, contentType: string): string {
  if (schema === undefined) return '';
  if (isObj(schema) && typeof schema.$ref === 'string') return ''; // a reference that could not be resolved
  const value = sampleFromSchema(schema);
  if (isJsonMediaType(contentType)) return JSON.stringify(value, null, 2);
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value, null, 2) : String(value);
}
