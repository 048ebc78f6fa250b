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
 */

import { ANNOTATIONS, childKind, rootKind, type Kind } from './ref-positions.js';
import {
  decodeFragment,
  describeUri,
  escapeSegment,
  resolveUri,
  stripFragment,
  unescapeSegment,
} from './ref-uri.js';

export { describeUri, formatPointer } from './ref-uri.js';

type Obj = Record<string, unknown>;

export type Dialect = '2.0' | '3.0' | '3.1';

/** A reference that cannot be resolved, and where it is written. */
export interface RefProblem {
  /** The document holding the `$ref`. */
  uri: string;
  /** JSON pointer of the object holding the `$ref` in that document (`/paths/~1a/get`). */
  pointer: string;
  ref: string;
  reason: string;
}

/** Where a part of a bundled document came from (for messages about it). */
export interface Origin {
  uri: string;
  pointer: string;
}

interface Doc {
  uri: string;
  value: unknown;
  dialect: Dialect;
}

/** A schema resource: a document, or a schema with an `$id` (3.1). */
interface Resource {
  uri: string;
  node: unknown;
  doc: Doc;
  pointer: string;
  anchors?: Map<string, Obj>;
  dynamicAnchors?: Map<string, Obj>;
}

interface RefSite {
  node: Obj;
  doc: Doc;
  pointer: string;
  base: string;
  ref: string;
}

interface Target {
  node: unknown;
  doc: Doc;
  resource: Resource;
  pointer: string;
}

interface Scope {
  base: string;
  doc: Doc;
  /** The dynamic scope: resources entered, outermost first, each once. */
  resources: Resource[];
}

/** A node being walked; `out` is its copy once a cycle needed one before the walk was done. */
class Pending {
  out?: Obj | unknown[];
}

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

export class DocumentSet {
  private readonly docs = new Map<string, Doc>();
  private readonly resources = new Map<string, Resource>();
  /** The resource each node inside an `$id` resource belongs to (3.1 only). */
  private readonly resourceOfNode = new Map<object, Resource>();
  /** The resource whose root a node is. */
  private readonly resourceRoots = new Map<object, Resource>();
  private readonly sites: RefSite[] = [];
  private readonly siteOf = new Map<object, RefSite>();
  private readonly unreadable = new Map<string, string>();
  private checked = 0;
  private hasDynamicAnchors = false;
  /** Where a part of a document contains itself (YAML aliases can do that; JSON cannot). */
  readonly cycles: Origin[] = [];
  /** Resolutions already made, by base and reference (most documents repeat a few hundred $refs). */
  private readonly resolved = new Map<string, Target | string>();
  readonly rootUri: string;

  constructor(rootUri: string, root: unknown, dialect: Dialect) {
    this.rootUri = stripFragment(rootUri);
    this.add(this.rootUri, root, dialect);
  }

  /** Adds a document (the root, or a file a `$ref` points to) and indexes its ids and anchors. */
  add(uri: string, value: unknown, dialect: Dialect): void {
    const doc: Doc = { uri: stripFragment(uri), value, dialect };
    if (this.docs.has(doc.uri)) return;
    this.docs.set(doc.uri, doc);
    this.index(doc);
  }

  /** Records why a document could not be read; `$ref`s to it are reported with the reason. */
  markUnreadable(uri: string, reason: string): void {
    this.unreadable.set(stripFragment(uri), reason);
  }

  /**
   * The local documents (file: URIs) that `$ref`s point to and that are neither loaded nor
   * known as unreadable. Load them with add() (or markUnreadable()) and ask again, until none.
   */
  missing(): string[] {
    const out = new Set<string>();
    for (; this.checked < this.sites.length; this.checked++) {
      const site = this.sites[this.checked]!;
      for (const base of site.base === site.doc.uri ? [site.base] : [site.base, site.doc.uri]) {
        const resolved = resolveUri(site.ref, base);
        if (!resolved) break;
        const [uri] = resolved;
        if (this.resources.has(uri) || this.unreadable.has(uri)) break;
        if (uri.startsWith('file:')) {
          out.add(uri);
          break;
        }
      }
    }
    // Sites before the cursor may name documents marked unreadable since; those are known.
    return [...out].filter((u) => !this.docs.has(u) && !this.unreadable.has(u));
  }

  private index(doc: Doc): void {
    const root: Resource = { uri: doc.uri, node: doc.value, doc, pointer: '' };
    this.resources.set(doc.uri, root);
    this.resourceRoots.set(doc.value as object, root);
    const segments: string[] = [];
    const pointer = () => (segments.length ? `/${segments.map(escapeSegment).join('/')}` : '');
    const ids = doc.dialect === '3.1';
    const path = new Set<object>();
    const visit = (node: unknown, kind: Kind, base: string, resource: Resource): void => {
      if (kind === 'data' || node === null || typeof node !== 'object') return;
      if (path.has(node)) {
        this.cycles.push({ uri: doc.uri, pointer: pointer() });
        return;
      }
      path.add(node);
      try {
        visitInner(node, kind, base, resource);
      } finally {
        path.delete(node);
      }
    };
    const visitInner = (node: object, kind: Kind, base: string, resource: Resource): void => {
      if (Array.isArray(node)) {
        for (let i = 0; i < node.length; i++) {
          segments.push(String(i));
          visit(node[i], kind, base, resource);
          segments.pop();
        }
        return;
      }
      const o = node as Obj;
      if (ids && kind === 'schema') {
        if (typeof o.$id === 'string' && o !== doc.value) {
          const resolved = resolveUri(o.$id, base);
          if (resolved) {
            base = resolved[0];
            const own: Resource = { uri: base, node: o, doc, pointer: pointer() };
            if (!this.resources.has(base)) this.resources.set(base, own);
            this.resourceRoots.set(o, own);
            resource = own;
          }
        }
        if (resource !== root) this.resourceOfNode.set(o, resource);
        if (typeof o.$anchor === 'string') (resource.anchors ??= new Map()).set(o.$anchor, o);
        if (typeof o.$dynamicAnchor === 'string') {
          (resource.anchors ??= new Map()).set(o.$dynamicAnchor, o);
          (resource.dynamicAnchors ??= new Map()).set(o.$dynamicAnchor, o);
          this.hasDynamicAnchors = true;
        }
      }
      const ref =
        typeof o.$ref === 'string'
          ? o.$ref
          : ids && kind === 'schema' && typeof o.$dynamicRef === 'string'
            ? o.$dynamicRef
            : undefined;
      if (ref !== undefined) {
        const site: RefSite = { node: o, doc, pointer: pointer(), base, ref };
        this.sites.push(site);
        this.siteOf.set(o, site);
      }
      for (const key in o) {
        if (key === '$ref') continue;
        const ck = childKind(kind, key, doc.dialect);
        if (ck === 'data') continue;
        segments.push(key);
        visit(o[key], ck, base, resource);
        segments.pop();
      }
    };
    visit(doc.value, rootKind(doc.value), doc.uri, root);
  }

