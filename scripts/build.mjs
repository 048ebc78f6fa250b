#!/usr/bin/env node
// `npm run build` (also run by `npm install` through `prepare`): bundles the CLI into dist/cli/
// with esbuild. One file for what every command loads, and a chunk per lazily loaded part (each
// command's handlers, the MCP server, the OpenAPI parser), so a command loads only what it uses
// and Node resolves a handful of files instead of hundreds: `serve` answers its first request
// in about half the time the unbundled tsc output took. Types are checked by `npm test`
// (tsc --noEmit), not here. better-sqlite3 stays outside the bundle: it is a native addon.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
rmSync(`${root}dist`, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ['src/cli/main.ts'],
  outdir: 'dist/cli',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3'],
  // Bundled CommonJS dependencies (commander, the MCP SDK's) call require(): give ES modules one.
  banner: {
    js: "import { createRequire as __mockdevCreateRequire } from 'node:module'; const require = __mockdevCreateRequire(import.meta.url);",
  },
  sourcemap: true,
  legalComments: 'linked',
  logLevel: 'warning',
});
