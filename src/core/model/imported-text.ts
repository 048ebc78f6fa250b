import { isTemplate } from '../templates/engine.js';
import type { EndpointInput } from './endpoint.js';

/**
 * Text that comes from an imported document or command (OpenAPI examples and generated samples,
 * header values, cURL bodies) is data, not a template (DECISIONS "Trust and data"): a response
 * of such an endpoint whose text holds `{{` gets `templating: false`, so it is sent as written.
 * An import told to keep templates (`--templates`), or reading mockdev's own export, does not
 * call this. Pure.
 */

interface ResponseText {
  statusText?: string;
  body?: string;
  headers?: Record<string, string>;
  templating?: boolean;
}

/** The parts of a response that hold `{{` (`body`, `header "X-Id"`, `status text`). */
function templateParts(r: ResponseText): string[] {
  const parts: string[] = [];
  if (r.statusText !== undefined && isTemplate(r.statusText)) parts.push('status text');
  if (r.body !== undefined && isTemplate(r.body)) parts.push('body');
  for (const [name, value] of Object.entries(r.headers ?? {}))
    if (isTemplate(value)) parts.push(`header "${name}"`);
  return parts;
}

/**
 * The endpoint with each response (its own and each variation's) whose text holds `{{` sent as
 * written (`templating: false`), and the parts so kept literal, for the import's report:
 * `body`, `header "X-Id"`, `variation "404" body`. An endpoint without `{{` comes back as it is.
 */
export function keepTextLiteral<T extends EndpointInput>(input: T): { input: T; literal: string[] } {
  const literal: string[] = [];
  const own = templateParts(input);
  literal.push(...own);
  let variations = input.variations;
  if (variations?.length) {
    variations = variations.map((v) => {
      const parts = templateParts(v);
      literal.push(...parts.map((p) => `variation "${v.name}" ${p}`));
      return parts.length ? { ...v, templating: false } : v;
    });
  }
  if (literal.length === 0) return { input, literal };
  return {
    input: { ...input, ...(own.length ? { templating: false } : {}), ...(variations ? { variations } : {}) },
    literal,
  };
}
