/** Dates in templates: `{{now 'yyyy-MM-dd'}}`, offsets in units (`{{now days=1}}`). */

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * A date in a format: `iso` (default), `unix` (seconds), `ms`, or tokens YYYY/yyyy, MM, DD/dd,
 * HH, mm, ss, SSS (UTC); anything else in the format is kept as is.
 */
export function formatDate(d: Date, format = 'iso'): string {
  if (format === 'iso' || format === '') return d.toISOString();
  if (format === 'unix' || format === 'X') return String(Math.floor(d.getTime() / 1000));
  if (format === 'ms' || format === 'x') return String(d.getTime());
  // Text in single quotes is kept as is (`''` is a quote), as in date-fns and Java.
  return format.replace(/'(?:[^']|'')*'|YYYY|yyyy|SSS|MM|DD|dd|HH|mm|ss/g, (t) => {
    if (t.startsWith("'")) return t.length === 2 ? "'" : t.slice(1, -1).replace(/''/g, "'");
    switch (t) {
      case 'YYYY':
      case 'yyyy':
        return String(d.getUTCFullYear());
      case 'MM':
        return pad(d.getUTCMonth() + 1);
      case 'DD':
      case 'dd':
        return pad(d.getUTCDate());
      case 'HH':
        return pad(d.getUTCHours());
      case 'mm':
        return pad(d.getUTCMinutes());
      case 'ss':
        return pad(d.getUTCSeconds());
      default:
        return pad(d.getUTCMilliseconds(), 3);
    }
  });
}

export const UNITS: Record<string, number> = {
  seconds: 1000,
  minutes: 60_000,
  hours: 3_600_000,
  days: 86_400_000,
  weeks: 604_800_000,
};
