import * as z from 'zod';
import { sensitive } from '../validate.js';
import { PortSchema } from './fields.js';
import { MCP_LOGGING_MODES, REQUEST_SIZE_LIMIT_MAX } from './settings.js';

// A change to the settings, as `settings set` and the admin API take it. Apart from settings.ts
// (settings.json, which every command reads) so that a mock server does not build it at start.

/** The themes, in the order messages list them. */
export const THEMES = ['light', 'dark', 'system'] as const;

const oneOf = (values: readonly string[]) => ({ error: `must be one of ${values.join(', ')}` });
const flag = () => z.boolean(oneOf(['true', 'false']));
const atLeast = (min: number) =>
  z
    .number({ error: `must be a whole number of at least ${min}` })
    .int(`must be a whole number of at least ${min}`)
    .min(min, `must be a whole number of at least ${min}`);

const isHttpUrl = (value: string): boolean => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

const PATCH_FIELDS = {
  theme: z.enum(THEMES, oneOf(THEMES)).optional().describe('Used by the desktop UI'),
  defaultPort: PortSchema.optional().describe('Port of new projects'),
  mcpPort: PortSchema.optional().describe('Port of `mockdev mcp --http`'),
  uiPort: PortSchema.optional().describe('Port of `mockdev ui` when -p is not given'),
  mcpAutoStart: flag().optional(),
  mcpLoggingMode: z.enum(MCP_LOGGING_MODES, oneOf(MCP_LOGGING_MODES)).optional(),
  confirmBeforeDelete: flag().optional(),
  developerMode: flag().optional(),
  errorReporting: flag().optional().describe('Nothing is reported today'),
  errorReportingUrl: z
    .string()
    .trim()
    .refine(isHttpUrl, 'must be an http or https URL, or none (null)')
    .nullable()
    .optional()
    .describe('null: none'),
  requestLogLimit: atLeast(1).optional().describe('Logged requests kept per project'),
  requestBodyLimitBytes: atLeast(0)
    .optional()
    .describe('Logged request and response bodies larger than this are stored truncated'),
  requestSizeLimitBytes: atLeast(1)
    .max(REQUEST_SIZE_LIMIT_MAX, `must be at most ${REQUEST_SIZE_LIMIT_MAX} (1 GiB)`)
    .optional()
    .describe('The largest request body a mock server takes (413 beyond); from its next start'),
  ngrokAuthtoken: sensitive(
    z
      .string()
      .trim()
      .min(1, 'must not be empty (null clears it)')
      .refine((v) => !/\s/.test(v), 'must be one word, without spaces'),
  )
    .nullable()
    .optional()
    .describe('The ngrok auth token (a secret: shown masked); null clears it'),
};

/**
 * A change to the settings (`settings update`, PATCH /api/v1/settings): the settings given,
 * each checked; an unknown name is refused with the known ones.
 */
export const SettingsPatchSchema = z.strictObject(PATCH_FIELDS, {
  error: (issue) =>
    issue.code === 'unrecognized_keys'
      ? `unknown setting ${issue.keys.map((k) => `"${k}"`).join(', ')}: the settings are ${Object.keys(PATCH_FIELDS).join(', ')}`
      : undefined,
});
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;
