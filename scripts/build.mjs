#!/usr/bin/env node
// `npm run build` (also run by `npm install` through `prepare`): bundles the CLI into dist/cli/
// with esbuild. One file for what every command loads, and a chunk per lazily loaded part (each
// command's handlers, the MCP server, the OpenAPI parser), so a command loads only what it uses
// and Node resolves a handful of files instead of hundreds: `serve` answers its first request
// in about half the time the unbundled tsc output took. Types are checked by `npm test`
// (tsc --noEmit), not here. better-sqlite3 stays outside the bundle: it is a native addon. The web
// UI is built last, with Vite (see the end of this file).
//
// The OpenAPI schema validators an import uses are compiled here, ahead of time, into ajv
// "standalone" code: compiling them at run time cost an import of a large document a few
// hundred milliseconds. src/formats/openapi/meta-schema.ts loads them as
// `virtual:openapi-validator-<version>` (and compiles them itself when run from the sources).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { buildDefines } from './build-defines.mjs';

const root = new URL('..', import.meta.url).pathname;
rmSync(`${root}dist`, { recursive: true, force: true });

/** ajv standalone code for each OpenAPI version, from the schemas as meta-schema.ts adapts them. */
async function openApiValidators() {
  const tmp = `${root}dist/.build`;
  mkdirSync(tmp, { recursive: true });
  const bundled = await build({
    absWorkingDir: root,
    entryPoints: ['src/formats/openapi/meta-schema.ts'],
    bundle: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    write: false,
    logLevel: 'warning',
  });
  const file = `${tmp}/meta-schema.mjs`;
  writeFileSync(file, bundled.outputFiles[0].text);
  const { compile } = await import(pathToFileURL(file).href);
  const standaloneCode = createRequire(import.meta.url)('ajv/dist/standalone').default;
  const sources = {};
  for (const dialect of ['2.0', '3.0', '3.1']) {
    const { ajv, validate } = await compile(dialect, { code: { source: true, esm: true } });
    sources[dialect] = standaloneCode(ajv, validate);
  }
  rmSync(tmp, { recursive: true, force: true });
  return sources;
}

const validators = await openApiValidators();

// The OpenAPI import's worker thread (src/app/openapi-worker.ts) is an entry of its own, found
// by its own URL: its code must stay in that file, not move into a shared chunk.
const WORKER_OUT = 'dist/cli/openapi-worker.js';
const WORKER_IN = 'src/app/openapi-worker.ts';
// The process that holds an ngrok tunnel (src/store/tunnels/ngrok-holder.ts) is run by path:
// dist/cli/tunnel-holder.js, beside the bundle (ngrok.ts looks for it there).
const HOLDER_OUT = 'dist/cli/tunnel-holder.js';
const HOLDER_IN = 'src/store/tunnels/ngrok-holder.ts';

const { metafile } = await build({
  absWorkingDir: root,
  entryPoints: { main: 'src/cli/main.ts', 'openapi-worker': WORKER_IN, 'tunnel-holder': HOLDER_IN },
  metafile: true,
  outdir: 'dist/cli',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // @ngrok/ngrok (optional) carries a native agent: loaded from node_modules when a tunnel needs it.
  external: ['better-sqlite3', '@ngrok/ngrok'],
  // Build-time constants (scripts/build-defines.mjs): the default MOCKDEV_LICENSE_URL.
  define: buildDefines(process.env),
  // Bundled CommonJS dependencies (commander, the MCP SDK's) call require(): give ES modules one.
  banner: {
    js: "import { createRequire as __mockdevCreateRequire } from 'node:module'; const require = __mockdevCreateRequire(import.meta.url);",
  },
  sourcemap: true,
  legalComments: 'linked',
  logLevel: 'warning',
  plugins: [
    {
      name: 'openapi-validators',
      setup(b) {
        b.onResolve({ filter: /^virtual:openapi-validator-/ }, (args) => ({
          path: args.path.slice('virtual:'.length),
          namespace: 'openapi-validator',
        }));
        b.onLoad({ filter: /.*/, namespace: 'openapi-validator' }, (args) => ({
          contents: validators[args.path.slice('openapi-validator-'.length)],
          resolveDir: root,
          loader: 'js',
        }));
      },
    },
  ],
});
// The license service (src/license-service, `npm run license-service`): a component of its own,
// deployed apart from the CLI; its dependencies (better-sqlite3, nodemailer, zod) load from
// node_modules.
await build({
  absWorkingDir: root,
  entryPoints: { main: 'src/license-service/main.ts' },
  outdir: 'dist/license-service',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  define: buildDefines(process.env),
  sourcemap: true,
  logLevel: 'warning',
});

if (!metafile.outputs[HOLDER_OUT])
  throw new Error(`${HOLDER_OUT} was not built: ngrok tunnels would not start`);
if (!metafile.outputs[WORKER_OUT]?.inputs[WORKER_IN]) {
  throw new Error(`${WORKER_IN} is not in ${WORKER_OUT}: the worker would not find itself`);
}

// The web UI (ui/, React + Vite) into dist/ui, which `mockdev ui` serves (src/api/ui-files.ts).
// Its size is reported here and in docs/benchmarks.md; the budget is 250 KB gzipped in all.
{
  const { build: viteBuild } = await import('vite');
  await viteBuild({ configFile: `${root}ui/vite.config.ts`, logLevel: 'warn' });
}
