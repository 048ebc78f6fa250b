import { exportOpenApi } from '../../app/openapi.js';
import type { ExportOptions } from '../commands/export.js';
import { note, printText } from '../output.js';
import { cliContext } from './context.js';

export async function exportProject(project: string, opts: ExportOptions): Promise<void> {
  const toStdout = opts.output === undefined || opts.output === '-';
  const result = await exportOpenApi(cliContext(), project, {
    format: opts.format,
    openapiVersion: opts.openapi,
    output: toStdout ? undefined : opts.output,
  });
  if (toStdout) {
    printText(result.text);
    return;
  }
  note(
    `Wrote ${opts.output} (OpenAPI ${result.openapiVersion === '3.1' ? '3.1.0' : '3.0.3'}, ${result.format === 'json' ? 'JSON' : 'YAML'})`,
  );
}
