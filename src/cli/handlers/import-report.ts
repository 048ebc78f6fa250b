import type { ImportReport } from '../../app/openapi.js';

function headline(report: ImportReport, isNew: boolean): string {
  const p = report.project;
  const from = report.format && report.format !== 'openapi' ? ` (${report.format})` : '';
  if (report.dryRun)
    return isNew
      ? `Dry run${from}, nothing written: would create project "${p.name}" (port ${p.port})`
      : `Dry run${from}, nothing written: would import into project "${p.name}" (id ${p.id})`;
  return isNew
    ? `Created project "${p.name}" (id ${p.id}, port ${p.port})${from}`
    : `Imported into project "${p.name}" (id ${p.id})${from}`;
}

/** The human report: a headline, then a row per endpoint, resource, approximate and skipped item (200 at most). */
export function reportLines(report: ImportReport, isNew: boolean, seconds: number): string[] {
  const updated = report.updated.length ? `${report.updated.length} updated, ` : '';
  const approximate = report.approximate?.length ? `${report.approximate.length} approximate, ` : '';
  const resources = report.resources?.length
    ? `${report.resources.length} resource${report.resources.length === 1 ? '' : 's'}, `
    : '';
  const lines = [
    `${headline(report, isNew)}: ` +
      `${report.created.length} created, ${updated}${report.replaced.length} replaced, ${resources}${approximate}${report.skipped.length} skipped` +
      `${report.warningCount ? `, ${report.warningCount} warning${report.warningCount === 1 ? '' : 's'}` : ''} in ${seconds.toFixed(1)} s`,
  ];
  const limit = 200;
  const rows = [
    ...report.created.map(
      (e) =>
        `  created   ${e.method.padEnd(7)} ${e.path}  "${e.name}" -> ${e.status}${e.variations.length ? ` (+${e.variations.length} variations)` : ''}`,
    ),
    ...report.updated.map((e) => {
      const kept = report.kept.find((k) => k.endpointId === e.id)?.items;
      return `  updated   ${e.method.padEnd(7)} ${e.path}  "${e.name}" (id ${e.id})${kept ? `; kept: ${kept.join(', ')}` : ''}`;
    }),
    ...report.replaced.map((e) => {
      const dropped = report.dropped.find((k) => k.endpointId === e.id)?.items;
      return `  replaced  ${e.method.padEnd(7)} ${e.path}  "${e.name}" (id ${e.id})${dropped ? `; dropped: ${dropped.join(', ')}` : ''}`;
    }),
    ...(report.resources ?? []).map((r) => `  resource  ${r.path}  "${r.name}" (${r.itemCount} items)`),
    ...(report.approximate ?? []).map((a) => `  approx    ${where(a)}${a.message}`),
    ...report.skipped.map((s) => `  skipped   ${where(s)}${s.reason}`),
  ];
  const env = report.environment;
  if (env)
    rows.push(`  environment "${env.name}" (${env.variableCount} variables)${env.id ? ` id ${env.id}` : ''}`);
  lines.push(...rows.slice(0, limit));
  if (rows.length > limit) lines.push(`  … and ${rows.length - limit} more (use --json for the full list)`);
  return lines;
}

/** Where a reported item is: method and path, and the source's name when it has one. */
function where(item: { method?: string; path?: string; name?: string }): string {
  const route = item.method || item.path ? `${(item.method ?? '').padEnd(7)} ${item.path ?? ''}  ` : '';
  return `${route}${item.name ? `"${item.name}": ` : ''}`;
}
