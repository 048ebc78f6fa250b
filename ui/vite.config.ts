import { defineConfig } from 'vite';

/**
 * The web UI's build (run by `npm run build`, so by `npm install`): ui/ into dist/ui, served by
 * `mockdev ui`. For work on the UI, `npx vite --config ui/vite.config.ts` serves it with hot
 * reload and passes /api to a running `mockdev ui` (MOCKDEV_UI_URL, http://127.0.0.1:3200).
 */
export default defineConfig({
  root: new URL('.', import.meta.url).pathname,
  base: '/',
  logLevel: 'warn',
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
