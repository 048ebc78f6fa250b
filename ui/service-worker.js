// The web UI's service worker (served as /sw.js): it keeps the UI's shell (index.html, the
// scripts, styles, manifest and icons of this build) so that the UI starts without the network,
// in a window of its own too, even when mockdev ui is not running (the page then says so, and
// connects once it runs). The admin API (/api/) is never cached: what the UI shows is always
// mockdev's data as it is now. Built by ui/vite.config.ts, which puts before this code the
// build's `SHELL` (the files to keep) and `CACHE` (a name that changes with them), so a new build
// replaces the old shell and deletes its cache. docs/ui.md "Installable, offline start".
/* global SHELL, CACHE */

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

/** The page of every UI path: the network's when mockdev ui answers, else the kept one. */
async function page(request) {
  try {
    return await fetch(request);
  } catch {
    const kept = await caches.match('/index.html', { cacheName: CACHE });
    return kept ?? Response.error();
  }
}

/** A file of the shell: the kept one, else the network's (a hashed asset is kept once fetched). */
async function file(request, url) {
  const kept = await caches.match(request, { cacheName: CACHE });
  if (kept) return kept;
  const answer = await fetch(request);
  if (answer.ok && url.pathname.startsWith('/assets/')) {
    const cache = await caches.open(CACHE);
    await cache.put(request, answer.clone());
  }
  return answer;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  // Only the UI's own files: the admin API, other methods and other origins go to the network.
  if (request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/api/'))
    return;
  if (request.mode === 'navigate') event.respondWith(page(request));
  else event.respondWith(file(request, url));
});
