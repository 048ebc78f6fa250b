/**
 * `$ref` resolution for OpenAPI documents, the way each version means it. Pure: parsed documents
 * in (the app reads the files), a dereferenced object graph out (cycles kept as object cycles),
 * with a problem per reference that cannot be resolved instead of an exception.
 *
 * - Swagger 2.0 and OpenAPI 3.0: a `$ref` is relative to the document that holds it.
 * - OpenAPI 3.1 (JSON Schema 2020-12 inside Schema Objects): a `$ref` is relative to the nearest
 *   `$id`; `$anchor` and `$dynamicAnchor` name schemas, and `$dynamicRef` is bound through the
 *   dynamic scope (the schema resources entered on the way), so a generic schema such as
 *   Scalar's `PaginatedResource` gets the item type each specialising schema declares. Each
 *   binding gets a copy of the generic schema. A `#/…` pointer that does not exist in the `$id`
 *   resource is looked up in the document itself, as authors of OpenAPI documents mean it.
 * - Example values, extensions (`x-…`), `enum`, `const` and `default` are data: a `$ref` inside
 *   them is left as written.
 * - A `$ref` with sibling keywords: annotations (description, example, …) are laid over the
 *   target; in a schema, other keywords (properties, `$defs`, …) apply with it, as `allOf`.
 *
 * The index of the documents and the resolution of one reference are in ref-resolver.ts; here,
 * DocumentSet and what it gives: the dereferenced document and the bundle.
 */

import { ANNOTATIONS, childKind, type Kind } from './ref-positions.js';
import {
  RefResolver,
  isObj,
  type Dialect,
  type Obj,
  type Origin,
  type Resource,
  type Scope,
} from './ref-resolver.js';
import { escapeSegment, stripFragment } from './ref-uri.js';

export { describeUri, formatPointer } from './ref-uri.js';
export type { Dialect, Origin } from './ref-resolver.js';

/** A reference that cannot be resolved, and where it is written. */
export interface RefProblem {
  /** The document holding the `$ref`. */
  uri: string;
  /** JSON pointer of the object holding the `$ref` in that document (`/paths/~1a/get`). */
  pointer: string;
  ref: string;
  reason: string;
}

/** A node being walked; `out` is its copy once a cycle needed one before the walk was done. */
class Pending {
  out?: Obj | unknown[];
}

export class DocumentSet extends RefResolver {
  readonly rootUri: string;

  constructor(rootUri: string, root: unknown, dialect: Dialect) {
    super();
    this.rootUri = stripFragment(rootUri);
    this.add(this.rootUri, root, dialect);
  }

