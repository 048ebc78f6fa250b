/**
 * What a secret may look like once a template or an error has written it: as given,
 * JSON-escaped, upper- and lower-cased, URL-encoded; and the 8-character pieces of each, which
 * no log line or error message may hold either.
 */
export function secretForms(value: string): string[] {
  return [
    ...new Set([
      value,
      JSON.stringify(value).slice(1, -1),
      value.toUpperCase(),
      value.toLowerCase(),
      encodeURIComponent(value),
    ]),
  ];
}

/** Every 8 characters of each form of the values. */
export function secretPieces(...values: string[]): string[] {
  const out = new Set<string>();
  for (const form of values.flatMap(secretForms))
    for (let i = 0; i + 8 <= form.length; i++) out.add(form.slice(i, i + 8));
  return [...out];
}

/** The pieces of the values a text holds (none, when it keeps them secret). */
export const leakedPieces = (text: string, ...values: string[]): string[] =>
  secretPieces(...values).filter((p) => text.includes(p));
