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
