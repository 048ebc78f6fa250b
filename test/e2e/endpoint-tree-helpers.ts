import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { CliResult } from '../helpers/cli.js';
import { waitUntil } from '../helpers/wait.js';

/** What the endpoint tree tests share: the seed project, and ways to read the tree and the data. */

export interface StoredEndpoint {
  id: string;
  name: string;
  method: string;
  path: string;
  enabled: boolean;
  kind: string;
}

/** [method, path, name] of the seed project "Shop". */
export const SEED: [string, string, string][] = [
  ['GET', '/api/users', 'List users'],
  ['POST', '/api/users', 'Create user'],
  ['GET', '/api/users/{id}', 'Get user'],
  ['DELETE', '/api/users/{id}', 'Remove user'],
  ['GET', '/api/users/{id}/orders', 'User orders'],
  ['GET', '/api/orders', 'List orders'],
  ['GET', '/health', 'Health'],
  ['GET', '/', 'Root'],
];

/** The seed's endpoint rows in the folder users/ (/api/users and /api/users/{id}), after its folders: each says the path below its folder. */
export const USERS_ROWS = [
  'GET / List users',
  'POST / Create user',
  'GET /{id} Get user',
  'DELETE /{id} Remove user',
];

/** Every row of the seed, every folder expanded (a project's first visit); `{id}/orders/` is a compacted chain. */
export const ALL_ROWS = [
  'api/',
  'orders/',
  'GET / List orders',
  'users/',
  '{id}/orders/',
  'GET / User orders',
  ...USERS_ROWS,
  'health/',
  'GET / Health',
  'GET / Root',
];

/** The seed's folders (their ids, the compacted chain's `/api/users/{id}` too), all expanded on the first visit. */
export const ALL_FOLDERS = [
  '/api',
  '/api/orders',
  '/api/users',
  '/api/users/{id}',
  '/api/users/{id}/orders',
  '/health',
];

export async function seedShop(cli: (args: string[]) => Promise<CliResult>): Promise<void> {
  const created = await cli(['project', 'create', 'Shop', '-p', '4100']);
  if (created.code !== 0) throw new Error(`project create: ${created.stderr}`);
  for (const [method, path, name] of SEED) {
    const r = await cli(['endpoint', 'add', 'Shop', '-m', method, '-p', path, '-n', name]);
    if (r.code !== 0) throw new Error(`endpoint add ${method} ${path}: ${r.stderr}`);
  }
}

export const tree = (page: Page): Locator => page.getByRole('tree', { name: 'Endpoints' });

export const item = (page: Page, name: string): Locator =>
  tree(page).getByRole('treeitem', { name, exact: true });

/** The accessible names of the rows shown, in order. */
export const shownNames = (page: Page): Promise<string[]> =>
  tree(page)
    .getByRole('treeitem')
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));

/** Polls the shown rows until they are `expected` (the tree renders after a data or state change). */
export async function expectShown(page: Page, expected: string[], what: string): Promise<void> {
  let last: string[] = [];
  await waitUntil(
    async () => {
      last = await shownNames(page);
      return JSON.stringify(last) === JSON.stringify(expected);
    },
    `${what}: rows ${JSON.stringify(expected)}`,
    10_000,
  ).catch((e: Error) => {
    throw new Error(`${e.message}; shown: ${JSON.stringify(last)}`);
  });
}

/** Polls until a locator's attribute has a value. */
export async function expectAttr(locator: Locator, attr: string, value: string | null, what: string) {
  let last: string | null = null;
  await waitUntil(
    async () => {
      last = await locator.getAttribute(attr);
      return last === value;
    },
    `${what}: ${attr}=${String(value)}`,
    10_000,
  ).catch((e: Error) => {
    throw new Error(`${e.message} (is ${String(last)})`);
  });
}

/** The names of the selected rows (aria-selected="true"). */
export const selectedNames = (page: Page): Promise<string[]> =>
  tree(page)
    .locator('[role="treeitem"][aria-selected="true"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));

/** The accessible name of the element with focus. */
export const focusedName = (page: Page): Promise<string | null> =>
  page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);

/** The expanded folders as kept in the data directory (ui-state/<project id>.json). */
export function storedExpanded(dataDir: string, projectId: string): string[] | undefined {
  try {
    const raw = JSON.parse(readFileSync(join(dataDir, 'ui-state', `${projectId}.json`), 'utf8')) as {
      expanded: string[];
    };
    return [...raw.expanded].sort();
  } catch {
    return undefined;
  }
}

/** Polls the data directory until the stored expanded folders are `expected` (saves are debounced). */
export async function expectStored(dataDir: string, projectId: string, expected: string[]): Promise<void> {
  const want = [...expected].sort();
  let last: string[] | undefined;
  await waitUntil(
    () => {
      last = storedExpanded(dataDir, projectId);
      return JSON.stringify(last) === JSON.stringify(want);
    },
    `ui-state to hold ${JSON.stringify(want)}`,
    10_000,
  ).catch((e: Error) => {
    throw new Error(`${e.message} (holds ${JSON.stringify(last)})`);
  });
}

/** Expands a folder row unless it is already (a double click toggles it). */
export async function expand(page: Page, name: string): Promise<void> {
  const row = item(page, name);
  await row.waitFor();
  if ((await row.getAttribute('aria-expanded')) !== 'true') await row.dblclick();
  await expectAttr(row, 'aria-expanded', 'true', `${name} expanded`);
}

/** The text of the row tooltip shown now (a row's full text), or null. */
export const tipText = async (page: Page): Promise<string | null> => {
  const tip = page.getByRole('tooltip');
  return (await tip.count()) ? tip.textContent() : null;
};

/** With a collapsed folder focused: Right expands it, Left collapses it, Space expands it again. */
export async function rightLeftSpace(page: Page, name: string): Promise<void> {
  const row = item(page, name);
  for (const [key, expanded] of [
    ['ArrowRight', 'true'],
    ['ArrowLeft', 'false'],
    ['Space', 'true'],
  ] as const) {
    await page.keyboard.press(key);
    await expectAttr(row, 'aria-expanded', expanded, `${name} after ${key}`);
  }
}

/** Waits for the confirmation titled `title`, checks it lists `items`, and cancels it. */
export async function cancelConfirmation(page: Page, title: string, items: string[]): Promise<void> {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.waitFor();
  assert.deepEqual(await dialog.getByRole('listitem').allTextContents(), items);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** Polls `check` until it is true, failing with `what`. */
export const eventually = (check: () => Promise<boolean> | boolean, what: string) =>
  waitUntil(check, what, 10_000);
