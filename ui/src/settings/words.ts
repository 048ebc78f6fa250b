import { ApiError } from '../api/client';

/**
 * A refused setting in the words of the screen: "Default port must be from 1024 to 65535", not
 * the API's "Invalid defaultPort 80: …" (which names the field as programs know it). The API's
 * problem says which field and the rule it broke (details.issues); `label` is how the screen
 * names the setting. Any other error is kept as it is.
 */
export function settingRefusal(error: unknown, key: string, label: string): unknown {
  if (!(error instanceof ApiError)) return error;
  const issues = (error.details as { issues?: { path?: unknown; message?: unknown }[] } | undefined)?.issues;
  const issue = Array.isArray(issues) ? issues.find((i) => i?.path === key) : undefined;
  if (typeof issue?.message !== 'string') return error;
  return new ApiError({
    title: error.title,
    status: error.status,
    code: error.code,
    details: error.details,
    detail: `${label.charAt(0).toUpperCase()}${label.slice(1)} ${issue.message}`,
  });
}
