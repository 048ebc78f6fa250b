import { isTemplate, readsEnvironment } from '../templates/engine.js';
import type { EndpointInput } from './endpoint.js';

/**
 * Text that comes from an imported document or command (OpenAPI examples and generated samples,
 * header values, cURL bodies) is data, not a template (DECISIONS "Trust and data"): a response
 * of such an endpoint whose text holds `{{` gets `templating: false`, so it is sent as written.
 * An import told to keep templates (`--templates`) does not call this. mockdev's own export
 * keeps its templates, except those that can read the environment (`readsEnvironment`): any
 * document can carry `x-mockdev-*` fields, and only such a template can hand the active
 * environment's secrets to whoever calls the mock, so it takes `--templates` to keep one. Pure.
 */

/** Which text is kept literal: every template (`all`), or those that can read the environment. */
export type LiteralRule = 'all' | 'readsEnvironment';

const RULES: Record<LiteralRule, (text: string) => boolean> = {
  all: isTemplate,
  readsEnvironment,
};

interface ResponseText {
  statusText?: string;
  body?: string;
  headers?: Record<string, string>;
  templating?: boolean;
}

/** The parts of a response that hold `{{` (`body`, `header "X-Id"`, `status text`). */
function templateParts(r: ResponseText, literal: (text: string) => boolean): string[] {
  const parts: string[] = [];
  if (r.templating === false) return parts; // already sent as written (an export says so)
  if (r.statusText !== undefined && literal(r.statusText)) parts.push('status text');
  if (r.body !== undefined && literal(r.body)) parts.push('body');
  for (const [name, value] of Object.entries(r.headers ?? {}))
    if (literal(value)) parts.push(`header "${name}"`);
  return parts;
}

/**
 * The endpoint with each response (its own and each variation's) whose text holds `{{` sent as
 * written (`templating: false`), and the parts so kept literal, for the import's report:
 * `body`, `header "X-Id"`, `variation "404" body`. An endpoint without `{{` comes back as it is.
 */
export function keepTextLiteral<T extends EndpointInput>(
  input: T,
  rule: LiteralRule = 'all',
): { input: T; literal: string[] } {
  const isLiteral = RULES[rule];
  const literal: string[] = [];
  const own = templateParts(input, isLiteral);
  literal.push(...own);
  let variations = input.variations;
  if (variations?.length) {
    variations = variations.map((v) => {
      const parts = templateParts(v, isLiteral);
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
