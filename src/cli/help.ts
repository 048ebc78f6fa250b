/** Help text helpers shared by every command definition. */
export const examples = (...lines: string[]): string =>
  `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}`;

export const JSON_OPTION = ['--json', 'print JSON instead of a table'] as const;
export const FORCE_OPTION = [
  '-f, --force',
  'skip the confirmation (required when not in a terminal)',
] as const;
