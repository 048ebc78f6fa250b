/**
 * The size from which a JSON text is parsed in slices (sliced-json.ts) rather than at once: a
 * module of its own, so that what only needs the size does not load the parser.
 */
/** Texts up to this many characters are parsed with JSON.parse at once: a few ms at worst. */
export const SLICED_JSON_MIN_LENGTH = 64 * 1024;
