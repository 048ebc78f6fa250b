import { readFile } from 'node:fs/promises';
import {
  addEndpoint,
  getEndpoint,
  listEndpoints,
  removeEndpoint,
  setEndpointEnabled,
  updateEndpoint,
} from '../../app/endpoints.js';
import { resolveProject } from '../../app/projects.js';
import { endpointSnippets } from '../../app/snippets.js';
import { findEndpointByRef } from '../../app/endpoints.js';
import { MockdevError } from '../../core/errors.js';
import { faultText, formatDelay } from '../../core/latency.js';
import { timingFields } from '../timing-options.js';
import type { Endpoint, EndpointPatch, Variation } from '../../core/model/endpoint.js';
import { jsonBodyWarning } from '../../core/model/json-body.js';
import { inheritedText } from '../../core/model/variation-response.js';
import { SNIPPET_LANGUAGES, type SnippetLanguage } from '../../core/snippets.js';
import { formatRule } from '../../core/model/rules.js';
import { toHeaders, toInt } from '../args.js';
import type { EndpointOptions } from '../commands/endpoint.js';
import { confirmDestructive } from '../confirm.js';
import { fromCwd } from '../io.js';
import {
  note,
  printFields,
  printJson,
  printLine,
  printTable,
  printText,
  prettyBody,
  warnJsonBody,
} from '../output.js';
import { cliContext } from './context.js';

export function printEndpointTable(endpoints: Endpoint[]): void {
  printTable(
    endpoints,
    [
      { header: 'ID', value: (e) => e.id },
      { header: 'METHOD', value: (e) => e.method },
      { header: 'PATH', value: (e) => e.path },
      { header: 'STATUS', value: (e) => e.status, align: 'right' },
      { header: 'ENABLED', value: (e) => (e.enabled ? 'yes' : 'no') },
      { header: 'KIND', value: (e) => e.kind },
      { header: 'NAME', value: (e) => e.name },
    ],
    'No endpoints. Add one with: mockdev endpoint add <PROJECT> -p /path',
  );
}

/** `; inherits body, content type` for a variation that takes fields from its endpoint. */
function inheritsNote(v: Variation): string {
  const fields = inheritedText(v);
  return fields ? `; inherits ${fields}` : '';
}

function printEndpoint(e: Endpoint): void {
  printFields([
    ['id', e.id],
    ['name', e.name],
    ['method', e.method],
    ['path', e.path],
    ['status', e.status],
    ...(e.statusText ? ([['status text', e.statusText]] as [string, unknown][]) : []),
    ['content type', e.contentType],
    ['delay', formatDelay(e.delay)],
    ...(e.fault ? [['fault', faultText(e)] as [string, string]] : []),
    ['enabled', e.enabled ? 'yes' : 'no'],
    ['kind', e.kind],
    ...(e.proxy
      ? ([
          [
            'proxy target',
            `${e.proxy.target}${e.proxy.record ? ' (recording)' : ''}${e.kind === 'proxy' ? '' : ' (kept, not used: the endpoint answers itself)'}`,
          ],
        ] as [string, unknown][])
      : []),
    [
      'variations',
      e.variations.length
        ? e.variations
            .map(
              (v) =>
                `${v.name} (${v.status}${v.statusText ? ` ${v.statusText}` : ''}${inheritsNote(v)})${v.rules?.length ? ` when ${v.rules.map(formatRule).join(' and ')}` : ''}${v.id === e.activeVariationId ? ' [active]' : ''}`,
            )
            .join(', ') + `; mode ${e.mode ?? 'rules'}`
        : '',
    ],
  ]);
  const headers = Object.entries(e.headers);
  if (headers.length) {
    printLine('headers:');
    for (const [k, v] of headers) printLine(`  ${k}: ${v}`);
  }
  printLine('body:');
  printLine(e.body ? prettyBody(e.body) : '(empty)');
}

