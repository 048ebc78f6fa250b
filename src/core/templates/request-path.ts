/**
 * WireMock's `request.path`: the path as text (`{{request.path}}`), and its segments by index
 * (`{{request.path.[0]}}`), decoded. Own properties only, so Handlebars reads the segments.
 */
export class RequestPath {
  [segment: number]: string;
  readonly #path: string;
  constructor(path: string, segments: readonly string[]) {
    this.#path = path;
    segments.forEach((s, i) => (this[i] = s));
  }
  toString(): string {
    return this.#path;
  }
  toJSON(): string {
    return this.#path;
  }
}

/** A Cookie header's cookies by name (the first of a repeated name; values as sent). */
export function parseCookies(header: string): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq === -1) continue;
    const name = pair.slice(0, eq).trim();
    if (name && name !== '__proto__' && !Object.prototype.hasOwnProperty.call(cookies, name))
      cookies[name] = pair.slice(eq + 1).trim();
  }
  return cookies;
}
