/**
 * Printing is separate from the commands: results go to stdout, messages to stderr (the current
 * run's streams: the process's, or a test's when the CLI runs in-process).
 */
import { currentIo } from './io.js';

/** Text as it is, no newline added (a document, a script). */
export const printText = (text: string): void => {
  currentIo().stdout.write(text);
};

export const printJson = (value: unknown): void => {
  currentIo().stdout.write(`${JSON.stringify(value, null, 2)}\n`);
};

export const printLine = (line = ''): void => {
  currentIo().stdout.write(`${line}\n`);
};

/** A message for the user that is not the result (goes to stderr so stdout stays parseable). */
export const note = (line: string): void => {
  currentIo().stderr.write(`${line}\n`);
};

export interface Column<T> {
  header: string;
  value: (row: T) => string | number | boolean | undefined | null;
  align?: 'left' | 'right';
  /** Longer cells are cut to this many characters, ending in "…". */
  max?: number;
}

/** A cell is one line: its text up to the first line break (with "…" when more follows), cut at `max`. */
export function cellText(value: unknown, max = Infinity): string {
  const text = String(value ?? '').trim();
  const line = text.split(/\r?\n/, 1)[0]!.trimEnd();
  const cut = line.length > max ? line.slice(0, max - 1).trimEnd() : line;
  return cut === text ? cut : `${cut}…`;
}

/** Combining marks, zero-width spaces and joiners, and variation selectors take no column. */
const COMBINING = /^[\p{Mn}\p{Me}]$/u;
const isZeroWidth = (ch: string): boolean => {
  const c = ch.codePointAt(0)!;
  return (c >= 0x200b && c <= 0x200f) || (c >= 0xfe00 && c <= 0xfe0f) || COMBINING.test(ch);
};
/** East Asian wide and full-width characters and emoji take two columns in a terminal. */
const WIDE =
  /^[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}\p{Emoji_Presentation}]$/u;

/** The columns a text takes in a terminal (`日本` two each, `ü` one, `e\u0301` one). */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += isZeroWidth(ch) ? 0 : WIDE.test(ch) ? 2 : 1;
  return width;
}

const padEnd = (v: string, width: number): string => v + ' '.repeat(Math.max(0, width - displayWidth(v)));
const padStart = (v: string, width: number): string => ' '.repeat(Math.max(0, width - displayWidth(v))) + v;

/** A plain-text table with a header row, columns padded to their widest cell (in terminal columns). */
export function formatTable<T>(rows: T[], columns: Column<T>[]): string {
  const cells = rows.map((row) => columns.map((c) => cellText(c.value(row), c.max)));
  const widths = columns.map((c, i) =>
    Math.max(displayWidth(c.header), ...cells.map((r) => displayWidth(r[i]!))),
  );
  const line = (values: string[]) =>
    values
      .map((v, i) => (columns[i]!.align === 'right' ? padStart(v, widths[i]!) : padEnd(v, widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.header)), ...cells.map(line)].join('\n');
}

export function printTable<T>(rows: T[], columns: Column<T>[], empty: string): void {
  if (rows.length === 0) {
    printLine(empty);
    return;
  }
  printLine(formatTable(rows, columns));
}

/** Key/value lines for `show` commands. */
export function printFields(fields: [string, unknown][]): void {
  const width = Math.max(...fields.map(([k]) => k.length));
  for (const [key, value] of fields) {
    printLine(
      `${`${key}:`.padEnd(width + 1)} ${value === undefined || value === null || value === '' ? '-' : String(value)}`,
    );
  }
}

/** Pretty-prints a body when it is JSON; leaves it as it is otherwise. */
export function prettyBody(body: string): string {
  const trimmed = body.trim();
  if (!trimmed || !/^[[{"]|^(true|false|null|-?\d)/.test(trimmed)) return body;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return body;
  }
}

/**
 * On stderr: the core's warning for a body that is not JSON under a JSON content type
 * (core/model/json-body.ts; saved all the same), when there is one.
 */
export function warnJsonBody(warning: string | null): void {
  if (warning) note(`warning: ${warning}`);
}
