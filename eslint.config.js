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
    // The web UI's service worker (built into dist/ui/sw.js by ui/vite.config.ts).
    files: ['ui/service-worker.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
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
              // limits.ts, json-body.ts, variation-text.ts and credentials.ts are pure and import
              // no values: the field limits, the body's JSON rule, a variation in words and what
              // a credential shows masked are the core's, once.
              regex: '^(\\.\\./)+src/core/model/(?!limits$|json-body\\.js$|variation-text$|credentials$)',
              allowTypeImports: true,
              message:
                'Only types come from src/core/model (import type), and values only from its pure modules (limits, json-body, variation-text, credentials): the UI bundles no other part of the core.',
            },
          ],
        },
      ],
    },
  },
  {
    // The UI checks a form against the core's field limits, imported from src/core/model/limits,
    // never restated: a restated one would drift from what the API checks.
    files: ['ui/src/**/*.{ts,tsx}'],
    ignores: ['ui/src/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          ['Literal[value=599]', 'STATUS_MAX'],
          ['Literal[value=600000]', 'DELAY_MAX_MS'],
          ['Literal[value=3600000]', 'PROXY_TIMEOUT_MAX_MS'],
          ['Literal[value=30000]', 'DEFAULT_PROXY_TIMEOUT_MS'],
          ['Literal[value=65535]', 'PORT_MIN and PORT_MAX'],
          ["ArrayExpression > Literal[value='OPTIONS']", 'HTTP_METHODS'],
          ["Literal[regex.pattern='^[A-Za-z_][A-Za-z0-9_]*$']", 'ENV_KEY_PATTERN'],
          ['Literal[regex.pattern=/!#\\$%&/]', 'HEADER_NAME_PATTERN'],
        ].map(([selector, name]) => ({
          selector,
          message: `A field limit of the core: import ${name} from src/core/model/limits instead of restating it.`,
        })),
      ],
    },
  },
  {
    // What runs in the app, the runtime, the core and the converters reads and writes no files
    // itself: stores and adapters do.
    files: ['src/app/**/*.ts', 'src/runtime/**/*.ts', 'src/http/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['node:fs', 'node:fs/promises', 'fs', 'fs/promises'] }],
    },
  },
  {
    // The use cases reach the network only through a port (core/ports.ts), as the license
    // service is reached (store/net/).
    files: ['src/app/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Network I/O goes behind a port (core/ports.ts), implemented in store/.' },
      ],
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
