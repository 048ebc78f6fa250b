import { importCurl, previewCurl, type CurlPreview } from '../../app/curl.js';
import { MockdevError } from '../../core/errors.js';
import type { Auth } from '../../core/model/endpoint.js';
import type { CurlOptions } from '../commands/curl.js';
import { note, printJson, printLine, prettyBody } from '../output.js';
import { readStdin } from '../stdin.js';
import { cliContext } from './context.js';

const describeAuth = (auth: Auth | null): string => {
  if (!auth) return 'none';
  if (auth.type === 'basic')
    return `Basic (user "${auth.username}", password ${auth.password ? '*'.repeat(Math.min(8, auth.password.length)) : 'empty'})`;
  const t = auth.token;
  return `Bearer (token ${t.length > 12 ? `${t.slice(0, 8)}… ${t.length} characters` : t})`;
};

function printPreview(p: CurlPreview): void {
  printLine(`name:    ${p.name}`);
  printLine(`method:  ${p.method}`);
  printLine(`path:    ${p.path}`);
  printLine(`url:     ${p.url}`);
  const query = Object.entries(p.query);
  printLine(`query:${query.length ? '' : '   (none)'}`);
  for (const [k, v] of query) for (const value of Array.isArray(v) ? v : [v]) printLine(`  ${k}: ${value}`);
  const headers = Object.entries(p.headers);
  printLine(`headers:${headers.length ? '' : ' (none)'}`);
  for (const [k, v] of headers) printLine(`  ${k}: ${v}`);
  printLine(`auth:    ${describeAuth(p.auth)}`);
  if (p.body === null) printLine('body:    (none)');
  else {
    printLine('body:');
    printLine(prettyBody(p.body).replace(/^/gm, '  '));
  }
  for (const w of p.warnings) printLine(`warning: ${w}`);
}

export async function curl(text: string, opts: CurlOptions): Promise<void> {
  const input = text === '-' ? await readStdin('CURL_STRING', 'pbpaste | mockdev curl - -p my-api') : text;
  const ctx = cliContext();
  if (opts.preview) {
    const preview = await previewCurl(ctx, input, { projectRef: opts.project, name: opts.name });
    if (opts.json) return printJson(preview);
    return printPreview(preview);
  }
  if (opts.project === undefined) {
    throw new MockdevError('INVALID_ARGUMENT', 'Missing -p, --project', {
      hint: 'Say which project gets the endpoint, e.g. mockdev curl "curl https://api.example.com/users" -p my-api (or use --preview)',
    });
  }
  const { endpoint, warnings, literal } = await importCurl(ctx, opts.project, input, {
    name: opts.name,
    templates: opts.templates === true,
  });
  for (const w of warnings) note(`warning: ${w}`);
  if (literal.length)
    note(
      `note: the ${literal.join(', ')} holds {{ and is sent as written (not a template; pass --templates for a command you trust)`,
    );
  if (opts.json) return printJson(endpoint);
  printLine(
    `Added ${endpoint.method} ${endpoint.path} -> ${endpoint.status} as "${endpoint.name}" (id ${endpoint.id})`,
  );
}
