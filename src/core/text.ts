/**
 * Telling text from binary data, and quoting a piece of text given by a user in a one-line
 * message: an error never carries raw bytes or control characters (a PNG given to `import`, a
 * paste of binary data as a cURL command). Pure.
 */

/** Well-known file signatures, so that the message can say what the file seems to be. */
const SIGNATURES: [number[], string][] = [
  [[0x89, 0x50, 0x4e, 0x47], 'a PNG image'],
  [[0xff, 0xd8, 0xff], 'a JPEG image'],
  [[0x47, 0x49, 0x46, 0x38], 'a GIF image'],
  [[0x25, 0x50, 0x44, 0x46], 'a PDF document'],
  [[0x50, 0x4b, 0x03, 0x04], 'a ZIP archive'],
  [[0x1f, 0x8b], 'a gzip archive'],
  [[0x7f, 0x45, 0x4c, 0x46], 'a program (ELF)'],
];

/** How much of a file is looked at: binary data shows itself in its first bytes. */
const SNIFF_BYTES = 8192;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000e-\u001f\u007f\ufffd]/;

/**
 * Why these bytes are not text (`it looks like a PNG image`, `it holds NUL bytes`, `it is not
 * UTF-8 text`), or null when they are: UTF-8 without NUL or other control characters than tab,
 * line breaks and form feed.
 */
export function notTextReason(bytes: Uint8Array): string | null {
  const known = SIGNATURES.find(([sig]) => sig.every((b, i) => bytes[i] === b));
  if (known) return `it looks like ${known[1]}`;
  const head = bytes.subarray(0, SNIFF_BYTES);
  const utf16 = utf16Reason(head);
  if (utf16) return utf16;
  if (head.includes(0)) return 'it holds NUL bytes (binary data)';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return 'it is not UTF-8 text';
  }
  return controlReason(new TextDecoder().decode(head));
}

/**
 * UTF-16 text (a byte-order mark, or ASCII with every other byte NUL, as Windows tools save it):
 * text, but not in the encoding mockdev reads, so the reason says how to convert it.
 */
function utf16Reason(head: Uint8Array): string | null {
  const bom = (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
  let alternating = head.length >= 8;
  for (let i = 0; alternating && i + 1 < head.length; i += 2)
    alternating = (head[i] === 0) !== (head[i + 1] === 0);
  if (!bom && !alternating) return null;
  return 'it is UTF-16 text; save it as UTF-8 (e.g. iconv -f UTF-16 -t UTF-8)';
}

/** Why a text is not text a person typed or pasted (control characters, NUL), or null. */
export function controlReason(text: string): string | null {
  const m = CONTROL.exec(text.length > SNIFF_BYTES ? text.slice(0, SNIFF_BYTES) : text);
  if (!m) return null;
  const c = m[0];
  if (c === '\u0000') return 'it holds NUL bytes (binary data)';
  if (c === '\ufffd') return 'it holds bytes that are not UTF-8 text';
  return `it holds the control character U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * A piece of a user's text as a message quotes it: in double quotes, control characters and
 * quotes escaped as JSON does, at most `max` characters (`…` after a cut).
 */
export function quoteText(text: string, max = 40): string {
  const cut = [...text];
  const shown = cut.length > max ? `${cut.slice(0, max).join('')}…` : text;
  return JSON.stringify(shown).replace(
    /[\u007f-\u009f\ufffd]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