  /** The resource a node belongs to: its own `$id`, the enclosing one, else its document. */
  private resourceOf(node: unknown, doc: Doc): Resource {
    if (isObj(node)) {
      const r = this.resourceRoots.get(node) ?? this.resourceOfNode.get(node);
      if (r) return r;
    }
    return this.resources.get(doc.uri)!;
  }

  /** Walks a JSON pointer from a resource, following `$ref`s met on the way. */
  private walkPointer(resource: Resource, fragment: string, depth: number): Target | string {
    let node: unknown = resource.node;
    let doc = resource.doc;
    const segments = fragment.split('/').slice(1);
    const passed: string[] = [];
    for (const raw of segments) {
      const segment = unescapeSegment(decodeFragment(raw));
      for (let hops = 0; isObj(node) && typeof node.$ref === 'string' && !(segment in node); hops++) {
        const site = this.siteOf.get(node);
        if (!site || hops > 20 || depth > 20) return `"#${fragment}" passes a $ref that cannot be followed`;
        const next = this.resolve(site.ref, { base: site.base, doc: site.doc, resources: [] }, depth + 1);
        if (typeof next === 'string') return next;
        node = next.node;
        doc = next.doc;
      }
      if (Array.isArray(node) && /^\d+$/.test(segment) && Number(segment) < node.length) {
        node = node[Number(segment)];
      } else if (isObj(node) && Object.prototype.hasOwnProperty.call(node, segment)) {
        node = node[segment];
      } else {
        const at = passed.length ? `"/${passed.join('/')}"` : 'its top level';
        return `"#${decodeFragment(fragment)}" does not exist (${describeUri(resource.uri)} has no "${segment}" under ${at})`;
      }
      passed.push(escapeSegment(segment));
    }
    return { node, doc, resource: this.resourceOf(node, doc), pointer: decodeFragment(fragment) };
  }

  /** Resolves a reference string in a scope: its target, or why there is none. */
  private resolve(ref: string, scope: Scope, depth = 0): Target | string {
    const key = `${scope.base}\n${scope.doc.uri}\n${ref}`;
    let found = this.resolved.get(key);
    if (found === undefined) {
      found = this.resolveUncached(ref, scope, depth);
      this.resolved.set(key, found);
    }
    return found;
  }

  private resolveUncached(ref: string, scope: Scope, depth: number): Target | string {
    const resolved = resolveUri(ref, scope.base);
    if (!resolved) return 'it is not a valid URI reference';
    const lookup = ([uri, fragment]: [string, string]): Target | string => {
      const resource = this.resources.get(uri);
      if (!resource) {
        const reason = this.unreadable.get(uri);
        if (reason) return reason;
        if (/^https?:/i.test(uri))
          return `it points to ${uri}, and mockdev does not fetch documents from the network`;
        return `${describeUri(uri)} is not loaded`;
      }
      if (fragment === '')
        return { node: resource.node, doc: resource.doc, resource, pointer: resource.pointer };
      if (fragment.startsWith('/')) return this.walkPointer(resource, fragment, depth);
      const anchor = resource.anchors?.get(decodeFragment(fragment));
      if (!anchor) return `no schema in ${describeUri(uri)} has the anchor "${decodeFragment(fragment)}"`;
      return {
        node: anchor,
        doc: resource.doc,
        resource: this.resourceOf(anchor, resource.doc),
        pointer: '',
      };
    };
    const first = lookup(resolved);
    if (typeof first !== 'string' || scope.base === scope.doc.uri) return first;
    // Relative to an `$id` it names nothing: as the document's own reference, then.
    const again = resolveUri(ref, scope.doc.uri);
    const second = again ? lookup(again) : first;
    return typeof second === 'string' ? first : second;
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

  private baseOf(target: Target): string {
    return target.resource.uri;
  }

  /**
   * `$dynamicRef`: when its first target declares the `$dynamicAnchor` it names, the outermost
   * resource of the dynamic scope that declares one of that name wins.
   */
  private bindDynamic(ref: string, first: Target, scope: Scope): Target {
    const hash = ref.indexOf('#');
    const name = hash < 0 ? '' : decodeFragment(ref.slice(hash + 1));
    if (!name || name.startsWith('/') || !isObj(first.node) || first.node.$dynamicAnchor !== name)
      return first;
    for (const resource of scope.resources) {
      const bound = resource.dynamicAnchors?.get(name);
      if (bound) return { node: bound, doc: resource.doc, resource, pointer: '' };
    }
    return first;
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
