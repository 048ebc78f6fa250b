import {
  clearRecordings,
  countRecordings,
  deleteRecording,
  listRecordings,
  recordingToMock,
} from '../../app/recordings.js';
import { toInt } from '../args.js';
import type { RecordingOptions } from '../commands/recording.js';
import { confirmDestructive } from '../confirm.js';
import { note, printJson, printLine, printTable } from '../output.js';
import { cliContext } from './context.js';

export async function list(ref: string, opts: RecordingOptions): Promise<void> {
  const { endpoint, recordings } = await listRecordings(cliContext(), ref, {
    limit: toInt(opts.limit, '--limit'),
  });
  if (opts.json) return printJson(recordings);
  printTable(
    recordings,
    [
      { header: 'ID', value: (r) => r.id },
      { header: 'TIME', value: (r) => r.timestamp },
      { header: 'METHOD', value: (r) => r.request.method },
      { header: 'PATH', value: (r) => r.request.path },
      { header: 'STATUS', value: (r) => r.response.status, align: 'right' },
      { header: 'MS', value: (r) => Math.round(r.durationMs), align: 'right' },
    ],
    endpoint.kind === 'proxy' && endpoint.proxy?.record
      ? `No recordings of "${endpoint.name}" yet: send it a request while its server runs.`
      : `No recordings of "${endpoint.name}". Turn recording on with: mockdev endpoint update <PROJECT> "${endpoint.name}" --record`,
  );
}

export async function remove(id: string): Promise<void> {
  await deleteRecording(cliContext(), id);
  printLine(`Deleted recording ${id}.`);
}

export async function clear(ref: string, opts: RecordingOptions): Promise<void> {
  if (!(await confirmDestructive(`Delete every recording of endpoint "${ref}"?`, opts.force))) {
    note('Nothing deleted.');
    return;
  }
  const { endpoint, deleted } = await clearRecordings(cliContext(), ref);
  printLine(`Deleted ${deleted} recording${deleted === 1 ? '' : 's'} of "${endpoint.name}".`);
}

export async function count(project: string, opts: RecordingOptions): Promise<void> {
  const result = await countRecordings(cliContext(), project);
  if (opts.json) return printJson(result);
  const rows = [
    ...result.endpoints.map((e) => ({
      id: e.id,
      name: e.name,
      route: `${e.method} ${e.path}`,
      count: e.count,
    })),
    { id: '', name: 'total', route: '', count: result.total },
  ];
  printTable(
    rows,
    [
      { header: 'NAME', value: (r) => r.name },
      { header: 'ID', value: (r) => r.id },
      { header: 'ROUTE', value: (r) => r.route },
      { header: 'RECORDINGS', value: (r) => r.count, align: 'right' },
    ],
    '',
  );
}

export async function toMock(id: string, opts: RecordingOptions): Promise<void> {
  const endpoint = await recordingToMock(cliContext(), id, {
    asVariation: opts.asVariation,
    name: opts.name,
  });
  if (opts.json) return printJson(endpoint);
  if (opts.asVariation) {
    const v = endpoint.variations[endpoint.variations.length - 1]!;
    return printLine(
      `Added variation "${v.name}" (${v.status}) to ${endpoint.method} ${endpoint.path} "${endpoint.name}"`,
    );
  }
  printLine(
    `Added ${endpoint.method} ${endpoint.path} -> ${endpoint.status} as "${endpoint.name}" (id ${endpoint.id})`,
  );
}
