import { randomFillSync } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
const FIRST = ALPHABET.slice(0, 62); // never '-' or '_' first: a CLI must not read an id as an option

/** Random bytes drawn a few kilobytes at a time: an import makes thousands of ids at once. */
const pool = Buffer.alloc(4096);
let used = pool.length;

/** A short, URL-safe, random id: [A-Za-z0-9] then [A-Za-z0-9_-]. */
export function newId(length = 10): string {
  if (length > pool.length) throw new RangeError(`an id of ${length} characters is too long`);
  if (used + length > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  let id = FIRST[pool[used]! % FIRST.length]!;
  for (let i = 1; i < length; i++) id += ALPHABET[pool[used + i]! & 63]!;
  used += length;
  return id;
}

export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