  /**
   * The dereferenced document: every `$ref` (and, in 3.1 schemas, `$dynamicRef`) replaced by
   * its target, shared where the target is shared (cycles stay cycles). The input documents are
   * not changed. A reference that cannot be resolved stays as written and gives a problem.
   */
  dereference(): { value: unknown; problems: RefProblem[] } {
    const problems: RefProblem[] = [];
    const reported = new Set<object>();
    const memo = new Map<unknown, unknown>();
    const scoped = new Map<string, Map<unknown, unknown>>();
    const inProgress = new Set<unknown>();
    const dynamic = this.hasDynamicAnchors;
    const memoFor = (scope: Scope) => {
      if (!dynamic) return memo;
      const key = scope.resources
        .filter((r) => r.dynamicAnchors)
        .map((r) => r.uri)
        .join(' ');
      let m = scoped.get(key);
      if (!m) scoped.set(key, (m = new Map()));
      return m;
    };
    const enter = (scope: Scope, resource: Resource, base = resource.uri): Scope => ({
      base,
      doc: resource.doc,
      resources: scope.resources.includes(resource) ? scope.resources : [...scope.resources, resource],
    });
    const problem = (node: Obj, ref: string, reason: string) => {
      if (reported.has(node)) return;
      reported.add(node);
      const site = this.siteOf.get(node);
      problems.push({ uri: site?.doc.uri ?? this.rootUri, pointer: site?.pointer ?? '', ref, reason });
    };

    const walk = (node: unknown, kind: Kind, scope: Scope): unknown => {
      if (kind === 'data' || node === null || typeof node !== 'object') return node;
      const ids = scope.doc.dialect === '3.1' && kind === 'schema';
      if (ids && isObj(node) && typeof node.$id === 'string') {
        const own = this.resourceRoots.get(node);
        if (own && own.node === node) scope = enter(scope, own);
      }
      const m = memoFor(scope);
      const seen = m.get(node);
      if (seen instanceof Pending) {
        // A cycle back to a node still being walked: its copy, filled when the walk returns.
        if (!seen.out) inProgress.add((seen.out = Array.isArray(node) ? [] : {}));
        return seen.out;
      }
      if (seen !== undefined) return seen;
      const o = node as Obj;
      const isDynamic =
        ids && !Array.isArray(node) && typeof o.$dynamicRef === 'string' && typeof o.$ref !== 'string';
      const ref = Array.isArray(node)
        ? undefined
        : typeof o.$ref === 'string'
          ? o.$ref
          : isDynamic
            ? (o.$dynamicRef as string)
            : undefined;
      if (ref !== undefined) {
        if (inProgress.has(o)) {
          problem(o, ref, 'it refers to itself through $refs alone');
          return {};
        }
        inProgress.add(o);
        try {
          let target = this.resolve(ref, scope);
          if (typeof target !== 'string' && isDynamic) target = this.bindDynamic(ref, target, scope);
          if (typeof target === 'string') {
            problem(o, ref, target);
            m.set(o, o);
            return o;
          }
          const resolved = walk(target.node, kind, enter(scope, target.resource, this.baseOf(target)));
          const siblings = Object.keys(o).filter((k) => k !== '$ref' && !(isDynamic && k === '$dynamicRef'));
          let result: unknown = resolved;
          if (siblings.length && isObj(resolved)) {
            const own: Obj = {};
            for (const key of siblings) {
              const ck = childKind(kind, key, scope.doc.dialect);
              own[key] = ck === 'data' ? o[key] : walk(o[key], ck, scope);
            }
            const describesOnly = siblings.every((k) => ANNOTATIONS.has(k) || k.startsWith('x-'));
            if (kind === 'schema' && (!describesOnly || inProgress.has(resolved))) {
              const parts = Array.isArray(own.allOf) ? own.allOf : [];
              result = { ...own, allOf: [resolved, ...parts] };
            } else if (!inProgress.has(resolved)) {
              result = { ...resolved, ...own };
            }
          }
          m.set(o, result);
          return result;
        } finally {
          inProgress.delete(o);
        }
      }
      // Copy on write: a part with no reference below it is returned as it is.
      const pending = new Pending();
      m.set(node, pending);
      let changed = false;
      let result: unknown;
      if (Array.isArray(node)) {
        const items = node.map((item) => {
          const next = walk(item, kind, scope);
          if (next !== item) changed = true;
          return next;
        });
        if (pending.out) {
          (pending.out as unknown[]).push(...items);
          result = pending.out;
        } else result = changed ? items : node;
      } else {
        const keys: string[] = [];
        const values: unknown[] = [];
        for (const key in o) {
          const value = o[key];
          const ck = childKind(kind, key, scope.doc.dialect);
          const next = ck === 'data' ? value : walk(value, ck, scope);
          if (next !== value) changed = true;
          keys.push(key);
          values.push(next);
        }
        if (changed || pending.out) {
          const out = (pending.out as Obj | undefined) ?? {};
          for (let i = 0; i < keys.length; i++) out[keys[i]!] = values[i];
          result = out;
        } else result = o;
      }
      if (pending.out) inProgress.delete(pending.out);
      m.set(node, result);
      return result;
    };

    const root = this.resources.get(this.rootUri)!;
    const value = walk(root.node, 'oas', { base: root.uri, doc: root.doc, resources: [root] });
    return { value, problems };
  }

  /**
   * The root document with every part that comes from another file put in place of its `$ref`
   * (each such part once; `$ref`s inside the root document stay), so that one validation sees
   * everything the import reads. `origins` maps pointers of the result to where they came from.
   */
  bundle(): { value: unknown; origins: Map<string, Origin> } {
    const origins = new Map<string, Origin>();
    const root = this.resources.get(this.rootUri)!;
    if (this.docs.size === 1) return { value: root.node, origins };
    const inlined = new Set<unknown>();
    const segments: string[] = [];
    const path = new Set<unknown>();
    const walk = (node: unknown, kind: Kind, scope: Scope): unknown => {
      if (kind === 'data' || node === null || typeof node !== 'object' || path.has(node)) return node;
      path.add(node);
      try {
        return walkInner(node, kind, scope);
      } finally {
        path.delete(node);
      }
    };
    const walkInner = (node: object, kind: Kind, scope: Scope): unknown => {
      if (Array.isArray(node)) {
        let copy: unknown[] | undefined;
        node.forEach((item, i) => {
          segments.push(String(i));
          const next = walk(item, kind, scope);
          segments.pop();
          if (next !== item) (copy ??= [...node])[i] = next;
        });
        return copy ?? node;
      }
      const o = node as Obj;
      if (typeof o.$ref === 'string') {
        const target = this.resolve(o.$ref, scope);
        if (typeof target !== 'string' && target.doc !== root.doc && !inlined.has(target.node)) {
          inlined.add(target.node);
          origins.set(`/${segments.map(escapeSegment).join('/')}`, {
            uri: target.doc.uri,
            pointer: target.pointer,
          });
          return walk(target.node, kind, { base: this.baseOf(target), doc: target.doc, resources: [] });
        }
        return o;
      }
      let copy: Obj | undefined;
      for (const key in o) {
        const ck = childKind(kind, key, scope.doc.dialect);
        if (ck === 'data') continue;
        segments.push(key);
        const next = walk(o[key], ck, scope);
        segments.pop();
        if (next !== o[key]) (copy ??= { ...o })[key] = next;
      }
      return copy ?? o;
    };
    const value = walk(root.node, 'oas', { base: root.uri, doc: root.doc, resources: [] });
    return { value, origins };
  }
}
