/**
 * The languages of "copy as code" (core/snippets.ts). Apart from the snippets themselves so that
 * the CLI's option list (`endpoint code --lang`) does not load the snippet builders at start.
 */
export const SNIPPET_LANGUAGES = ['curl', 'fetch', 'axios', 'python'] as const;
export type SnippetLanguage = (typeof SNIPPET_LANGUAGES)[number];
