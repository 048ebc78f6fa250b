import { MockdevError } from '../../core/errors.js';
import { maskCredentialsInText } from '../../core/model/credentials.js';
import { controlReason, quoteText } from '../../core/text.js';
import type { Auth } from '../../core/model/endpoint.js';
import { LONG_FLAGS, SHORT_FLAGS, type Action, type FlagSpec } from './options.js';
import { describeOffset, tokenize, type Dialect, type Token } from './tokenize.js';

/** What a cURL command asks for, as mockdev understands it (DECISIONS "cURL preview"). */
export interface ParsedCurl {
  method: string;
  /** The absolute URL requested (with `-G` data in its query string). */
  url: string;
  /** The URL path as written (percent-encoding kept), `/` when the URL has none. */
  path: string;
  /** Query parameters, decoded; a repeated key gives an array. */
  query: Record<string, string | string[]>;
  /** Headers keyed by the name as first written. */
  headers: Record<string, string>;
  body: string | null;
  auth: Auth | null;
  /** One per unrecognised flag or ignored part of the command. */
  warnings: string[];
  dialect: Dialect;
  /** The body came from -F/--form (multipart); kept as name=value pairs joined by '&'. */
  multipart: boolean;
}

/** An error about the command; what it quotes of the command shows no credential. */
const fail = (message: string, hint: string, details?: Record<string, unknown>): MockdevError =>
  new MockdevError('INVALID_INPUT', maskCredentialsInText(message), {
    hint,
    details:
      details &&
      Object.fromEntries(
        Object.entries(details).map(([k, v]) => [k, typeof v === 'string' ? maskCredentialsInText(v) : v]),
      ),
  });

const EXAMPLE =
  'curl -X POST https://api.example.com/users -H \'Content-Type: application/json\' -d \'{"name":"Ada"}\'';

const VALUE_EXAMPLES: Partial<Record<Action, string>> = {
  request: '-X POST',
  header: "-H 'Accept: application/json'",
  data: "-d 'name=Ada'",
  'data-raw': '--data-raw \'{"a":1}\'',
  'data-binary': '--data-binary \'{"a":1}\'',
  'data-urlencode': "--data-urlencode 'q=hello world'",
  json: '--json \'{"a":1}\'',
  form: "-F 'name=Ada'",
  user: '-u user:password',
  cookie: "-b 'session=abc'",
  url: '--url https://api.example.com/users',
  'upload-file': '-T file.txt',
  'oauth2-bearer': '--oauth2-bearer TOKEN',
};

function flagLabel(spec: FlagSpec, written: string): string {
  const short = [...SHORT_FLAGS.entries()].find(([, s]) => s === spec)?.[0];
  const long = `--${spec.long}`;
  if (written === long || !short) return long;
  return `-${short} (${long})`;
}

/** Percent-encodes everything but A-Z a-z 0-9 - . _ ~ (curl_easy_escape). */
const curlEscape = (s: string): string =>
  Array.from(new TextEncoder().encode(s))
    .map((b) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/** curl (since 7.77) writes spaces in --data-urlencode values as '+', as forms do. */
const formEscape = (s: string): string => curlEscape(s).replace(/%20/g, '+');

function urlencodeData(value: string): string {
  if (value.startsWith('@')) return value; // file content: curl reads it; kept as a reference
  const eq = value.indexOf('=');
  const at = value.indexOf('@');
  if (eq === 0) return formEscape(value.slice(1));
  if (eq > 0) return `${value.slice(0, eq)}=${formEscape(value.slice(eq + 1))}`;
  if (at > 0) return value; // name@file
  return formEscape(value);
}

const safeDecode = (s: string): string => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
};

