import * as z from 'zod';
import { SECRET_MASK } from './credentials.js';
import { DEFAULT_MCP_PORT, DEFAULT_UI_PORT, DEFAULT_PROJECT_PORT, PortSchema } from './fields.js';

export const MCP_LOGGING_MODES = ['off', 'errors', 'all'] as const;

/** The mock server's request size limit by default: 10 MiB. */
export const DEFAULT_REQUEST_SIZE_LIMIT = 10 * 1024 * 1024;
/** The highest request size limit: 1 GiB (a body is held in memory whole). */
export const REQUEST_SIZE_LIMIT_MAX = 1024 * 1024 * 1024;

/** settings.json in the data directory. Unknown keys are kept out; missing keys take defaults. */
export const SettingsSchema = z.object({
  theme: z.enum(['system', 'light', 'dark']).default('system'),
  defaultPort: PortSchema.default(DEFAULT_PROJECT_PORT),
  mcpPort: PortSchema.default(DEFAULT_MCP_PORT),
  /** Port of `mockdev ui` when -p is not given. */
  uiPort: PortSchema.default(DEFAULT_UI_PORT),
  mcpAutoStart: z.boolean().default(false),
  mcpLoggingMode: z.enum(MCP_LOGGING_MODES).default('all'),
  confirmBeforeDelete: z.boolean().default(true),
  developerMode: z.boolean().default(false),
  /**
   * Whether errors may be reported. Nothing in mockdev reports errors yet: no data is sent even
   * when on. When something does, it sends only to `errorReportingUrl`, never elsewhere.
   */
  errorReporting: z.boolean().default(false),
  errorReportingUrl: z.string().nullable().default(null),
  /** Request-log retention per project (records); oldest unstarred dropped first. */
  requestLogLimit: z.number().int().min(1).default(10_000),
  /** Request and response bodies larger than this are stored truncated (the log's cap). */
  requestBodyLimitBytes: z
    .number()
    .int()
    .min(0)
    .default(1024 * 1024),
  /**
   * The largest request body the mock server takes: templates and rules see it whole; a larger
   * one is answered 413 (and logged). Apart from the log's cap above.
   */
  requestSizeLimitBytes: z
    .number()
    .int()
    .min(1)
    .max(REQUEST_SIZE_LIMIT_MAX)
    .default(DEFAULT_REQUEST_SIZE_LIMIT),
  /**
   * The ngrok auth token tunnels through ngrok use when NGROK_AUTHTOKEN is not set. A secret:
   * shown masked (maskSettings) by every adapter, never logged.
   */
  ngrokAuthtoken: z.string().nullable().default(null),
});
export type Settings = z.infer<typeof SettingsSchema>;

/** The settings as adapters show them: secrets (the ngrok auth token) masked. */
export const maskSettings = (s: Settings): Settings => ({
  ...s,
  ngrokAuthtoken: s.ngrokAuthtoken ? SECRET_MASK : null,
});

/** The two settings whose ports must differ: `mockdev mcp --http` and `mockdev ui` listen side by side. */
export type ServerPortSetting = 'mcpPort' | 'uiPort';

/** What each of those ports is, in words for people. */
export const SERVER_PORT_LABELS: Record<ServerPortSetting, string> = {
  mcpPort: "the MCP server's port",
  uiPort: "the web UI's port",
};

/**
 * A change that would give the MCP server the web UI's port (or the reverse): the setting
 * changed, the other one and the port; undefined when the change keeps them apart (or touches
 * neither: a settings file that already has them equal still loads and changes otherwise).
 */
export function serverPortClash(
  current: Pick<Settings, ServerPortSetting>,
  patch: Partial<Pick<Settings, ServerPortSetting>>,
): { setting: ServerPortSetting; other: ServerPortSetting; port: number } | undefined {
  if (patch.mcpPort === undefined && patch.uiPort === undefined) return undefined;
  const port = patch.mcpPort ?? current.mcpPort;
  if (port !== (patch.uiPort ?? current.uiPort)) return undefined;
  const setting: ServerPortSetting = patch.mcpPort !== undefined ? 'mcpPort' : 'uiPort';
  return { setting, other: setting === 'mcpPort' ? 'uiPort' : 'mcpPort', port };
}
