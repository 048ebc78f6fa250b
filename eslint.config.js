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