/** `a=1&a=2&b` -> { a: ['1','2'], b: '' } */
export function parseQueryString(qs: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const part of qs.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = safeDecode(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? '' : safeDecode(part.slice(eq + 1));
    const prev = out[key];
    if (prev === undefined) out[key] = value;
    else out[key] = Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

interface SplitUrl {
  url: string;
  path: string;
  query: string;
  userinfo: string | null;
}

const URL_RE = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?(?:#.*)?$/;

function splitUrl(raw: string, offsetText: string): SplitUrl {
  if (/\s/.test(raw)) {
    throw fail(
      `The URL "${raw}"${offsetText} contains whitespace`,
      'Check the quotes around the URL, and write spaces in it as %20',
      { url: raw },
    );
  }
  const withScheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(raw) ? raw : `http://${raw}`;
  const m = URL_RE.exec(withScheme);
  const host = m?.[2]?.replace(/^.*@/, '') ?? '';
  if (!m || host === '') {
    throw fail(
      `The URL "${raw}"${offsetText} has no host`,
      'Give a full URL such as https://api.example.com/users',
      { url: raw },
    );
  }
  const authority = m[2]!;
  const at = authority.lastIndexOf('@');
  const path = m[3] || '/';
  const query = m[4] ?? '';
  const base = `${m[1]!.toLowerCase()}://${authority.slice(at + 1)}${path}`;
  return {
    url: query ? `${base}?${query}` : base,
    path,
    query,
    userinfo: at >= 0 ? authority.slice(0, at) : null,
  };
}

function authFromHeader(value: string): Auth | null {
  const bearer = /^\s*Bearer\s+(.+?)\s*$/i.exec(value);
  if (bearer) return { type: 'bearer', token: bearer[1]! };
  const basic = /^\s*Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(value);
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon >= 0)
      return { type: 'basic', username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  return null;
}

const userToAuth = (value: string): Auth => {
  const colon = value.indexOf(':');
  return colon < 0
    ? { type: 'basic', username: value, password: '' }
    : { type: 'basic', username: value.slice(0, colon), password: value.slice(colon + 1) };
};

const isCurl = (word: string): boolean => /(^|[/\\])curl(\.exe)?$/i.test(word);

interface DataPart {
  kind: 'data' | 'json';
  value: string;
}

/**
 * Parses a cURL command (bash or cmd flavour, as typed or as copied from a browser).
 * Throws INVALID_INPUT with what is wrong, where, and how to fix it.
 */
export function parseCurl(text: string): ParsedCurl {
  const source = text.replace(/^\uFEFF/, '');
  if (source.trim() === '') {
    throw fail('The cURL command is empty', `Paste a command such as: ${EXAMPLE}`);
  }
  const binary = controlReason(source);
  if (binary) throw fail(`The cURL command is not text: ${binary}`, `Paste a command such as: ${EXAMPLE}`);
  const { tokens: all, dialect, notes } = tokenize(source);
  let tokens = all;
  while (tokens.length && (tokens[0]!.value === '$' || tokens[0]!.value === '>' || tokens[0]!.value === '%'))
    tokens = tokens.slice(1);
  const first = tokens[0];
  if (!first) throw fail('The cURL command is empty', `Paste a command such as: ${EXAMPLE}`);
  if (!isCurl(first.value)) {
    throw fail(
      `Not a cURL command: it starts with ${quoteText(first.value, 30)} at ${describeOffset(source, first.offset)}`,
      `Paste a command that starts with curl, e.g. ${EXAMPLE}`,
      { offset: first.offset },
    );
  }

  const warnings: string[] = [...notes];
  const urls: Token[] = [];
  const headers: Record<string, string> = {};
  const removed = new Set<string>();
  const data: DataPart[] = [];
  const form: string[] = [];
  const cookies: string[] = [];
  const urlQueries: string[] = [];
  let method: string | undefined;
  let get = false;
  let head = false;
  let upload: string | undefined;
  let user: string | undefined;
  let bearer: string | undefined;
  let requestTarget: string | undefined;

  const setHeader = (name: string, value: string) => {
    const existing = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
    if (existing === undefined) headers[name] = value;
    else headers[existing] = `${headers[existing]}${name.toLowerCase() === 'cookie' ? '; ' : ', '}${value}`;
  };
  const defaultHeader = (name: string, value: string) => {
    const lower = name.toLowerCase();
    if (removed.has(lower) || Object.keys(headers).some((k) => k.toLowerCase() === lower)) return;
    headers[name] = value;
  };

  const apply = (spec: FlagSpec, value: string | undefined, token: Token, written: string) => {
    switch (spec.as) {
      case undefined:
        return;
      case 'request':
        if (value!.startsWith('-') || value!.trim() === '') {
          throw fail(
            `${flagLabel(spec, written)} at ${describeOffset(source, token.offset)} needs an HTTP method, but got "${value}"`,
            'Write the method right after it, e.g. -X POST',
            { offset: token.offset },
          );
        }
        method = value!.toUpperCase();
        return;
      case 'header': {
        const v = value!;
        if (v.startsWith('@')) {
          warnings.push(`Headers read from the file ${v.slice(1)} (-H @file) were not imported`);
          return;
        }
        const colon = v.indexOf(':');
        if (colon < 0) {
          if (v.endsWith(';')) setHeader(v.slice(0, -1).trim(), '');
          else warnings.push(`Ignored header "${v}": expected "Name: value"`);
          return;
        }
        const name = v.slice(0, colon).trim();
        const hv = v.slice(colon + 1).trim();
        if (name === '') {
          warnings.push(`Ignored header "${v}": it has no name`);
          return;
        }
        if (hv === '') {
          removed.add(name.toLowerCase());
          for (const k of Object.keys(headers)) if (k.toLowerCase() === name.toLowerCase()) delete headers[k];
          return;
        }
        setHeader(name, hv);
        return;
      }
      case 'data':
      case 'data-binary':
      case 'data-raw':
        data.push({ kind: 'data', value: value! });
        return;
      case 'data-urlencode':
        data.push({ kind: 'data', value: urlencodeData(value!) });
        return;
      case 'json':
        data.push({ kind: 'json', value: value! });
        return;
      case 'form':
      case 'form-string':
        form.push(value!);
        return;
      case 'user':
        user = value!;
        return;
      case 'cookie':
        if (value!.includes('=')) cookies.push(value!.trim().replace(/;\s*$/, ''));
        else warnings.push(`Cookies read from the file ${value} (-b FILE) were not imported`);
        return;
      case 'user-agent':
        setHeader('User-Agent', value!);
        return;
      case 'referer':
        setHeader('Referer', value!.replace(/;auto$/, ''));
        return;
      case 'url':
        urls.push({ value: value!, offset: token.offset });
        return;
      case 'get':
        get = true;
        return;
      case 'head':
        head = true;
        return;
      case 'upload-file':
        upload = value!;
        return;
      case 'oauth2-bearer':
        bearer = value!;
        return;
      case 'url-query':
        urlQueries.push(value!.startsWith('+') ? value!.slice(1) : urlencodeData(value!));
        return;
      case 'request-target':
        requestTarget = value!;
        return;
      case 'next':
        return;
    }
  };

  let stop = false;
  let endOfOptions = false;
  for (let i = 1; i < tokens.length && !stop; i++) {
    const token = tokens[i]!;
    const word = token.value;
    if (endOfOptions || !word.startsWith('-') || word === '-') {
      urls.push(token);
      continue;
    }
    if (word === '--') {
      endOfOptions = true;
      continue;
    }
    const takeValue = (spec: FlagSpec, written: string, attached: string | undefined): string => {
      if (attached !== undefined && attached !== '') return attached;
      const next = tokens[i + 1];
      if (!next) {
        const example = spec.as ? VALUE_EXAMPLES[spec.as] : undefined;
        throw fail(
          `${flagLabel(spec, written)} at ${describeOffset(source, token.offset)} needs a value, but the command ends there`,
          example ? `Give it a value, e.g. ${example}` : 'Give it a value, or remove the flag',
          { offset: token.offset, flag: written },
        );
      }
      i++;
      return next.value;
    };
    if (word.startsWith('--')) {
      let name = word.slice(2);
      let attached: string | undefined;
      let spec = LONG_FLAGS.get(name);
      if (!spec && name.includes('=')) {
        const eq = name.indexOf('=');
        const candidate = LONG_FLAGS.get(name.slice(0, eq));
        if (candidate?.value) {
          spec = candidate;
          attached = name.slice(eq + 1);
          name = name.slice(0, eq);
        }
      }
      if (!spec && name.startsWith('no-')) {
        const positive = LONG_FLAGS.get(name.slice(3));
        if (positive && !positive.value) continue; // --no-compressed and friends: a switch turned off
      }
      if (!spec) {
        warnings.push(`Unrecognised flag --${name} at ${describeOffset(source, token.offset)} (ignored)`);
        continue;
      }
      const value = spec.value ? takeValue(spec, `--${name}`, attached) : undefined;
      if (spec.as === 'next') {
        warnings.push('Only the first request is imported: everything after --next was ignored');
        stop = true;
        continue;
      }
      apply(spec, value, token, `--${name}`);
      continue;
    }
    // Short flags, possibly combined (-sSL) or with an attached value (-XPOST, -H'X: y').
    for (let j = 1; j < word.length; j++) {
      const ch = word[j]!;
      const spec = SHORT_FLAGS.get(ch);
      if (!spec) {
        warnings.push(`Unrecognised flag -${ch} at ${describeOffset(source, token.offset)} (ignored)`);
        continue;
      }
      if (spec.value) {
        const value = takeValue(spec, `-${ch}`, word.slice(j + 1));
        apply(spec, value, token, `-${ch}`);
        break;
      }
      if (spec.as === 'next') {
        warnings.push('Only the first request is imported: everything after -: (--next) was ignored');
        stop = true;
        break;
      }
      apply(spec, undefined, token, `-${ch}`);
    }
  }

  const urlToken = urls[0];
  if (!urlToken) {
    throw fail('No URL found in the cURL command', `Add the URL to call, e.g. ${EXAMPLE}`);
  }
  for (const extra of urls.slice(1)) {
    warnings.push(
      `Only the first URL is imported: ignored "${extra.value}" at ${describeOffset(source, extra.offset)}`,
    );
  }
  const split = splitUrl(urlToken.value.trim(), ` at ${describeOffset(source, urlToken.offset)}`);
  let queryString = split.query;
  const addQuery = (q: string) => {
    if (q) queryString = queryString ? `${queryString}&${q}` : q;
  };
  for (const q of urlQueries) addQuery(q);

  const dataText =
    data.length === 0
      ? null
      : data.every((d) => d.kind === 'json')
        ? data.map((d) => d.value).join('')
        : data.map((d) => d.value).join('&');
  let body: string | null = null;
  let multipart = false;
  if (get) {
    if (dataText !== null) addQuery(dataText);
  } else if (dataText !== null) {
    body = dataText;
  } else if (form.length) {
    body = form.join('&');
    multipart = true;
  }
  if (!get && data.some((d) => d.kind === 'data'))
    defaultHeader('Content-Type', 'application/x-www-form-urlencoded');
  if (data.some((d) => d.kind === 'json')) {
    defaultHeader('Content-Type', 'application/json');
    defaultHeader('Accept', 'application/json');
  }
  if (cookies.length) setHeader('Cookie', cookies.join('; '));
  if (bearer !== undefined) defaultHeader('Authorization', `Bearer ${bearer}`);

  const inferred = head
    ? 'HEAD'
    : get
      ? 'GET'
      : upload !== undefined
        ? 'PUT'
        : body !== null
          ? 'POST'
          : 'GET';
  const finalMethod = method ?? inferred;

  let auth: Auth | null = null;
  const authorization = Object.entries(headers).find(([k]) => k.toLowerCase() === 'authorization');
  if (authorization) auth = authFromHeader(authorization[1]);
  if (!auth && bearer !== undefined) auth = { type: 'bearer', token: bearer };
  if (!auth && user !== undefined) auth = userToAuth(user);
  if (!auth && split.userinfo) auth = userToAuth(safeDecode(split.userinfo));

  const path =
    requestTarget && requestTarget.startsWith('/') ? requestTarget.replace(/[?#].*$/, '') : split.path;
  const base = split.url.replace(/\?.*$/, '');
  return {
    method: finalMethod,
    url: queryString ? `${base}?${queryString}` : base,
    path,
    query: parseQueryString(queryString),
    headers,
    body,
    auth,
    warnings,
    dialect,
    multipart,
  };
}
