import { MockdevError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { endpointKey } from '../../core/match/route-key.js';
import { EndpointInputSchema, type EndpointInput, type Variation } from '../../core/model/endpoint.js';
import { PathSchema } from '../../core/model/fields.js';
import { HTTP_METHODS } from '../../core/model/limits.js';
import { suggestEndpointName, uniqueName } from '../../core/naming.js';
import type { ConvertedImport, ImportNote, Recognition } from '../converted.js';
import { cleanName } from '../openapi/import.js';
import { exampleRequest, exampleResponse, variationRules, type ExampleRequest } from './examples.js';
import { describedText, isObj, readPairs, readUrl, scalarText, templateSegment, type Obj } from './shapes.js';

/**
 * Postman Collection v2.0 / v2.1 into mockdev's endpoints (formats/converted.ts;
 * docs/import-postman.md). Each request becomes an endpoint named after it, its folders first
 * ("Users > Get user"); its first saved example answers, the others are variations named after
 * them, with rules from what their request sent differently; a request without examples answers
 * 200 `{}` (approximate). `:id` and `{{var}}` path segments become `{id}` / `{var}`; the host
 * (a `{{baseUrl}}` too) is left out. Text is data: Postman's `{{var}}` are not our templates.
 * Pure.
 */

/** Between a folder's name and what it holds in an endpoint's name (a name holds no "/"). */
export const FOLDER_SEPARATOR = ' > ';

const SCHEMA = /getpostman\.com|postman\.com/i;

export function recognizePostman(doc: unknown): Recognition {
  if (!isObj(doc)) return { looksLike: false };
  if (doc._postman_variable_scope !== undefined && !isObj(doc.info)) {
    return {
      looksLike: true,
      problem:
        'a Postman environment (variables only), not a collection: export the collection (Collection v2.1)',
    };
  }
  if (!isObj(doc.info)) {
    if (Array.isArray(doc.requests) && (Array.isArray(doc.order) || Array.isArray(doc.folders)))
      return {
        looksLike: true,
        problem: 'a Postman collection v1 (requests, folders): export it from Postman as Collection v2.1',
      };
    return { looksLike: false };
  }
  const schema = scalarText(doc.info.schema);
  if (!(schema !== undefined && SCHEMA.test(schema)) && doc.info._postman_id === undefined)
    return { looksLike: false };
  if (schema !== undefined && /\/collection\/v1/i.test(schema))
    return {
      looksLike: true,
      problem: `info.schema is ${schema}: export it from Postman as Collection v2.1`,
    };
  if (!Array.isArray(doc.item)) return { looksLike: true, problem: 'item is not a list' };
  return { looksLike: true };
}

/** One endpoint being built, and what its variations' rules are told apart from. */
interface Built {
  input: EndpointInput & { variations: Variation[] };
  /** Per path segment, the parameter's name where the whole segment is one. */
  params: (string | undefined)[];
  /** What the first example's request sent (the default answer's), for the variations' rules. */
  base: ExampleRequest | undefined;
}

class Conversion {
  readonly built = new Map<string, Built>();
  readonly approximate: ImportNote[] = [];
  readonly skipped: ImportNote[] = [];
  scripts = 0;

  walk(items: unknown[], folders: string[]): void {
    for (const item of items) {
      if (!isObj(item)) continue;
      this.countScripts(item);
      const name = cleanName(scalarText(item.name) ?? '');
      if (Array.isArray(item.item)) this.walk(item.item, name ? [...folders, name] : folders);
      else if (item.request !== undefined) this.request(item, folders, name);
      else if (name) this.skipped.push({ name, message: 'neither a request nor a folder' });
    }
  }

  countScripts(item: Obj): void {
    if (!Array.isArray(item.event)) return;
    for (const e of item.event)
      if (isObj(e) && isObj(e.script) && readScript(e.script.exec) !== '') this.scripts++;
  }

  private request(item: Obj, folders: string[], ownName: string): void {
    const req = isObj(item.request) ? item.request : { url: item.request };
    const method = (scalarText(req.method) ?? 'GET').trim().toUpperCase();
    const segments = readUrl(req.url).segments.map(templateSegment);
    const path = `/${segments.map((s) => s.text).join('/')}`;
    const fullName = cleanName(
      [...folders, ownName || suggestEndpointName(method, path)].join(FOLDER_SEPARATOR),
    );
    const note = (message: string): ImportNote => ({ method, path, name: fullName, message });
    if (!(HTTP_METHODS as readonly string[]).includes(method)) {
      this.skipped.push(note(`method ${method} is not one a mock serves here (${HTTP_METHODS.join(', ')})`));
      return;
    }
    const pathCheck = PathSchema.safeParse(path);
    if (!pathCheck.success) {
      this.skipped.push(note(`path ${path} ${pathCheck.error.issues[0]!.message}`));
      return;
    }
    const examples = Array.isArray(item.response) ? item.response.filter(isObj) : [];
    const key = endpointKey(method, path);
    const earlier = this.built.get(key);
    if (earlier) {
      if (examples.length === 0)
        this.skipped.push(
          note(`same method and path as "${earlier.input.name}", and no saved example to add to it`),
        );
      for (const ex of examples) this.addVariation(earlier, ex, fullName);
      return;
    }
    const built: Built = {
      input: { name: fullName, method, path, variations: [] },
      params: segments.map((s) => s.param),
      base: undefined,
    };
    this.built.set(key, built);
    const [first, ...more] = examples;
    if (!first) {
      Object.assign(built.input, { status: 200, contentType: 'application/json', body: '{}' });
      this.approximate.push(note('no saved example response: it answers 200 {}'));
      return;
    }
    Object.assign(built.input, exampleResponse(first, this.lost(note, 'its first example')));
    built.base = exampleRequest(first) ?? requestOf(req);
    for (const ex of more) this.addVariation(built, ex, fullName);
  }

  private addVariation(built: Built, ex: Obj, requestName: string): void {
    const { input } = built;
    const label = cleanName(scalarText(ex.name) ?? '') || requestName;
    const name = uniqueName(
      label,
      input.variations.map((v) => v.name),
    );
    const note = (message: string): ImportNote => ({ method: input.method, path: input.path, name, message });
    const response = exampleResponse(ex, this.lost(note, `example "${name}"`));
    const rules = variationRules(exampleRequest(ex), built.base, built.params);
    const inherited = Object.keys(input.headers ?? {}).filter(
      (h) => !Object.keys(response.headers).some((own) => own.toLowerCase() === h.toLowerCase()),
    );
    if (inherited.length)
      this.approximate.push(
        note(
          `example "${name}" also sends the first example's header${inherited.length > 1 ? 's' : ''} ${inherited.join(', ')} (a variation sends the endpoint's headers under its own)`,
        ),
      );
    input.variations.push({ id: newId(), name, delay: 0, ...response, ...(rules.length ? { rules } : {}) });
  }

  private lost(note: (message: string) => ImportNote, what: string): (message: string) => void {
    return (message) => this.approximate.push(note(`${what}: ${message}`));
  }

  /** The endpoints in the source's order, each checked: one the endpoint rules refuse is skipped. */
  endpoints(): EndpointInput[] {
    const out: EndpointInput[] = [];
    for (const { input } of this.built.values()) {
      const checked = EndpointInputSchema.safeParse(input);
      if (checked.success) {
        const { variations, ...own } = input;
        out.push(variations.length ? input : own);
        continue;
      }
      const issue = checked.error.issues[0]!;
      this.skipped.push({
        method: input.method,
        path: input.path,
        name: input.name,
        message: `${issue.path.join('.') || 'endpoint'} ${issue.message}`,
      });
    }
    return out;
  }
}

/** A script's source: Postman keeps it as a list of lines, or as text. */
function readScript(exec: unknown): string {
  if (Array.isArray(exec))
    return exec
      .filter((l) => typeof l === 'string')
      .join('\n')
      .trim();
  return typeof exec === 'string' ? exec.trim() : '';
}

/** What a request itself sends (when its first example does not say what it was saved for). */
function requestOf(req: Obj): ExampleRequest {
  const url = readUrl(req.url);
  return { query: url.query, headers: readPairs(req.header), segments: url.segments };
}

/** The enabled collection variables; Postman's secret ones said to be secrets. */
function variablesOf(list: unknown): ConvertedImport['variables'] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((v) => {
    if (!isObj(v) || v.disabled === true) return [];
    const name = scalarText(v.key) ?? scalarText(v.id);
    if (!name) return [];
    const value =
      scalarText(v.value) ?? (v.value === undefined || v.value === null ? '' : JSON.stringify(v.value));
    return [{ name, value, ...(v.type === 'secret' ? { secret: true } : {}) }];
  });
}

