import { formatDate } from './dates.js';

/**
 * WireMock's dates: offsets (`'3 days'`, `'-24 seconds'`, `'1 years'`), formats (`epoch`: ms,
 * `unix`: seconds, Java-style tokens as formatDate reads them, default ISO 8601 without
 * milliseconds) and time zones (IANA names: `Australia/Sydney`, `UTC`).
 */

/** A Date rendered as ISO 8601 (WireMock renders dates so), e.g. as parseDate's output. */
export class IsoDate extends Date {
  override toString(): string {
    return this.toISOString().replace('.000Z', 'Z');
  }
}

const OFFSET = /^\s*([+-]?\d+)\s+(seconds?|minutes?|hours?|days?|weeks?|months?|years?)\s*$/i;
const MS: Record<string, number> = { second: 1e3, minute: 6e4, hour: 36e5, day: 864e5, week: 6048e5 };

/** `date` shifted by an offset like `'-3 days'`; a bad offset throws a one-line error. */
export function shift(date: Date, offset: unknown): Date {
  if (offset === undefined || offset === null || offset === '') return date;
  const m = OFFSET.exec(String(offset));
  if (!m)
    throw new Error(
      `offset ${JSON.stringify(String(offset))} is not "<number> <unit>" (seconds, minutes, hours, days, weeks, months, years), e.g. '-3 days'`,
    );
  const n = Number(m[1]);
  const unit = m[2]!.toLowerCase().replace(/s$/, '');
  const d = new Date(date.getTime());
  if (unit === 'month') d.setUTCMonth(d.getUTCMonth() + n);
  else if (unit === 'year') d.setUTCFullYear(d.getUTCFullYear() + n);
  else d.setTime(d.getTime() + n * MS[unit]!);
  return d;
}

/** Minutes east of UTC of a time zone at an instant. */
function zoneOffset(date: Date, zone: string): number {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    }).formatToParts(date);
  } catch {
    throw new Error(`timezone ${JSON.stringify(zone)} is not a time zone name (e.g. 'UTC', 'Europe/Paris')`);
  }
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  const local = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return Math.round((local - Math.floor(date.getTime() / 1000) * 1000) / 60000);
}

/** A date in WireMock's formats, in a time zone (UTC by default). */
export function formatWireMock(date: Date, format?: unknown, zone?: unknown): string {
  const f = typeof format === 'string' ? format : undefined;
  if (f === 'epoch') return String(date.getTime());
  if (f === 'unix') return String(Math.floor(date.getTime() / 1000));
  const minutes = typeof zone === 'string' && zone !== '' ? zoneOffset(date, zone) : 0;
  const local = new Date(date.getTime() + minutes * 60000);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
  if (f === undefined || f === '') {
    const iso = local.toISOString().replace(/\.\d{3}Z$/, '');
    return minutes === 0 ? `${iso}Z` : `${iso}${sign}${hhmm.slice(0, 2)}:${hhmm.slice(2)}`;
  }
  // Java's Z (+0100) and X (Z or +01): the zone's offset.
  return formatDate(local, f.replace(/'([^']*)'/g, '$1')).replace(/Z|X/g, (t) =>
    t === 'X' && minutes === 0 ? 'Z' : `${sign}${hhmm}`,
  );
}

/** Java-style format tokens to a regex over the text, and which field each group is. */
const FIELDS: Record<string, string> = {
  yyyy: 'y',
  YYYY: 'y',
  MM: 'M',
  dd: 'd',
  DD: 'd',
  HH: 'H',
  mm: 'm',
  ss: 's',
  SSS: 'S',
};

/** A date read from text: ISO 8601 / RFC 1123 by default, `epoch`, `unix`, or Java-style tokens. */
export function parseDateText(value: string, format?: unknown): IsoDate {
  const f = typeof format === 'string' && format !== '' ? format : undefined;
  let t = NaN;
  if (f === 'epoch' || f === 'unix') t = Number(value) * (f === 'unix' ? 1000 : 1);
  else if (f === undefined) t = Date.parse(value);
  else if (value.length <= 100 && f.length <= 100) {
    const order: string[] = [];
    const source = f
      .replace(/'([^']*)'/g, '$1')
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace(/yyyy|YYYY|SSS|MM|dd|DD|HH|mm|ss/g, (tok) => {
        order.push(FIELDS[tok]!);
        return tok.length === 4 ? '(\\d{4})' : tok === 'SSS' ? '(\\d{3})' : '(\\d{1,2})';
      });
    const m = new RegExp(`^${source}$`).exec(value);
    if (m) {
      const v: Record<string, number> = { y: 1970, M: 1, d: 1, H: 0, m: 0, s: 0, S: 0 };
      order.forEach((field, i) => (v[field] = Number(m[i + 1])));
      t = Date.UTC(v.y!, v.M! - 1, v.d!, v.H!, v.m!, v.s!, v.S!);
    }
  }
  if (!Number.isFinite(t))
    throw new Error(
      `parseDate: ${JSON.stringify(value.slice(0, 40))} is not a date${f ? ` in the format ${JSON.stringify(f)}` : ''}`,
    );
  return new IsoDate(t);
}
