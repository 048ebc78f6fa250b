/** The page a confirmation link opens: what happened, and what to run next. */
import type { Confirmation } from './desk.js';

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

function words(c: Confirmation): { title: string; lines: string[] } {
  const next = (email: string) =>
    `Now run: mockdev license check ${email} (or press Check on the License screen).`;
  switch (c.outcome) {
    case 'confirmed':
      return {
        title:
          c.kind === 'trial'
            ? 'Your trial of mockdev Pro is confirmed'
            : 'Your mockdev Pro activation is confirmed',
        lines: [
          c.exp === null
            ? `Pro for ${c.email}, without an end date.`
            : `Pro for ${c.email}, until ${new Date(c.exp * 1000).toISOString().slice(0, 10)}.`,
          next(c.email),
        ],
      };
    case 'already':
      return { title: 'Already confirmed', lines: ['This link was opened before.', next(c.email)] };
    case 'expired':
      return {
        title: 'This link expired',
        lines: ['Links are valid for a day. Ask again with mockdev license activate-email (or trial).'],
      };
    case 'had-trial':
      return {
        title: 'This address had its trial',
        lines: [`There is one trial per e-mail address; ${c.email} had it.`],
      };
    case 'no-license':
      return {
        title: 'No license for this address',
        lines: [`No active mockdev Pro license belongs to ${c.email} any more.`],
      };
    case 'unknown':
      return {
        title: 'This link is not valid',
        lines: [
          'Copy the whole link from the e-mail, or ask again: it may have been replaced by a newer one.',
        ],
      };
  }
}

export function confirmationPage(c: Confirmation): string {
  const { title, lines } = words(c);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)} · mockdev</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1b1f24;background:#fff}code{background:#eef1f4;padding:0 .2em}</style></head>
<body><main><h1>${escape(title)}</h1>
${lines.map((l) => `<p>${escape(l)}</p>`).join('\n')}
</main></body>
</html>
`;
}
