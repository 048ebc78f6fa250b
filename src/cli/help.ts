/** Help text helpers shared by every command definition. */
export const examples = (...lines: string[]): string =>
  `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}`;

export const JSON_OPTION = ['--json', 'print JSON instead of a table'] as const;
export const FORCE_OPTION = [
  '-f, --force',
  'skip the confirmation (required when not in a terminal)',
] as const;

/** `--templating` / `--no-templating`, which endpoint and variation add/update share. */
export const TEMPLATING_OPTIONS = [
  ['--templating', 'render {{…}} in the status text, body and header values as templates (the default)'],
  [
    '--no-templating',
    'send the status text, body and header values as written, {{ included (what imports do)',
  ],
] as const;
