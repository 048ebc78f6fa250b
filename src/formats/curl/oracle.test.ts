/**
 * Parsing quality: our cURL parser against curlconverter (a test-only oracle) on a corpus of
 * commands in every supported style. Every field where the two disagree must be listed in
 * EXPLAINED with the reason; anything else fails the test. The agreement figure is printed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toJsonObjectWarn } from 'curlconverter';
import { CORPUS } from '../../../test/fixtures/curl/corpus.js';
import { parseCurl, parseQueryString, type ParsedCurl } from './parse.js';

type Field = 'method' | 'path' | 'query' | 'headers' | 'body' | 'auth' | 'error';

/** Known, deliberate differences: command id -> field -> why. */
const EXPLAINED: Record<string, Partial<Record<Field, string>>> = {
  'unknown-flag': {
    error:
      'curlconverter refuses an unknown flag; mockdev ignores it with a warning (SPEC 4.5: warnings for unrecognised flags)',
  },
  'ansi-c-unicode': {
    body: "curlconverter turns $'\\xe2\\x9c\\x93' into three Latin-1 characters; bash (and mockdev) emit those bytes, which are UTF-8 for ✓",
  },
};

interface OracleJson {
  raw_url?: string;
  method?: string;
  headers?: Record<string, string | null>;
  data?: unknown;
  files?: Record<string, string>;
  auth?: { user: string; password: string };
}

const splitRaw = (raw: string): { path: string; query: string } => {
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)(?:\?([^#]*))?/i.exec(raw);
  return { path: m?.[1] || '/', query: m?.[2] ?? '' };
};

const lowerKeys = (h: Record<string, string | null> = {}): Record<string, string> =>
  Object.fromEntries(
    Object.entries(h)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k.toLowerCase(), v as string]),
  );

const tryJson = (s: string): unknown => {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
};

/** The body as comparable data: JSON parsed, form fields decoded, else the text. */
function oursBody(p: ParsedCurl): unknown {
  if (p.body === null) return undefined;
  if (p.multipart)
    return Object.fromEntries(
      p.body.split('&').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
    );
  const json = tryJson(p.body);
  if (json !== undefined && typeof json === 'object') return json;
  return p.body;
}

function theirsBody(o: OracleJson, ours: unknown): unknown {
  if (o.files) {
    const fields: Record<string, string> = {};
    for (const [k, v] of Object.entries((o.data as Record<string, string>) ?? {})) fields[k] = v;
    for (const [k, v] of Object.entries(o.files)) fields[k] = `@${v}`;
    return fields;
  }
  if (o.data === undefined) return undefined;
  if (typeof o.data === 'string') {
    const json = tryJson(o.data);
    return json !== undefined && typeof json === 'object' ? json : o.data;
  }
  // A form body curlconverter decoded into an object: compare with ours decoded the same way.
  if (typeof ours === 'string') return o.data;
  return o.data;
}

