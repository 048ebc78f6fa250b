import { MockdevError } from '../../core/errors.js';
import type { ConvertedImport, HarOptions, ImportNote } from '../converted.js';
import { mimeTypeOf } from './answer.js';
import { isStaticAsset } from './assets.js';
import { harEndpoints } from './endpoints.js';
import { harLog, readEntry, type HarEntry } from './read.js';

export { recognizeHar } from './read.js';

/**
 * HAR 1.2 (a browser's "Save all as HAR") into mockdev's endpoints (formats/converted.ts;
 * docs/import-har.md). One host is taken (`includeHost`, else the one with most entries; each
 * other host is one skipped note with its count), static assets are left out unless `all` (one
 * note with their count), and each method + path becomes one endpoint (endpoints.ts). Recorded
 * text is data: templates off.
 */
export function convertHar(doc: unknown, options: HarOptions = {}): ConvertedImport {
  const { entries, creator } = harLog(doc);
  const skipped: ImportNote[] = [];
  const approximate: ImportNote[] = [];
  const schemes = new Map<string, number>();
  const assets: string[] = [];
  const hosts = new Set<string>();
  const byHost = new Map<string, HarEntry[]>();
  entries.forEach((raw, i) => {
    const entry = readEntry(raw, i);
    if ('skip' in entry) skipped.push(entry.skip);
    else if ('scheme' in entry) schemes.set(entry.scheme, (schemes.get(entry.scheme) ?? 0) + 1);
    else {
      hosts.add(entry.url.host);
      if (!options.all && isStaticAsset(entry.url.pathname, mimeTypeOf(entry.response), entry.resourceType))
        assets.push(entry.url.pathname);
      else {
        const list = byHost.get(entry.url.host);
        if (list) list.push(entry);
        else byHost.set(entry.url.host, [entry]);
      }
    }
  });
  const taken = takenHosts(byHost, hosts, options.includeHost);
  for (const [host, list] of byHost)
    if (!taken.includes(host))
      skipped.push({
        name: host,
        message: `${list.length} ${list.length === 1 ? 'entry' : 'entries'} of host ${host} skipped: one host is imported (--include-host ${host} takes this one)`,
      });
  if (assets.length)
    skipped.push({
      message: `${assets.length} static asset(s) (images, scripts, styles, fonts) skipped, e.g. ${assets.slice(0, 3).join(', ')}: --all imports them`,
    });
  for (const [scheme, count] of schemes)
    skipped.push({
      message: `${count} ${scheme} entr${count === 1 ? 'y' : 'ies'} skipped: only http: and https: requests are answered`,
    });
  const endpoints = harEndpoints(
    taken.flatMap((h) => byHost.get(h) ?? []),
    approximate,
    skipped,
  );
  const title = options.includeHost ?? taken[0];
  return {
    format: 'har',
    ...(title ? { title } : {}),
    description: `Imported from a HAR${creator ? ` saved by ${creator}` : ''}`,
    endpoints,
    resources: [],
    approximate,
    skipped,
    variables: [],
    templates: false,
  };
}

/**
 * The hosts whose entries are imported: those `includeHost` names (with or without the port),
 * else the one with most entries (the first of those). A host no entry has is INVALID_ARGUMENT
 * naming the hosts there are.
 */
function takenHosts(
  byHost: Map<string, HarEntry[]>,
  hosts: Set<string>,
  includeHost: string | undefined,
): string[] {
  if (includeHost === undefined) {
    let best: string | undefined;
    for (const [host, list] of byHost)
      if (best === undefined || list.length > byHost.get(best)!.length) best = host;
    return best === undefined ? [] : [best];
  }
  const wanted = includeHost.trim().toLowerCase();
  const named = (host: string) => host === wanted || host.replace(/:\d+$/, '') === wanted;
  if (![...hosts].some(named)) {
    const there = [...hosts].map((h) => `${h} (${byHost.get(h)?.length ?? 0})`).join(', ');
    throw new MockdevError(
      'INVALID_ARGUMENT',
      `No entry of the HAR is for host "${includeHost}"; its hosts: ${there || 'none'}`,
      {
        hint: 'Give --include-host one of the hosts listed (entries counted without static assets)',
        details: { field: 'includeHost' },
      },
    );
  }
  return [...byHost.keys()].filter(named);
}