async function bodyFrom(opts: EndpointOptions): Promise<string | undefined> {
  if (opts.body !== undefined && opts.bodyFile !== undefined) {
    throw new MockdevError('INVALID_ARGUMENT', 'Give either --body or --body-file, not both');
  }
  if (opts.bodyFile === undefined) return opts.body;
  try {
    return await readFile(fromCwd(opts.bodyFile), 'utf8');
  } catch (e) {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Cannot read --body-file "${opts.bodyFile}": ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      {
        hint: 'Check the path',
      },
    );
  }
}

/** `-H` sets a header, `--remove-header` removes one (null): the core merges them in. */
function headerChanges(opts: EndpointOptions): Record<string, string | null> | undefined {
  const set = toHeaders(opts.header);
  if (!opts.removeHeader?.length) return set;
  const changes: Record<string, string | null> = { ...set };
  for (const name of opts.removeHeader) {
    const key = name.trim();
    if (Object.keys(changes).some((k) => k.toLowerCase() === key.toLowerCase())) {
      throw new MockdevError(
        'INVALID_ARGUMENT',
        `Header "${key}" is both set (-H) and removed (--remove-header)`,
        {
          hint: 'Give it to one of the two options',
        },
      );
    }
    changes[key] = null;
  }
  return changes;
}

/**
 * The proxy options: `--proxy` makes the endpoint a proxy to that target; `--record`,
 * `--no-record` and `--proxy-timeout` change the settings of a proxy endpoint (or of one made
 * with `--proxy`); `--mock` (update only) makes it answer itself again, keeping its settings.
 * Only the settings given are sent: the use case merges them into the stored ones.
 */
