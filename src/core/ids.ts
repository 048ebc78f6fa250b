import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
const FIRST = ALPHABET.slice(0, 62); // never '-' or '_' first: a CLI must not read an id as an option

/** A short, URL-safe, random id: [A-Za-z0-9] then [A-Za-z0-9_-]. */
export function newId(length = 10): string {
  const bytes = randomBytes(length);
  let id = FIRST[bytes[0]! % FIRST.length]!;
  for (let i = 1; i < length; i++) id += ALPHABET[bytes[i]! & 63]!;
  return id;
}

export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