function compare(id: string, text: string, oracleText: string): Partial<Record<Field, string>> {
  const diffs: Partial<Record<Field, string>> = {};
  let ours: ParsedCurl | undefined;
  let theirs: OracleJson | undefined;
  let oursError: string | undefined;
  let theirsError: string | undefined;
  try {
    ours = parseCurl(text);
  } catch (e) {
    oursError = (e as Error).message;
  }
  try {
    theirs = toJsonObjectWarn(oracleText)[0] as OracleJson;
  } catch (e) {
    theirsError = (e as Error).message;
  }
  if (oursError || theirsError || !ours || !theirs) {
    if (oursError !== theirsError) diffs.error = `ours: ${oursError ?? 'ok'}; oracle: ${theirsError ?? 'ok'}`;
    return diffs;
  }
  const check = (field: Field, a: unknown, b: unknown) => {
    try {
      assert.deepStrictEqual(a, b);
    } catch {
      diffs[field] = `ours ${JSON.stringify(a)} vs oracle ${JSON.stringify(b)}`;
    }
  };
  const raw = splitRaw(theirs.raw_url ?? '');
  check('method', ours.method, (theirs.method ?? '').toUpperCase());
  check('path', ours.path, raw.path);
  check('query', ours.query, parseQueryString(raw.query));
  check('headers', lowerKeys(ours.headers), lowerKeys(theirs.headers ?? {}));
  const ob = oursBody(ours);
  let tb = theirsBody(theirs, ob);
  let obCmp = ob;
  if (typeof ob === 'string' && tb && typeof tb === 'object' && !Array.isArray(tb))
    obCmp = parseQueryString(ob);
  if (
    typeof tb === 'string' &&
    typeof ob === 'string' &&
    /application\/x-www-form-urlencoded/.test(lowerKeys(ours.headers)['content-type'] ?? '')
  ) {
    obCmp = parseQueryString(ob);
    tb = parseQueryString(tb);
  }
  check('body', obCmp, tb);
  const authHeader = lowerKeys(theirs.headers ?? {}).authorization;
  const theirAuth = theirs.auth
    ? { type: 'basic', username: theirs.auth.user, password: theirs.auth.password }
    : authHeader && /^Bearer /i.test(authHeader)
      ? { type: 'bearer', token: authHeader.replace(/^Bearer\s+/i, '') }
      : authHeader && /^Basic /i.test(authHeader)
        ? (() => {
            const d = Buffer.from(authHeader.replace(/^Basic\s+/i, ''), 'base64').toString('utf8');
            return {
              type: 'basic',
              username: d.slice(0, d.indexOf(':')),
              password: d.slice(d.indexOf(':') + 1),
            };
          })()
        : null;
  check('auth', ours.auth, theirAuth);
  void id;
  return diffs;
}

describe('cURL parser against curlconverter', () => {
  it(`has a corpus of at least 60 commands in every style`, () => {
    assert.ok(CORPUS.length >= 60, `corpus has ${CORPUS.length} commands`);
    const styles = new Set(CORPUS.map((e) => e.style));
    for (const s of ['typed', 'chrome-bash', 'firefox-bash', 'chrome-cmd', 'firefox-cmd', 'cmd'])
      assert.ok(styles.has(s as never), s);
    assert.equal(new Set(CORPUS.map((e) => e.id)).size, CORPUS.length, 'ids are unique');
  });

  it('agrees on every field, except the explained differences', (t) => {
    let agreeing = 0;
    const unexplained: string[] = [];
    const explainedSeen = new Set<string>();
    for (const entry of CORPUS) {
      const diffs = compare(entry.id, entry.cmd, entry.bash ?? entry.cmd);
      const fields = Object.keys(diffs) as Field[];
      if (fields.length === 0) agreeing++;
      for (const f of fields) {
        if (EXPLAINED[entry.id]?.[f]) explainedSeen.add(`${entry.id}.${f}`);
        else unexplained.push(`${entry.id} ${f}: ${diffs[f]}`);
      }
    }
    const explainedCount = Object.values(EXPLAINED).reduce((n, e) => n + Object.keys(e).length, 0);
    const pct = ((agreeing / CORPUS.length) * 100).toFixed(1);
    t.diagnostic(
      `cURL oracle agreement: ${agreeing}/${CORPUS.length} commands (${pct}%) agree on every field; ${explainedSeen.size} explained difference(s)`,
    );
    assert.deepEqual(unexplained, [], 'every disagreement is fixed or explained');
    assert.equal(
      explainedSeen.size,
      explainedCount,
      'every explanation is still needed (stale ones are removed)',
    );
  });

  it('cmd commands parse exactly like their bash twins', () => {
    for (const entry of CORPUS.filter((e) => e.bash)) {
      const a = parseCurl(entry.cmd);
      const b = parseCurl(entry.bash!);
      assert.deepEqual({ ...a, dialect: 'x', url: a.url }, { ...b, dialect: 'x', url: a.url }, entry.id);
      if (/\^\r?\n|\^"/.test(entry.cmd)) assert.equal(a.dialect, 'cmd', `${entry.id} is read as cmd`);
    }
  });
});
