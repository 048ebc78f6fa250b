/** Help text helpers shared by every command definition. */
export const examples = (...lines: string[]): string =>
  `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}`;

export const JSON_OPTION = ['--json', 'print JSON instead of a table'] as const;
export const FORCE_OPTION = [
  '-f, --force',
  'skip the confirmation (required when not in a terminal)',
] as const;

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
