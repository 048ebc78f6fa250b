import { importFile, parseImportFormat } from '../../app/imports.js';
import type { ImportProgress, ImportReport } from '../../app/openapi.js';
import type { ImportOptions } from '../commands/import.js';
import { currentIo } from '../io.js';
import { reportLines } from './import-report.js';
import { note, printJson, printLine } from '../output.js';
import { readStdin } from '../stdin.js';
import { CLI_WORDING } from '../wording.js';
import { cliContext } from './context.js';

/** One self-overwriting line on a terminal; nothing when stderr is not a TTY. */
function progressLine(): { update: (p: ImportProgress) => void; done: () => void } {
  const { stderr } = currentIo();
  if (!stderr.isTTY) return { update: () => undefined, done: () => undefined };
  const started = Date.now();
  let shown = false;
  const words: Record<ImportProgress['phase'], string> = {
    read: 'reading',
    validate: 'resolving $refs and validating',
    convert: 'converting operations',
    write: 'writing endpoints',
  };
  return {
    update: (p) => {
      const count = p.total ? ` ${p.done ?? 0}/${p.total}` : '';
      stderr.write(
        `\r\x1b[2KImporting: ${words[p.phase]}${count} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
      );
      shown = true;
    },
    done: () => {
      if (shown) stderr.write('\r\x1b[2K');
    },
  };
}

export async function importDocument(file: string, opts: ImportOptions): Promise<void> {
  const input =
    file === '-' ? { text: await readStdin('FILE', 'cat openapi.yaml | mockdev import -') } : { file };
  const progress = progressLine();
  const started = Date.now();
  let report: ImportReport;
  try {
    report = await importFile(
      cliContext(),
      {
        ...input,
        projectRef: opts.project,
        overwrite: opts.overwrite === true,
        replace: opts.replace === true,
        templates: opts.templates === true,
        strict: opts.strict === true,
        dryRun: opts.dryRun === true,
        format: parseImportFormat(opts.format),
        includeHost: opts.includeHost,
        all: opts.all === true,
        env: opts.env === true,
      },
      { onProgress: progress.update, say: CLI_WORDING },
    );
  } finally {
    progress.done();
  }
  for (const w of report.warnings) note(`warning: ${w.message}`);
  const unlisted = report.warningCount - report.warnings.length;
  if (unlisted > 0) note(`warning: … and ${unlisted} more not listed`);
  noteTemplates(report);
  if (opts.json) return printJson(report);
  for (const line of reportLines(report, opts.project === undefined, (Date.now() - started) / 1000))
    printLine(line);
  if (report.skipped.some((s) => s.existingId !== undefined))
    note(
      'Some operations already existed and were skipped; pass --overwrite to update them from the document (keeping what only mockdev has), or --replace to replace them whole.',
    );
}

/** On stderr: which imported texts hold {{ and are sent as written, or that templates were kept. */
function noteTemplates(report: ImportReport): void {
  if (report.templates === 'own-export')
    note(
      "note: mockdev's own export: its templates are kept as templates, but for those that read the environment (listed below, if any).",
    );
  if (report.literal.length === 0) return;
  const n = report.literal.length;
  const what = report.templates === 'own-export' ? 'a template reading the environment' : '{{';
  note(
    `note: ${n} endpoint${n === 1 ? ' holds' : 's hold'} ${what} in imported text, sent as written (not a template; pass --templates for a document you trust):`,
  );
  for (const l of report.literal.slice(0, 20))
    note(`  ${l.method.padEnd(7)} ${l.path}  ${l.parts.join(', ')}`);
  if (n > 20) note(`  … and ${n - 20} more (use --json for the full list)`);
}