export function convertPostman(doc: unknown): ConvertedImport {
  const recognized = recognizePostman(doc);
  if (!recognized.looksLike)
    throw new MockdevError(
      'INVALID_INPUT',
      'Not a Postman collection: expected info.schema (a schema.getpostman.com collection v2.0 or v2.1) and an item list',
      { hint: 'In Postman: Export the collection as Collection v2.1' },
    );
  if (recognized.problem)
    throw new MockdevError('INVALID_INPUT', `Cannot import this Postman file: ${recognized.problem}`);
  const collection = doc as Obj & { info: Obj; item: unknown[] };
  const conversion = new Conversion();
  conversion.countScripts(collection);
  conversion.walk(collection.item, []);
  const endpoints = conversion.endpoints();
  if (conversion.scripts > 0)
    conversion.skipped.push({
      message: `${conversion.scripts} pre-request or test script${conversion.scripts > 1 ? 's' : ''}: a mock runs none`,
    });
  const title = scalarText(collection.info.name)?.trim();
  const description = describedText(collection.info.description)?.trim();
  return {
    format: 'postman',
    ...(title ? { title } : {}),
    ...(description ? { description } : {}),
    endpoints,
    resources: [],
    approximate: conversion.approximate,
    skipped: conversion.skipped,
    variables: variablesOf(collection.variable),
    templates: false,
  };
}
