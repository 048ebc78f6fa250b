import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vite';

const uiDir = new URL('.', import.meta.url).pathname;

/**
 * The service worker (ui/service-worker.js) as /sw.js, with the build's shell before its code:
 * `SHELL`, every file the UI needs to start (index.html, the bundle's scripts and styles, the
 * public files: manifest and icons), and `CACHE`, named after a hash of their contents, so that
 * each build installs anew and drops the previous shell.
 */
function serviceWorker(): Plugin {
  return {
    name: 'mockdev-service-worker',
    apply: 'build',
    generateBundle(_options, bundle) {
      const hash = createHash('sha256');
      const built = Object.values(bundle)
        .filter((f) => !f.fileName.endsWith('.map'))
        .map((f) => {
          hash.update(f.fileName).update(f.type === 'chunk' ? f.code : f.source);
          return `/${f.fileName}`;
        });
      const publicFiles = (dir: string): string[] =>
        readdirSync(`${uiDir}public/${dir}`, { withFileTypes: true }).flatMap((e) =>
          e.isDirectory() ? publicFiles(`${dir}${e.name}/`) : [`/${dir}${e.name}`],
        );
      const kept = publicFiles('');
      for (const path of kept) hash.update(path).update(readFileSync(`${uiDir}public${path}`));
      const shell = [...built, ...kept].filter((p) => p !== '/index.html').sort();
      const code = readFileSync(`${uiDir}service-worker.js`, 'utf8');
      hash.update(code);
      this.emitFile({
        type: 'asset',
        fileName: 'sw.js',
        source: `const SHELL = ${JSON.stringify(['/index.html', ...shell])};\nconst CACHE = 'mockdev-shell-${hash.digest('hex').slice(0, 16)}';\n${code}`,
      });
    },
  };
}

/**
 * The web UI's build (run by `npm run build`, so by `npm install`): ui/ into dist/ui, served by
 * `mockdev ui`. For work on the UI, `npx vite --config ui/vite.config.ts` serves it with hot
 * reload and passes /api to a running `mockdev ui` (MOCKDEV_UI_URL, http://127.0.0.1:3200).
 */
export default defineConfig({
  root: uiDir,
  base: '/',
  logLevel: 'warn',
  plugins: [serviceWorker()],
  build: {
    outDir: new URL('../dist/ui', import.meta.url).pathname,
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    chunkSizeWarningLimit: 800,
  },
  server: {
    proxy: { '/api': { target: process.env.MOCKDEV_UI_URL ?? 'http://127.0.0.1:3200', changeOrigin: true } },
  },
});
