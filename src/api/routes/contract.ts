import * as z from 'zod';
import {
  contractStatus,
  getContract,
  importContract,
  setContractLive,
  validateContract,
} from '../../app/contract.js';
import {
  CONTRACT_MAX_BYTES,
  ContractCoverageSchema,
  ContractInfoSchema,
  ContractReportSchema,
} from '../../core/model/contract.js';
import { defineRoute, type Route } from '../route.js';
import { PROJECT_PARAM } from './projects.js';

/**
 * Contract testing, as `mockdev contract …` (docs/contract.md; Pro): the project's contract (an
 * OpenAPI document stored in its folder), importing it from a URL or as text, validating the
 * logged requests against it, their coverage of its operations, and live checking. The routes
 * only translate: every rule is the use cases' (app/contract.ts).
 */

const TAG = 'Contract';
const ONE = '/projects/{project}/contract';
const PRO = 'Without a Pro license: 403 `LICENSE_REQUIRED`.';

/** The admin API never reads a file by its path (DECISIONS "Trust and data"): another document only by URL. */
const SpecUrlSchema = z
  .string()
  .regex(/^https?:\/\/\S+$/i, 'must be an http(s) URL (the admin API reads no file by its path)')
  .describe(
    'Check against this document instead of the stored contract: an http(s) URL (fetched as `contract import` does)',
  );

const ImportSchema = z
  .object({
    url: z
      .string()
      .regex(/^https?:\/\/\S+$/i, 'must be an http(s) URL')
      .optional()
      .describe('Fetch the document from this http(s) URL (redirects followed, 30 s, 50 MiB)'),
    document: z
      .string()
      .min(1, 'must not be empty')
      .optional()
      .describe('The document itself, JSON or YAML text (an uploaded file)'),
  })
  .strict()
  .refine((b) => (b.url === undefined) !== (b.document === undefined), {
    message: 'send either url or document (one of them)',
  });

const ValidateSchema = z
  .object({
    limit: z
      .number({ error: 'must be a whole number of at least 1' })
      .int('must be a whole number of at least 1')
      .min(1, 'must be a whole number of at least 1')
      .optional()
      .describe('Only the last N logged requests (default: every retained one)'),
    spec: SpecUrlSchema.optional(),
  })
  .strict();

const StatusQuery = z.object({ spec: SpecUrlSchema.optional() });

const LiveSchema = z
  .object({
    live: z.boolean({ error: 'must be true or false' }).describe('true: check each request as it is logged'),
  })
  .strict();

export const contractRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: ONE,
    tag: TAG,
    summary: 'The project’s contract: source, version, operations, live checking (Pro)',
    description: `No contract imported yet: 404 \`NOT_FOUND\`, saying to import one. ${PRO}`,
    params: PROJECT_PARAM,
    response: { schema: ContractInfoSchema, description: 'The stored contract' },
    handle: ({ ctx, params }) => getContract(ctx, params.project!),
  }),
  defineRoute<z.output<typeof ImportSchema>>({
    method: 'POST',
    path: ONE,
    tag: TAG,
    // JSON escaping makes a document sent as a string longer than the document itself.
    maxBodyBytes: CONTRACT_MAX_BYTES * 2,
    summary: 'Import the project’s contract from a URL or as text (as `mockdev contract import`; Pro)',
    description: `\`{ url }\` fetches the document (redirects followed, 30 s, 50 MiB; each failure names the URL and the cause); \`{ document }\` takes its text (an uploaded file). It must be a valid Swagger 2.0 / OpenAPI 3.0 / 3.1 document: else 422 \`INVALID_INPUT\` naming the location of the first error. It replaces the project's contract, keeping the live setting. ${PRO}`,
    params: PROJECT_PARAM,
    body: ImportSchema,
    response: {
      status: 201,
      schema: z.object({
        contract: ContractInfoSchema,
        bytes: z.number().int().describe('The size of the document'),
      }),
      description: 'The contract as stored',
    },
    handle: async ({ ctx, params, body }) => {
      const r = await importContract(ctx, params.project!, { url: body.url, text: body.document });
      return { contract: r.contract, bytes: r.bytes };
    },
  }),
  defineRoute<z.output<typeof ValidateSchema> | undefined>({
    method: 'POST',
    path: `${ONE}/validate`,
    tag: TAG,
    summary: 'Check the logged requests against the contract (as `mockdev contract validate --json`; Pro)',
    description: `Each request and its response: the operation, parameters, request body, response status, headers, media type and body. Violations are an answer, not an error (200 either way). No stored contract and no \`spec\`: 400 \`INVALID_ARGUMENT\`, saying to import one. ${PRO}`,
    params: PROJECT_PARAM,
    body: ValidateSchema.optional(),
    response: { schema: ContractReportSchema, description: 'The report: counts and every violation' },
    handle: async ({ ctx, params, body }) =>
      (await validateContract(ctx, params.project!, { limit: body?.limit, spec: body?.spec })).report,
  }),
  defineRoute<unknown, z.output<typeof StatusQuery>>({
    method: 'GET',
    path: `${ONE}/status`,
    tag: TAG,
    summary:
      'Coverage of the contract’s operations by the logged requests (as `mockdev contract status --json`; Pro)',
    description: `Every operation with its request count, passed and failed; those never exercised; the requests that match none. ${PRO}`,
    params: PROJECT_PARAM,
    query: StatusQuery,
    response: { schema: ContractCoverageSchema, description: 'The coverage' },
    handle: ({ ctx, params, query }) => contractStatus(ctx, params.project!, { spec: query.spec }),
  }),
  defineRoute<z.output<typeof LiveSchema>>({
    method: 'PUT',
    path: `${ONE}/live`,
    tag: TAG,
    summary: 'Turn live checking on or off (as `mockdev contract live`; Pro)',
    description: `On: a plain \`serve\` of the project checks each request as it is logged, off the response path, and stores the verdict with it (\`contract\` of a request; the request list's \`violations=true\`). A server running now follows. Needs a stored contract (else 404 \`NOT_FOUND\`). ${PRO}`,
    params: PROJECT_PARAM,
    body: LiveSchema,
    response: { schema: ContractInfoSchema, description: 'The contract, with its live setting' },
    handle: ({ ctx, params, body }) => setContractLive(ctx, params.project!, body.live),
  }),
];
