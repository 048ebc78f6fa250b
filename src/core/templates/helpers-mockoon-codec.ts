import type { HelperDelegate, HelperOptions } from 'handlebars';
import { split, text, valueAtPath } from './helpers.js';
import { grow } from './limits.js';

/**
 * Mockoon's encoding helpers: `base64Decode`, `base64url`, `base64urlDecode` (each of a value,
 * or of its block's text) and `jwtPayload`/`jwtHeader` (a JWT's parts, decoded without checking
 * its signature, optionally at a dotted path). `base64` itself is in the WireMock helpers.
 */

/** The helper's value: its first argument, or the text its block renders. */
function input(this: unknown, a: unknown[]): string {
  const [args, o] = split(a);
  if (args.length === 0 && (o as HelperOptions).fn) return (o as HelperOptions).fn(this);
  return text(args[0]);
}

/** A JWT's part (0: header, 1: payload) as JSON, or undefined when it is not one. */
function jwtPart(token: unknown, part: 0 | 1): unknown {
  const raw = text(token).replace(/^Bearer\s+/i, '');
  const piece = raw.split('.')[part];
  if (raw.split('.').length !== 3 || piece === undefined) return undefined;
  try {
    return JSON.parse(Buffer.from(piece, 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function jwtHelper(part: 0 | 1): HelperDelegate {
  return (...a: unknown[]) => {
    const [[token, path]] = split(a);
    const value = jwtPart(token, part);
    if (value === undefined) return '';
    return path === undefined ? value : (valueAtPath(value, text(path)) ?? '');
  };
}

export const mockoonCodecHelpers: Record<string, HelperDelegate> = {
  base64Decode: function (this: unknown, ...a: unknown[]) {
    return Buffer.from(input.call(this, a), 'base64').toString('utf8');
  },
  base64url: function (this: unknown, ...a: unknown[]) {
    const s = Buffer.from(input.call(this, a), 'utf8');
    grow(Math.ceil((s.length * 4) / 3));
    return s.toString('base64url');
  },
  base64urlDecode: function (this: unknown, ...a: unknown[]) {
    return Buffer.from(input.call(this, a), 'base64url').toString('utf8');
  },
  jwtPayload: jwtHelper(1),
  jwtHeader: jwtHelper(0),
};
