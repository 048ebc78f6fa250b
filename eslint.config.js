import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import layers from './eslint/layers.js';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // The layer directions of docs/architecture.md (eslint/layers.js); tests look at every layer.
    files: ['src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { mockdev: layers },
    rules: { 'mockdev/layers': 'error' },
  },
  {
    // The web UI runs in the browser and sees the rest of mockdev only through the admin API:
    // from src/ it may import types of the core's model, nothing else.
    files: ['ui/src/**/*.{ts,tsx}'],
    // Unit tests of the UI's pure parts run in Node (node:test).
    ignores: ['ui/src/**/*.test.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'The UI runs in the browser.' },
            {
              regex: '^(\\.\\./)+src/(?!core/model/)',
              message:
                'The UI talks to mockdev through the admin API; it imports only types from src/core/model.',
            },
          ],
        },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports' }],
    },
  },
  {
    files: ['ui/src/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // json-body.ts is pure and import-free: the body's JSON rule is the core's, once.
              regex: '^(\\.\\./)+src/core/model/(?!json-body\\.js$)',
              allowTypeImports: true,
              message: 'Only types come from src/core/model (import type): the UI bundles none of the core.',
            },
          ],
        },
      ],
    },
  },
  {
    // What runs in the app, the runtime, the core and the converters reads and writes no files
    // itself: stores and adapters do.
    files: ['src/app/**/*.ts', 'src/runtime/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['node:fs', 'node:fs/promises', 'fs', 'fs/promises'] }],
    },
  },
  {
    files: ['src/core/**/*.ts', 'src/formats/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['node:fs*', 'node:http*', 'node:net', 'fs', 'http'] }],
      'no-console': 'error',
    },
  },
);
