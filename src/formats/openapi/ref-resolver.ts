/**
 * The index and resolver behind DocumentSet (refs.ts): the documents loaded, the schema
 * resources they declare (`$id`, `$anchor`, `$dynamicAnchor` in 3.1), every `$ref` written in
 * them, and the resolution of a reference in a scope to its target, the way each version means
 * it (see refs.ts). Pure.
 */

import { childKind, rootKind, type Kind } from './ref-positions.js';
import {
  decodeFragment,
  describeUri,
  escapeSegment,
  resolveUri,
  stripFragment,
  unescapeSegment,
} from './ref-uri.js';

export type Obj = Record<string, unknown>;

export type Dialect = '2.0' | '3.0' | '3.1';

/** Where a part of a bundled document came from (for messages about it). */
export interface Origin {
  uri: string;
  pointer: string;
}

export interface Doc {
  uri: string;
  value: unknown;
  dialect: Dialect;
}

/** A schema resource: a document, or a schema with an `$id` (3.1). */
export interface Resource {
  uri: string;
  node: unknown;
  doc: Doc;
  pointer: string;
  anchors?: Map<string, Obj>;
  dynamicAnchors?: Map<string, Obj>;
}

export interface RefSite {
  node: Obj;
  doc: Doc;
  pointer: string;
  base: string;
  ref: string;
}

export interface Target {
  node: unknown;
  doc: Doc;
  resource: Resource;
  pointer: string;
}

export interface Scope {
  base: string;
  doc: Doc;
  /** The dynamic scope: resources entered, outermost first, each once. */
  resources: Resource[];
}

export const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** Documents, their schema resources and `$ref` sites, and the resolution of references. */
export class RefResolver {
  protected readonly docs = new Map<string, Doc>();
  protected readonly resources = new Map<string, Resource>();
  /** The resource each node inside an `$id` resource belongs to (3.1 only). */
  private readonly resourceOfNode = new Map<object, Resource>();
  /** The resource whose root a node is. */
  protected readonly resourceRoots = new Map<object, Resource>();
  private readonly sites: RefSite[] = [];
  protected readonly siteOf = new Map<object, RefSite>();
  private readonly unreadable = new Map<string, string>();
  private checked = 0;
  protected hasDynamicAnchors = false;
  /** Where a part of a document contains itself (YAML aliases can do that; JSON cannot). */
  readonly cycles: Origin[] = [];
  /** Resolutions already made, by base and reference (most documents repeat a few hundred $refs). */
  private readonly resolved = new Map<string, Target | string>();

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
  protected resolve(ref: string, scope: Scope, depth = 0): Target | string {
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

  protected baseOf(target: Target): string {
    return target.resource.uri;
  }

  /**
   * `$dynamicRef`: when its first target declares the `$dynamicAnchor` it names, the outermost
   * resource of the dynamic scope that declares one of that name wins.
   */
  protected bindDynamic(ref: string, first: Target, scope: Scope): Target {
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
}
