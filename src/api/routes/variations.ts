import * as z from 'zod';
import {
  activateVariation,
  addVariation,
  listVariations,
  removeVariation,
  updateVariation,
  type VariationInput,
} from '../../app/variations.js';
import { EndpointSchema, TemplatingSchema, VariationSchema } from '../../core/model/endpoint.js';
import {
  ContentTypeSchema,
  DelaySchema,
  HeaderNameSchema,
  HeaderValueSchema,
  StatusSchema,
  StatusTextSchema,
} from '../../core/model/fields.js';
import { RuleObjectSchema } from '../../core/model/rules.js';
import { FaultRateSchema, FaultSchema } from '../../core/model/fault.js';
import {
  INHERITABLE_FIELDS,
  variationView,
  VariationViewSchema,
} from '../../core/model/variation-response.js';
import { described, docText } from '../../core/model/describe.js';
import { RULE_TEXT_DOC, VARIATION_INPUT_DOCS, VARIATION_PATCH_DOCS } from '../../core/model/descriptions.js';
import { CONTENT_BODY_LIMIT_BYTES } from '../../http/body.js';
import { defineRoute, type Route } from '../route.js';
import { ENDPOINT_PARAMS } from './endpoints.js';

const BASE = '/projects/{project}/endpoints/{endpoint}';
const VARIATION_PARAMS = { ...ENDPOINT_PARAMS, variation: 'Variation id, or its name URL-encoded' };

/** A rule as stored (`{ source, key, op, value? }`) or as the CLI writes it (`query.page=2`). */
const RuleInputSchema = z.union([RuleObjectSchema, z.string().describe(docText(RULE_TEXT_DOC, false))]);

/** The fields a caller may give, without the stored defaults (unset: the use case decides). */
const variationFields = z
  .object({
    status: StatusSchema,
    statusText: StatusTextSchema,
    body: z.string(),
    contentType: ContentTypeSchema,
    delay: DelaySchema,
    fault: FaultSchema,
    faultRate: FaultRateSchema,
    templating: TemplatingSchema.describe(
      'false: the status text, body and header values are sent as written ({{ included); true: templates render',
    ),
  })
  .partial()
  .extend({ rules: z.array(RuleInputSchema).optional() });

/** In the core's words (core/model/descriptions.ts); unset fields are the use case's. */
const VariationCreateSchema = described(
  variationFields.extend({
    name: VariationSchema.shape.name,
    headers: z.record(HeaderNameSchema, HeaderValueSchema).optional(),
  }),
  VARIATION_INPUT_DOCS,
);

const VariationPatchSchema = described(
  variationFields.extend({
    name: VariationSchema.shape.name.optional(),
    headers: z.record(HeaderNameSchema, HeaderValueSchema.nullable()).optional(),
    body: z.string().nullable().optional(),
    contentType: ContentTypeSchema.nullable().optional(),
    inherit: z.array(z.enum(INHERITABLE_FIELDS)).optional(),
    fault: FaultSchema.nullable().optional(),
    faultRate: FaultRateSchema.nullable().optional(),
  }),
  VARIATION_PATCH_DOCS,
);

const ActiveVariationSchema = z.object({
  variationId: z
    .string()
    .min(1)
    .nullable()
    .describe('The variation (id or name) that answers every request; null: back to selection by mode'),
});

export const variationRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: `${BASE}/variations`,
    tag: 'Variations',
    summary: 'An endpoint’s response variations (as `mockdev endpoint variation list --json`)',
    params: ENDPOINT_PARAMS,
    response: {
      schema: z.array(VariationViewSchema),
      description: 'The variations, in their order, each with the fields it inherits',
    },
    handle: async ({ ctx, params }) =>
      (await listVariations(ctx, params.project!, params.endpoint!)).variations.map(variationView),
  }),
  defineRoute<z.output<typeof VariationCreateSchema>>({
    method: 'POST',
    maxBodyBytes: CONTENT_BODY_LIMIT_BYTES,
    path: `${BASE}/variations`,
    tag: 'Variations',
    summary: 'Add a response variation (as `mockdev endpoint variation add`)',
    description:
      'Unset fields: the endpoint’s status (copied), no delay, no rules; the body, content type and headers it does not set are the endpoint’s at run time (its own headers are sent over the endpoint’s). Names are unique within the endpoint (409).',
    params: ENDPOINT_PARAMS,
    body: VariationCreateSchema,
    response: { status: 201, schema: VariationViewSchema, description: 'The variation created' },
    handle: async ({ ctx, params, body }) =>
      variationView(
        (
          await addVariation(
            ctx,
            params.project!,
            params.endpoint!,
            body as VariationInput & { name: string },
          )
        ).variation,
      ),
  }),
  defineRoute<z.output<typeof VariationPatchSchema>>({
    method: 'PATCH',
    maxBodyBytes: CONTENT_BODY_LIMIT_BYTES,
    path: `${BASE}/variations/{variation}`,
    tag: 'Variations',
    summary: 'Change a variation: only the fields given (as `mockdev endpoint variation update`)',
    params: VARIATION_PARAMS,
    body: VariationPatchSchema,
    response: { schema: VariationViewSchema, description: 'The variation as changed' },
    handle: async ({ ctx, params, body }) =>
      variationView(
        (
          await updateVariation(
            ctx,
            params.project!,
            params.endpoint!,
            params.variation!,
            body as VariationInput,
          )
        ).variation,
      ),
  }),
  defineRoute({
    method: 'DELETE',
    path: `${BASE}/variations/{variation}`,
    tag: 'Variations',
    summary: 'Remove a variation (as `mockdev endpoint variation remove -f`); if it was active, none is',
    params: VARIATION_PARAMS,
    response: { schema: VariationSchema, description: 'The variation removed' },
    handle: async ({ ctx, params }) =>
      (await removeVariation(ctx, params.project!, params.endpoint!, params.variation!)).variation,
  }),
  defineRoute<z.output<typeof ActiveVariationSchema>>({
    method: 'PUT',
    path: `${BASE}/active-variation`,
    tag: 'Variations',
    summary: 'Make a variation answer every request, or none (as `mockdev endpoint variation activate`)',
    params: ENDPOINT_PARAMS,
    body: ActiveVariationSchema,
    response: { schema: EndpointSchema, description: 'The endpoint, with its activeVariationId' },
    handle: async ({ ctx, params, body }) =>
      (await activateVariation(ctx, params.project!, params.endpoint!, body.variationId ?? undefined))
        .endpoint,
  }),
];
