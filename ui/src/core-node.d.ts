/**
 * The UI's type check reads the core modules whose types it imports, and so the core's lazy
 * loader of an optional engine (src/core/linear-regex.ts, which the browser never runs). This
 * declares the one node module that loader uses, without giving the UI Node's types.
 */
declare module 'node:module' {
  export function createRequire(path: string | URL): (id: string) => unknown;
}
