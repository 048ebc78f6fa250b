import type { ResourceInput } from '../../core/model/resource.js';
import { uniqueName } from '../../core/naming.js';
import { cleanName } from '../openapi/import.js';
import { isObj, text, type Obj } from './shapes.js';

/**
 * Mockoon's data buckets (`data` of the environment) as resources: a bucket whose text is a JSON
 * array of objects seeds a resource named after it (so `{{data 'NAME'}}` reads it here too),
 * served at its CRUD route's path when one uses it, else at `/<name>`. A bucket of any other
 * text (an object, a template) makes no resource; its text still serves a DATABUCKET body.
 */

export interface Bucket {
  id: string;
  uuid: string;
  name: string;
  text: string;
  /** The items when the text is a JSON array of objects, else why not. */
  seed: Obj[] | { problem: string };
}

export function bucketsOf(env: Obj): Bucket[] {
  const data = Array.isArray(env.data) ? env.data.filter(isObj) : [];
  return data.map((b) => {
    const value = text(b.value);
    return {
      id: text(b.id),
      uuid: text(b.uuid),
      name: text(b.name) || text(b.id) || 'bucket',
      text: value,
      seed: seedOf(value),
    };
  });
}

function seedOf(value: string): Bucket['seed'] {
  if (value.includes('{{')) return { problem: 'its text is a template, rendered by Mockoon when it starts' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return { problem: 'its text is not JSON' };
  }
  if (!Array.isArray(parsed) || !parsed.every(isObj)) return { problem: 'it is not a JSON array of objects' };
  return parsed;
}

export function findBucket(buckets: Bucket[], ref: string): Bucket | undefined {
  return ref ? buckets.find((b) => b.id === ref || b.uuid === ref) : undefined;
}

export class ResourceMaker {
  readonly resources: ResourceInput[] = [];
  private readonly names: string[] = [];
  private readonly paths = new Set<string>();

  hasPath(path: string): boolean {
    return this.paths.has(path);
  }

  add(path: string, name: string, seed: Obj[], idField: string): ResourceInput {
    const resource: ResourceInput = {
      path,
      name: uniqueName(cleanName(name) || 'resource', this.names),
      idField,
      seed,
    };
    this.names.push(resource.name!);
    this.paths.add(path);
    this.resources.push(resource);
    return resource;
  }

  /** A free path for a bucket no CRUD route serves: `/<name>`, else `/<name>-2`, … */
  freePath(name: string): string {
    const base = `/${
      cleanName(name)
        .replace(/[^\p{L}\p{N}_-]+/gu, '-')
        .replace(/^-+|-+$/g, '')
        .toLowerCase() || 'bucket'
    }`;
    let path = base;
    for (let i = 2; this.hasPath(path); i++) path = `${base}-${i}`;
    return path;
  }
}

/** How many items lack the id field (they get an id when the resource is made, or are refused). */
export const withoutId = (seed: Obj[], idField: string): number =>
  seed.filter((item) => item[idField] === undefined || item[idField] === null).length;
