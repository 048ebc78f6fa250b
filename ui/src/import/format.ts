/** Pure helpers of the import and export screens (unit-tested in format.test.ts). */

/** The media type to send an OpenAPI document as: JSON when it parses as JSON, else YAML. */
export function documentType(text: string): 'application/json' | 'application/yaml' {
  try {
    JSON.parse(text);
    return 'application/json';
  } catch {
    return 'application/yaml';
  }
}

/** A JSON body pretty-printed (two spaces); anything else as it is, with `json: false`. */
export function formatBody(body: string): { text: string; json: boolean } {
  const trimmed = body.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return { text: JSON.stringify(JSON.parse(trimmed), null, 2), json: true };
    } catch {
      // not JSON after all
    }
  }
  return { text: body, json: false };
}

/** The methods whose body a cURL import keeps for reference (SPEC 4.5 rule 6). */
export const BODY_KEPT = ['POST', 'PUT', 'PATCH'];

/** A credential shown masked: its length hidden, only its last 4 characters when long enough. */
export function maskSecret(value: string): string {
  return value.length > 12 ? `********${value.slice(-4)}` : '********';
}

/** The file name a project's exported document is saved as. */
export function exportFileName(projectName: string, format: 'yaml' | 'json'): string {
  const printable = [...projectName].map((c) => (c.charCodeAt(0) < 32 ? '-' : c)).join('');
  const safe = printable.replace(/[\\/:*?"<>|]+/g, '-').trim() || 'project';
  return `${safe}.openapi.${format}`;
}

/** The query values of a cURL preview as rows (a repeated key gives one row per value). */
export function queryRows(query: Record<string, string | string[]>): [string, string][] {
  return Object.entries(query).flatMap(([k, v]) =>
    (Array.isArray(v) ? v : [v]).map((one): [string, string] => [k, one]),
  );
}
