import { importCurl, previewCurl, type CurlPreview } from '../../app/curl.js';
import { resolveProject } from '../../app/projects.js';
import { MockdevError } from '../../core/errors.js';
import type { Auth } from '../../core/model/endpoint.js';
import { uniqueName } from '../../core/naming.js';
import type { CurlOptions } from '../commands/curl.js';
import { note, printJson, printLine, prettyBody } from '../output.js';
import { cliContext } from './context.js';

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) {
    throw new MockdevError('INVALID_ARGUMENT', 'CURL_STRING is "-" but nothing is piped to stdin', {
      hint: 'Pipe the command in (pbpaste | mockdev curl - -p my-api) or pass it quoted as one argument',
    });
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

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
  const input = text === '-' ? await readStdin() : text;
  const ctx = cliContext();
  if (opts.preview) {
    const preview = previewCurl(input);
    if (opts.name !== undefined) preview.name = opts.name;
    if (opts.project !== undefined) {
      const state = await resolveProject(ctx, opts.project);
      preview.name = uniqueName(
        preview.name,
        state.endpoints.map((e) => e.name),
      );
    }
    if (opts.json) return printJson(preview);
    return printPreview(preview);
  }
  if (opts.project === undefined) {
    throw new MockdevError('INVALID_ARGUMENT', 'Missing -p, --project', {
      hint: 'Say which project gets the endpoint, e.g. mockdev curl "curl https://api.example.com/users" -p my-api (or use --preview)',
    });
  }
  const preview = previewCurl(input);
  const endpoint = await importCurl(ctx, opts.project, input, { name: opts.name });
  for (const w of preview.warnings) note(`warning: ${w}`);
  if (opts.json) return printJson(endpoint);
  printLine(
    `Added ${endpoint.method} ${endpoint.path} -> ${endpoint.status} as "${endpoint.name}" (id ${endpoint.id})`,
  );
}
