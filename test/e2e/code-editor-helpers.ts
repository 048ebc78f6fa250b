import type { Locator } from 'playwright-core';

/**
 * The text of a body field's code editor (CodeMirror: one element per line), given its labelled
 * editable element (`getByLabel('Body')`), or of the plain textarea shown before it loads.
 */
export const codeText = (body: Locator): Promise<string> =>
  body.evaluate((el) =>
    el instanceof HTMLTextAreaElement
      ? el.value
      : [...el.querySelectorAll('.cm-line')].map((line) => line.textContent ?? '').join('\n'),
  );
