/** Help text helpers shared by every command definition. */
import type { FieldDoc } from '../core/model/descriptions.js';

export const examples = (...lines: string[]): string =>
  `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}`;

export const JSON_OPTION = ['--json', 'print JSON instead of a table'] as const;
export const FORCE_OPTION = [
  '-f, --force',
  'skip the confirmation (required when not in a terminal)',
] as const;

/**
 * An option's help in the core's words for its field (core/model/descriptions.ts), so that the
 * CLI says what MCP and the admin API's OpenAPI document say. `default`: true adds the field's
 * default (an `add`, not an `update`), a text names another; `prefix` and `more` add what only
 * the CLI has (the value's syntax, what the option also does).
 */
export function fieldHelp(
  doc: FieldDoc,
  options: { default?: boolean | string; prefix?: string; more?: string } = {},
): string {
  // Options read in lower case ("response status"); "HTTP method" and "Content-Type" stay.
  const text = /^[A-Z][a-z]*\s/.test(doc.text) ? doc.text[0]!.toLowerCase() + doc.text.slice(1) : doc.text;
  const dflt = options.default === true ? doc.default : options.default || undefined;
  return `${options.prefix ?? ''}${text}${options.more ? `; ${options.more}` : ''}${dflt ? ` (default: ${dflt})` : ''}`;
}

/**
 * The token options of a server that may listen beyond loopback (`ui`, `mcp --http`). The
 * environment variable is the way to give it: a command line is readable in the process list.
 */
export const tokenOptions = (env: string) =>
  [
    [
      '--token <TOKEN>',
      `require "Authorization: Bearer <TOKEN>" on every request; "-" reads it from stdin (default: ${env} when set; prefer it, or --token-file: a command line is visible in the process list)`,
    ],
    ['--token-file <FILE>', 'read the token from a file (its first line)'],
  ] as const;

/** `--templating` / `--no-templating`, which endpoint and variation add/update share. */
export const TEMPLATING_OPTIONS = [
  ['--templating', 'render {{…}} in the status text, body and header values as templates (the default)'],
  [
    '--no-templating',
    'send the status text, body and header values as written, {{ included (what imports do)',
  ],
] as const;