function proxyFields(opts: EndpointOptions, current: Endpoint | undefined): EndpointPatch {
  const timeoutMs = toInt(opts.proxyTimeout, '--proxy-timeout');
  const proxyOption =
    opts.proxy !== undefined
      ? '--proxy'
      : opts.record !== undefined
        ? opts.record
          ? '--record'
          : '--no-record'
        : timeoutMs !== undefined
          ? '--proxy-timeout'
          : undefined;
  if (opts.mock) {
    if (proxyOption !== undefined)
      throw new MockdevError('INVALID_ARGUMENT', `--mock and ${proxyOption} contradict each other`, {
        hint: 'Give --mock to make the endpoint answer itself, or the proxy options to make it a proxy',
      });
    return { kind: 'mock' };
  }
  if (proxyOption === undefined) return {};
  if (opts.proxy === undefined && current?.kind !== 'proxy') {
    throw new MockdevError('INVALID_ARGUMENT', `${proxyOption} applies to proxy endpoints only`, {
      hint: 'Give --proxy <URL> to make the endpoint a proxy, e.g. --proxy https://api.example.com',
    });
  }
  const proxy = {
    ...(opts.proxy !== undefined ? { target: opts.proxy } : {}),
    ...(opts.record !== undefined ? { record: opts.record } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  };
  return opts.proxy !== undefined ? { kind: 'proxy', proxy } : { proxy };
}

/** Only the options given on the command line: the rest stays unset (defaults or unchanged). */
async function fieldsFrom(opts: EndpointOptions, current?: Endpoint): Promise<EndpointPatch> {
  const body = await bodyFrom(opts);
  const fields: Record<string, unknown> = {
    name: opts.name,
    path: opts.path,
    method: opts.method,
    status: toInt(opts.status, '--status'),
    statusText: opts.statusText,
    body,
    ...timingFields(opts),
    contentType: opts.contentType,
    templating: opts.templating,
    headers: headerChanges(opts),
    mode: opts.mode,
    ...proxyFields(opts, current),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as EndpointPatch;
}

/** `endpoint list` and `list endpoints`: with no project, the project in the current folder. */
export async function list(
  project: string | undefined,
  opts: EndpointOptions,
  command = 'endpoint list',
): Promise<void> {
  const endpoints = await listEndpoints(cliContext(), project, { enabledOnly: opts.enabledOnly, command });
  if (opts.json) return printJson(endpoints);
  if (opts.enabledOnly && endpoints.length === 0)
    return printLine('No enabled endpoints. Drop --enabled-only to see the disabled ones.');
  printEndpointTable(endpoints);
}

export async function add(project: string, opts: EndpointOptions): Promise<void> {
  if (opts.path === undefined) {
    throw new MockdevError('INVALID_ARGUMENT', 'Missing --path', {
      hint: 'Example: mockdev endpoint add my-api -p /api/orders',
    });
  }
  const fields = await fieldsFrom(opts);
  const endpoint = await addEndpoint(cliContext(), project, {
    ...(fields as Record<string, unknown>),
    path: opts.path,
    enabled: !opts.disabled,
  } as Parameters<typeof addEndpoint>[2]);
  warnJsonBody(jsonBodyWarning(endpoint));
  if (opts.json) return printJson(endpoint);
  printLine(
    endpoint.kind === 'proxy'
      ? `Added ${endpoint.method} ${endpoint.path} -> proxy to ${endpoint.proxy!.target}${endpoint.proxy!.record ? ' (recording)' : ''} as "${endpoint.name}" (id ${endpoint.id})`
      : `Added ${endpoint.method} ${endpoint.path} -> ${endpoint.status} as "${endpoint.name}" (id ${endpoint.id})`,
  );
}

export async function show(project: string, ref: string, opts: EndpointOptions): Promise<void> {
  const endpoint = await getEndpoint(cliContext(), project, ref);
  if (opts.json) return printJson(endpoint);
  printEndpoint(endpoint);
}

export async function update(project: string, ref: string, opts: EndpointOptions): Promise<void> {
  const ctx = cliContext();
  // Whether --record / --proxy-timeout fit (a proxy endpoint) needs the endpoint as it is.
  const settingsOnly =
    opts.proxy === undefined && (opts.record !== undefined || opts.proxyTimeout !== undefined);
  const current = settingsOnly ? await getEndpoint(ctx, project, ref) : undefined;
  const patch = await fieldsFrom(opts, current);
  // The app's message names the fields of the patch (statusText, contentType, …): here, options.
  if (Object.keys(patch).length === 0) {
    throw new MockdevError('INVALID_ARGUMENT', 'Nothing to update', {
      hint: 'Pass at least one option, e.g. -s 404 or --status-text "Gone"; run "mockdev endpoint update --help" for all of them',
    });
  }
  const endpoint = await updateEndpoint(ctx, project, ref, patch);
  if ('body' in patch || 'contentType' in patch) warnJsonBody(jsonBodyWarning(endpoint));
  if (opts.json) return printJson(endpoint);
  printLine(`Updated ${endpoint.method} ${endpoint.path} "${endpoint.name}" (id ${endpoint.id})`);
}

export async function remove(project: string, ref: string, opts: EndpointOptions): Promise<void> {
  const ctx = cliContext();
  const state = await resolveProject(ctx, project);
  const target = findEndpointByRef(state, ref);
  const ok = await confirmDestructive(
    `Remove endpoint "${target.name}" (${target.method} ${target.path})?`,
    opts.force,
  );
  if (!ok) return note('Cancelled; nothing was removed.');
  const endpoint = await removeEndpoint(ctx, state.location, target.id);
  if (opts.json) return printJson(endpoint);
  printLine(`Removed ${endpoint.method} ${endpoint.path} "${endpoint.name}" (id ${endpoint.id})`);
}

export async function setEnabled(
  project: string,
  ref: string,
  enabled: boolean,
  opts: EndpointOptions,
): Promise<void> {
  const endpoint = await setEndpointEnabled(cliContext(), project, ref, enabled);
  if (opts.json) return printJson(endpoint);
  printLine(`${enabled ? 'Enabled' : 'Disabled'} ${endpoint.method} ${endpoint.path} "${endpoint.name}"`);
}

/** `endpoint code`: the snippet of one language, as the admin API's …/snippets answers it. */
export async function code(project: string, ref: string, opts: { lang: string }): Promise<void> {
  const lang = opts.lang.trim().toLowerCase();
  if (!(SNIPPET_LANGUAGES as readonly string[]).includes(lang)) {
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `Invalid --lang "${opts.lang}": use ${SNIPPET_LANGUAGES.join(', ')}`,
      {
        details: { field: 'lang', value: opts.lang },
      },
    );
  }
  const { snippets } = await endpointSnippets(cliContext(), project, ref);
  printText(snippets[lang as SnippetLanguage]);
}
