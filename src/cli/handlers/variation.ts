import { resolveProject } from '../../app/projects.js';
import { findEndpointByRef } from '../../app/endpoints.js';
import {
  activateVariation,
  addVariation,
  findVariationByRef,
  listVariations,
  removeVariation,
  updateVariation,
  type VariationInput,
} from '../../app/variations.js';
import { MockdevError } from '../../core/errors.js';
import { faultText, formatDelay } from '../../core/latency.js';
import { timingFields } from '../timing-options.js';
import type { Endpoint, Variation } from '../../core/model/endpoint.js';
import { variationJsonBodyWarning } from '../../core/model/json-body.js';
import { inheritedText, variationView, type InheritableField } from '../../core/model/variation-response.js';
import { formatRule } from '../../core/model/rules.js';
import { toHeaders, toInt } from '../args.js';
import type { VariationOptions } from '../commands/variation.js';
import { confirmDestructive } from '../confirm.js';
import { note, printJson, printLine, printTable, warnJsonBody } from '../output.js';
import { cliContext } from './context.js';

const rulesText = (v: Variation): string => (v.rules ?? []).map(formatRule).join(' and ');

/** `--inherit` words: body, content-type, headers. */
const INHERIT_WORDS: Record<string, InheritableField> = {
  body: 'body',
  'content-type': 'contentType',
  contenttype: 'contentType',
  headers: 'headers',
};

function toInheritable(word: string): InheritableField {
  const field = INHERIT_WORDS[word.trim().toLowerCase()];
  if (field) return field;
  throw new MockdevError(
    'INVALID_ARGUMENT',
    `Invalid --inherit "${word}": use body, content-type or headers`,
  );
}

/** The options given, as a use case's input: rules stay text, the core parses them. */
function inputFrom(opts: VariationOptions): VariationInput {
  if (opts.clearRules && opts.when?.length) {
    throw new MockdevError('INVALID_ARGUMENT', 'Give either --when or --clear-rules, not both');
  }
  let headers: Record<string, string | null> | undefined = toHeaders(opts.header);
  for (const raw of opts.removeHeader ?? []) {
    const name = raw.trim();
    if (headers && Object.keys(headers).some((k) => k.toLowerCase() === name.toLowerCase())) {
      throw new MockdevError(
        'INVALID_ARGUMENT',
        `Header "${name}" is both set (-H) and removed (--remove-header)`,
      );
    }
    headers = { ...headers, [name]: null };
  }
  const input: VariationInput = {
    inherit: opts.inherit?.map(toInheritable),
    name: opts.name,
    status: toInt(opts.status, '--status'),
    statusText: opts.statusText,
    body: opts.body,
    contentType: opts.contentType,
    ...timingFields(opts),
    templating: opts.templating,
    headers,
    rules: opts.clearRules ? [] : opts.when,
  };
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as VariationInput;
}

const label = (e: Endpoint) => `${e.method} ${e.path}`;

/** The endpoint's body, content type and header names, as a variation inheriting them gets them. */
function endpointFields(e: Endpoint): string {
  const body =
    e.body.length > 40
      ? `${JSON.stringify(e.body.slice(0, 40))}… (${e.body.length} characters)`
      : JSON.stringify(e.body);
  const headers = Object.keys(e.headers);
  return `body ${body}, content type ${e.contentType}, headers ${headers.length ? headers.join(', ') : '(none)'}`;
}

export async function list(project: string, ref: string, opts: VariationOptions): Promise<void> {
  const { endpoint, variations, activeVariationId } = await listVariations(cliContext(), project, ref);
  if (opts.json) return printJson(variations.map(variationView));
  printTable(
    variations,
    [
      { header: 'ID', value: (v) => v.id },
      { header: 'NAME', value: (v) => v.name },
      { header: 'STATUS', value: (v) => v.status, align: 'right' },
      { header: 'DELAY', value: (v) => formatDelay(v.delay), align: 'right' },
      { header: 'FAULT', value: (v) => (v.fault ? faultText(v) : '') },
      { header: 'ACTIVE', value: (v) => (v.id === activeVariationId ? 'yes' : '') },
      { header: 'INHERITED', value: (v) => inheritedText(v) },
      { header: 'RULES', value: (v) => rulesText(v) },
    ],
    `Endpoint "${endpoint.name}" has no variations. Add one with: mockdev endpoint variation add <PROJECT> <ENDPOINT> -n NAME`,
  );
  if (variations.length) {
    note(
      `Selection mode: ${endpoint.mode ?? 'rules'}${activeVariationId ? ' (overridden by the active variation)' : ''}`,
    );
    note(`Inherited from the endpoint: ${endpointFields(endpoint)}`);
  }
}

export async function add(project: string, ref: string, opts: VariationOptions): Promise<void> {
  const input = inputFrom(opts);
  const { endpoint, variation } = await addVariation(cliContext(), project, ref, {
    ...input,
    name: opts.name!,
  });
  warnJsonBody(variationJsonBodyWarning(endpoint, variation));
  if (opts.json) return printJson(variationView(variation));
  const rules = rulesText(variation);
  const inherits = inheritedText(variation);
  printLine(
    `Added variation "${variation.name}" (id ${variation.id}) -> ${variation.status} to ${label(endpoint)}${rules ? ` when ${rules}` : ''}${inherits ? `; the endpoint's ${inherits}` : ''}`,
  );
}

export async function update(
  project: string,
  ref: string,
  variationRef: string,
  opts: VariationOptions,
): Promise<void> {
  const input = inputFrom(opts);
  const { endpoint, variation } = await updateVariation(cliContext(), project, ref, variationRef, input);
  if ('body' in input || 'contentType' in input) warnJsonBody(variationJsonBodyWarning(endpoint, variation));
  if (opts.json) return printJson(variationView(variation));
  printLine(`Updated variation "${variation.name}" (id ${variation.id}) of ${label(endpoint)}`);
}

export async function remove(
  project: string,
  ref: string,
  variationRef: string,
  opts: VariationOptions,
): Promise<void> {
  const ctx = cliContext();
  const state = await resolveProject(ctx, project);
  const endpoint = findEndpointByRef(state, ref);
  const target = findVariationByRef(endpoint, variationRef);
  const ok = await confirmDestructive(`Remove variation "${target.name}" of ${label(endpoint)}?`, opts.force);
  if (!ok) return note('Cancelled; nothing was removed.');
  const { variation } = await removeVariation(ctx, state.location, endpoint.id, target.id);
  if (opts.json) return printJson(variation);
  printLine(`Removed variation "${variation.name}" (id ${variation.id}) of ${label(endpoint)}`);
}

export async function activate(
  project: string,
  ref: string,
  variationRef: string | undefined,
  opts: VariationOptions,
): Promise<void> {
  const { endpoint, variation } = await activateVariation(cliContext(), project, ref, variationRef);
  if (opts.json) return printJson(endpoint);
  if (variation) printLine(`Variation "${variation.name}" now answers every request to ${label(endpoint)}`);
  else printLine(`${label(endpoint)} answers by ${endpoint.mode ?? 'rules'} again (no active variation)`);
}
