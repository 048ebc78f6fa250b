import { MockdevError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { Endpoint, Variation } from '../core/model/endpoint.js';
import type { Delay } from '../core/model/fields.js';
import { toRule, type Rule } from '../core/model/rules.js';
import type { InheritableField } from '../core/model/variation-response.js';
import type { AppContext } from './context.js';
import { applyEndpointPatch, mergeHeaders } from './endpoint-build.js';
import { findEndpointByRef, getEndpoint, withEndpoints } from './endpoints.js';
import { assertSomethingToChange, resolveProject, type ResolveOptions } from './projects.js';

/**
 * The variations of an endpoint (SPEC "response variations"): list, add, update, remove,
 * activate. A VARIATION reference is its id, or its name in any case. Every change goes
 * through applyEndpointPatch, so the endpoint's checks (unique names, valid rules, the active
 * variation exists) hold whichever adapter asks.
 */

/** What a caller gives for a variation; rules as CLI text (`query.page=2`) or stored objects. */
export interface VariationInput {
  name?: string;
  status?: number;
  /** The reason phrase sent with the status (may be a template); `""` removes it (update). */
  statusText?: string;
  /** Unset: the endpoint's body, at run time; `null` (update) goes back to it. */
  body?: string | null;
  /** Unset: the endpoint's content type, at run time; `null` (update) goes back to it. */
  contentType?: string | null;
  delay?: Delay;
  /** A fault (core/model/fault.ts); `null` (update) removes it. */
  fault?: string | null;
  /** The share of requests that get the fault; `null` (update) goes back to 1. */
  faultRate?: number | null;
  /** Set or replace headers (names case-insensitive); `null` removes one (update only). */
  headers?: Record<string, string | null>;
  /** Replaces the variation's rules; `[]` clears them. */
  rules?: (string | Rule)[];
  /** (update) Fields to take from the endpoint again: the variation's own are dropped. */
  inherit?: InheritableField[];
  /** false: its status text, body and headers are sent as written ({{ included); true: templates. */
  templating?: boolean;
}

export interface VariationList {
  endpoint: Endpoint;
  variations: Variation[];
  activeVariationId: string | null;
}

export function findVariationByRef(endpoint: Endpoint, ref: string): Variation {
  const wanted = ref.trim();
  const found =
    endpoint.variations.find((v) => v.id === wanted) ??
    endpoint.variations.find((v) => v.name.toLowerCase() === wanted.toLowerCase());
  if (!found) {
    const names = endpoint.variations.map((v) => v.name);
    throw new MockdevError('NOT_FOUND', `Variation "${wanted}" not found on endpoint "${endpoint.name}"`, {
      hint: names.length ? `Its variations: ${names.join(', ')}` : 'It has no variations',
      details: { variation: wanted, endpointId: endpoint.id },
    });
  }
  return found;
}

export async function listVariations(
  ctx: AppContext,
  projectRef: string,
  endpointRef: string,
  options?: ResolveOptions,
): Promise<VariationList> {
  const endpoint = await getEndpoint(ctx, projectRef, endpointRef, options);
  return { endpoint, variations: endpoint.variations, activeVariationId: endpoint.activeVariationId ?? null };
}

/** Changes one endpoint of a project with a serialised read-modify-write. */
async function changeEndpoint<T>(
  ctx: AppContext,
  projectRef: string,
  endpointRef: string,
  change: (endpoint: Endpoint) => { next: Endpoint; result: T },
  options?: ResolveOptions,
): Promise<T> {
  const target = await resolveProject(ctx, projectRef, options);
  return ctx.projects.update(target.key, (stored) => {
    const current = findEndpointByRef(stored, endpointRef);
    const { next, result } = change(current);
    return withEndpoints(
      stored,
      stored.endpoints.map((e) => (e.id === current.id ? next : e)),
      result,
    );
  });
}

function assertNameFree(endpoint: Endpoint, name: string, exceptId?: string): void {
  const clash = endpoint.variations.find(
    (v) => v.id !== exceptId && v.name.toLowerCase() === name.trim().toLowerCase(),
  );
  if (clash) {
    throw new MockdevError(
      'NAME_TAKEN',
      `Endpoint "${endpoint.name}" already has a variation named "${clash.name}"`,
      { hint: 'Choose another name, or update that variation' },
    );
  }
}

const withoutUndefined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/**
 * Adds a variation; unset fields: the endpoint's status (copied now), no delay, the standard
 * status text; the body, content type and headers it does not set are the endpoint's, at run
 * time (core/model/variation-response.ts).
 */
export async function addVariation(
  ctx: AppContext,
  projectRef: string,
  endpointRef: string,
  input: VariationInput & { name: string },
  options?: ResolveOptions,
): Promise<{ endpoint: Endpoint; variation: Variation }> {
  const rules = input.rules?.map(toRule);
  return changeEndpoint(
    ctx,
    projectRef,
    endpointRef,
    (endpoint) => {
      if (typeof input.name === 'string') assertNameFree(endpoint, input.name);
      const headers = input.headers
        ? Object.fromEntries(Object.entries(input.headers).filter(([, v]) => v !== null))
        : {};
      const raw = {
        id: newId(),
        name: input.name,
        status: input.status ?? endpoint.status,
        // Not the endpoint's: a status text goes with its own status.
        ...(input.statusText ? { statusText: input.statusText } : {}),
        headers,
        ...(typeof input.body === 'string' ? { body: input.body } : {}),
        ...(typeof input.contentType === 'string' ? { contentType: input.contentType } : {}),
        delay: input.delay ?? 0,
        ...(typeof input.fault === 'string' ? { fault: input.fault } : {}),
        ...(typeof input.faultRate === 'number' ? { faultRate: input.faultRate } : {}),
        ...(input.templating === false ? { templating: false } : {}),
        ...(rules?.length ? { rules } : {}),
      } as Variation;
      const next = applyEndpointPatch(endpoint, { variations: [...endpoint.variations, raw] });
      return { next, result: { endpoint: next, variation: next.variations[next.variations.length - 1]! } };
    },
    options,
  );
}

/** Changes the fields given; `rules` replaces the list (`[]` clears it). */
export async function updateVariation(
  ctx: AppContext,
  projectRef: string,
  endpointRef: string,
  variationRef: string,
  input: VariationInput,
  options?: ResolveOptions,
): Promise<{ endpoint: Endpoint; variation: Variation }> {
  assertSomethingToChange(input as Record<string, unknown>, [
    'name',
    'status',
    'statusText',
    'body',
    'contentType',
    'delay',
    'fault',
    'faultRate',
    'headers',
    'rules',
    'inherit',
    'templating',
  ]);
  for (const field of input.inherit ?? [])
    if (input[field] !== undefined && input[field] !== null)
      throw new MockdevError(
        'INVALID_ARGUMENT',
        `Give ${field} a value or inherit it from the endpoint, not both`,
      );
  const rules = input.rules?.map(toRule);
  return changeEndpoint(
    ctx,
    projectRef,
    endpointRef,
    (endpoint) => {
      const current = findVariationByRef(endpoint, variationRef);
      if (typeof input.name === 'string') assertNameFree(endpoint, input.name, current.id);
      const changed: Record<string, unknown> = {
        ...current,
        ...withoutUndefined({
          name: input.name,
          status: input.status,
          statusText: input.statusText, // "" is dropped when the endpoint is checked
          body: input.body,
          contentType: input.contentType,
          delay: input.delay,
          fault: input.fault,
          faultRate: input.faultRate,
          templating: input.templating, // true is dropped when the endpoint is checked
        }),
      };
      // null, or named in `inherit`: back to the endpoint's.
      if (input.body === null || input.inherit?.includes('body')) delete changed.body;
      if (input.contentType === null || input.inherit?.includes('contentType')) delete changed.contentType;
      if (input.inherit?.includes('headers')) changed.headers = {};
      if (input.fault === null) delete changed.fault;
      if (input.faultRate === null) delete changed.faultRate;
      if (input.headers) changed.headers = mergeHeaders(current, input.headers);
      if (rules !== undefined) {
        if (rules.length) changed.rules = rules;
        else delete changed.rules;
      }
      const next = applyEndpointPatch(endpoint, {
        variations: endpoint.variations.map((v) => (v.id === current.id ? (changed as Variation) : v)),
      });
      return {
        next,
        result: { endpoint: next, variation: next.variations.find((v) => v.id === current.id)! },
      };
    },
    options,
  );
}

/** Removes a variation; if it was the active one, the endpoint goes back to its mode. */
export async function removeVariation(
  ctx: AppContext,
  projectRef: string,
  endpointRef: string,
  variationRef: string,
  options?: ResolveOptions,
): Promise<{ endpoint: Endpoint; variation: Variation }> {
  return changeEndpoint(
    ctx,
    projectRef,
    endpointRef,
    (endpoint) => {
      const current = findVariationByRef(endpoint, variationRef);
      const next = applyEndpointPatch(endpoint, {
        variations: endpoint.variations.filter((v) => v.id !== current.id),
        ...(endpoint.activeVariationId === current.id ? { activeVariationId: null } : {}),
      });
      return { next, result: { endpoint: next, variation: current } };
    },
    options,
  );
}

/** Makes a variation answer every request; with none, back to selection by mode (rules). */
export async function activateVariation(
  ctx: AppContext,
  projectRef: string,
  endpointRef: string,
  variationRef: string | undefined,
  options?: ResolveOptions,
): Promise<{ endpoint: Endpoint; variation: Variation | null }> {
  return changeEndpoint(
    ctx,
    projectRef,
    endpointRef,
    (endpoint) => {
      const variation = variationRef === undefined ? null : findVariationByRef(endpoint, variationRef);
      const next =
        variation === null && endpoint.activeVariationId === undefined
          ? endpoint
          : applyEndpointPatch(endpoint, { activeVariationId: variation?.id ?? null });
      return { next, result: { endpoint: next, variation } };
    },
    options,
  );
}
