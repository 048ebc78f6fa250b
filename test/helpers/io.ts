import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { assertAccessible, type UiSession } from './browser.js';

/**
 * Helpers of the browser tests of the import, export, environments, settings and license screens.
 */

/** The id of a project, by name, through the CLI. */
export async function projectId(s: UiSession, name: string): Promise<string> {
  const projects = await s.cliJson<{ id: string; name: string }[]>(['project', 'list']);
  const p = projects.find((x) => x.name === name);
  assert.ok(p, `project ${name} exists`);
  return p.id;
}

/**
 * Runs axe on the page in the light theme and in the dark one (set as the theme setting applies
 * it, on the root element), then puts the theme back as it was.
 */
export async function assertAccessibleInBothThemes(page: Page, what: string): Promise<void> {
  const before = await page.evaluate(() => document.documentElement.dataset.theme ?? 'system');
  try {
    for (const theme of ['light', 'dark']) {
      await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
      await assertAccessible(page, `${what} (${theme} theme)`);
    }
  } finally {
    await page.evaluate((t) => (document.documentElement.dataset.theme = t), before);
  }
}
