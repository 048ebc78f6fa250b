#!/usr/bin/env node
// `node scripts/icons.mjs`: renders the web UI's icons (ui/public/icons/icon.svg, served as it
// is too, and ui/icons/icon-maskable.svg, its full-bleed variant) into the PNG sizes
// browsers ask of an installable web app, in ui/public/icons/ (committed; Vite copies
// ui/public/ into dist/ui). Run it after changing an SVG. Uses the chromium the browser tests
// use (MOCKDEV_CHROMIUM, default /usr/bin/chromium), so the PNGs look as the SVG does there.
import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const root = new URL('..', import.meta.url).pathname;
const ICONS = [
  // [source, output, size]: "any" icons (transparent corners), the maskable one (full bleed), and
  // the Apple touch icon (iOS rounds it itself: full bleed too).
  ['public/icons/icon.svg', 'icon-32.png', 32],
  ['public/icons/icon.svg', 'icon-192.png', 192],
  ['public/icons/icon.svg', 'icon-512.png', 512],
  ['icons/icon-maskable.svg', 'icon-maskable-512.png', 512],
  ['icons/icon-maskable.svg', 'apple-touch-icon.png', 180],
];

const browser = await chromium.launch({
  executablePath: process.env.MOCKDEV_CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage();
  for (const [source, output, size] of ICONS) {
    const svg = readFileSync(`${root}ui/${source}`).toString('base64');
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}</style><img src="data:image/svg+xml;base64,${svg}" width="${size}" height="${size}">`,
    );
    await page.locator('img').evaluate((img) => img.decode());
    writeFileSync(`${root}ui/public/icons/${output}`, await page.screenshot({ omitBackground: true }));
    console.log(`ui/public/icons/${output} (${size}x${size})`);
  }
} finally {
  await browser.close();
}
