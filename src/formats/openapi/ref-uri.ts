/** URI references and JSON pointers, as `$ref`s use them (refs.ts). Pure. */

export const escapeSegment = (s: string): string =>
  s.includes('~') || s.includes('/') ? s.replace(/~/g, '~0').replace(/\//g, '~1') : s;
export const unescapeSegment = (s: string): string => s.replace(/~1/g, '/').replace(/~0/g, '~');

/** `uri` without its fragment. */
export const stripFragment = (uri: string): string => {
  const hash = uri.indexOf('#');
  return hash < 0 ? uri : uri.slice(0, hash);
};

/** Resolves `ref` against `base`: `[resource URI, fragment]` (fragment without `#`, still encoded). */
export function resolveUri(ref: string, base: string): [string, string] | undefined {
  if (ref.startsWith('#')) return [stripFragment(base), ref.slice(1)];
  try {
    const url = new URL(ref, base);
    const fragment = url.hash.slice(1);
    url.hash = '';
    return [url.href, fragment];
  } catch {
    return undefined;
  }
}

export const decodeFragment = (fragment: string): string => {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
};

/** A short name for a document in messages: the file name of a file: URI, else the URI. */
export function describeUri(uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  try {
    return decodeURIComponent(new URL(uri).pathname.replace(/^.*\//, '')) || uri;
  } catch {
    return uri;
  }
}

/** `#/a/b` for messages. */
export const formatPointer = (pointer: string): string => `#${pointer}`;
