import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MockdevError } from '../../core/errors.js';
import { parseCurl } from './parse.js';
import { detectDialect, tokenize } from './tokenize.js';

const fails = (text: string, pattern: RegExp, code = 'INVALID_INPUT') =>
  assert.throws(
    () => parseCurl(text),
    (e: unknown) => e instanceof MockdevError && e.code === code && pattern.test(e.fullMessage),
    JSON.stringify(text),
  );

describe('tokenize', () => {
  it('splits bash words with quotes, escapes and continuations', () => {
    const { tokens } = tokenize(`curl 'a b' "c \\"d\\" \\$e" f\\ g \\\n  $'h\\ti\\x41\\u00e9\\'' $"j"`);
    assert.deepEqual(
      tokens.map((t) => t.value),
      ['curl', 'a b', 'c "d" $e', 'f g', "h\tiAé'", 'j'],
    );
  });

  it('drops comments and stops at a pipe, with a note', () => {
    const { tokens, notes } = tokenize('curl https://x.test/a # fetch it\n | jq .');
    assert.deepEqual(
      tokens.map((t) => t.value),
      ['curl', 'https://x.test/a'],
    );
    assert.equal(notes.length, 1);
  });

  it('detects cmd from caret continuations and ^" quoting', () => {
    assert.equal(detectDialect('curl "https://x" ^\n  -H "a: b"'), 'cmd');
    assert.equal(detectDialect('curl ^"https://x^"'), 'cmd');
    assert.equal(detectDialect("curl 'https://x' \\\n -H 'a: ^b'"), 'bash');
  });

  it('detects cmd from a caret escaping a cmd special character outside quotes', () => {
    for (const text of [
      'curl https://api.example.com/search?q=mock^&page=2',
      'curl https://x.test/a?p=a^|b',
      'curl https://x.test/a?p=^<b^>',
      'curl https://x.test/a?p=1^^2',
      'curl https://x.test/a?p=^(1^)',
      'curl https://x.test/a?p=50^%',
      // An apostrophe is no quote in cmd: the caret continuation still decides.
      'curl https://x.test/it\'s ^\n  -H "a: b"',
    ])
      assert.equal(detectDialect(text), 'cmd', text);
    // A caret inside bash quotes is text, whatever follows it; an escaped caret too.
    for (const text of [
      "curl 'https://x.test/s?q=a^&b=c'",
      'curl "https://x.test/s?q=a^&b=c"',
      "curl $'https://x.test/s?q=a^&b=c'",
      'curl https://x.test/a -d "line^\nnext^"',
      "curl https://x.test/a -H 'X: ^' \\\n -d 'a^|b'",
      'curl https://x.test/a?q=\\^&',
      'curl https://x.test/a?q=^x # a comment ^&',
    ])
      assert.equal(detectDialect(text), 'bash', text);
  });

  it('removes cmd carets in an unquoted URL (q=mock^&page=2 is q=mock&page=2)', () => {
    const p = parseCurl('curl https://api.example.com/search?q=mock^&page=2');
    assert.equal(p.url, 'https://api.example.com/search?q=mock&page=2');
    assert.deepEqual(p.query, { q: 'mock', page: '2' });
    assert.deepEqual(parseCurl('curl https://x.test/a?p=1^^2^&r=^(x^)').query, { p: '1^2', r: '(x)' });
    // Quoted, the caret stays: cmd's own quotes and bash's quotes keep it.
    assert.deepEqual(parseCurl('curl "https://x.test/s?q=a^&b=c"').query, { q: 'a^', b: 'c' });
    assert.deepEqual(parseCurl("curl 'https://x.test/s?q=a^&b=c'").query, { q: 'a^', b: 'c' });
    assert.equal(parseCurl('curl https://x.test/a -d "line^\nnext"').body, 'line^\nnext');
  });

  it('reads cmd: carets, escaped quotes, literal newlines and percent escapes', () => {
    const { tokens } = tokenize(
      'curl ^"https://x.test/a?p=50^%^" ^\n  --data-raw ^"^{^\\^"a^\\^":^\\^"x^&y^\\^"^}^" ^\n  -H "b: c"',
    );
    assert.deepEqual(
      tokens.map((t) => t.value),
      ['curl', 'https://x.test/a?p=50%', '--data-raw', '{"a":"x&y"}', '-H', 'b: c'],
    );
    const multi = tokenize('curl ^"https://x^" --data-raw ^"line1^\n\nline2^"');
    assert.equal(multi.tokens[3]!.value, 'line1\nline2');
  });
});

describe('parseCurl', () => {
  it('takes method, path, query, headers, body, auth and cookies', () => {
    const p = parseCurl(
      `curl -X post 'https://api.example.com/api/v1/users/42?expand=team&tag=a&tag=b&empty' -H 'Accept: application/json' -H "X-Trace:  abc" -d '{"a":1}' -u ada:secret -b 'sid=1; theme=dark'`,
    );
    assert.equal(p.method, 'POST');
    assert.equal(p.path, '/api/v1/users/42');
    assert.deepEqual(p.query, { expand: 'team', tag: ['a', 'b'], empty: '' });
    assert.deepEqual(p.headers, {
      Accept: 'application/json',
      'X-Trace': 'abc',
      'Content-Type': 'application/x-www-form-urlencoded', // what curl sends with -d
      Cookie: 'sid=1; theme=dark',
    });
    assert.equal(p.body, '{"a":1}');
    assert.deepEqual(p.auth, { type: 'basic', username: 'ada', password: 'secret' });
    assert.deepEqual(p.warnings, []);
  });

  it('infers the method from the flags', () => {
    assert.equal(parseCurl('curl https://x.test/a').method, 'GET');
    assert.equal(parseCurl('curl https://x.test/a -d a=1').method, 'POST');
    assert.equal(parseCurl('curl https://x.test/a --data-binary @f.bin').method, 'POST');
    assert.equal(parseCurl('curl https://x.test/a -F f=@a.png').method, 'POST');
    assert.equal(parseCurl('curl https://x.test/a --json {}').method, 'POST');
    assert.equal(parseCurl('curl -I https://x.test/a').method, 'HEAD');
    assert.equal(parseCurl('curl -T file.txt https://x.test/a').method, 'PUT');
    assert.equal(parseCurl('curl -X DELETE -d a=1 https://x.test/a').method, 'DELETE');
  });

  it('moves data into the query with -G', () => {
    const p = parseCurl(
      "curl -G https://x.test/search?x=0 -d q=mock -d 'page=2' --data-urlencode 'name=Ada Lovelace'",
    );
    assert.equal(p.method, 'GET');
    assert.equal(p.body, null);
    assert.deepEqual(p.query, { x: '0', q: 'mock', page: '2', name: 'Ada Lovelace' });
    assert.equal(p.url, 'https://x.test/search?x=0&q=mock&page=2&name=Ada+Lovelace');
  });

  it('joins several -d with & and url-encodes --data-urlencode like curl', () => {
    assert.equal(
      parseCurl("curl x.test -d a=1 -d 'b=2' --data-urlencode 'c=d e&f' --data-urlencode =raw?").body,
      'a=1&b=2&c=d+e%26f&raw%3F',
    );
  });

  it('--json sets the JSON headers unless given', () => {
    const p = parseCurl(`curl https://x.test/a --json '{"a":1}' -H 'Accept: text/plain'`);
    assert.equal(p.body, '{"a":1}');
    assert.deepEqual(p.headers, { Accept: 'text/plain', 'Content-Type': 'application/json' });
  });

  it('keeps -F fields as name=value pairs', () => {
    const p = parseCurl("curl https://x.test/upload -F 'name=Ada' -F 'file=@photo.png;type=image/png'");
    assert.equal(p.body, 'name=Ada&file=@photo.png;type=image/png');
    assert.equal(p.multipart, true);
  });

  it('detects Bearer and Basic in the Authorization header, and --oauth2-bearer', () => {
    assert.deepEqual(parseCurl("curl https://x.test -H 'Authorization: Bearer tok.en'").auth, {
      type: 'bearer',
      token: 'tok.en',
    });
    assert.deepEqual(
      parseCurl(`curl https://x.test -H 'authorization: Basic ${Buffer.from('a:b:c').toString('base64')}'`)
        .auth,
      {
        type: 'basic',
        username: 'a',
        password: 'b:c',
      },
    );
    assert.deepEqual(parseCurl('curl https://x.test --oauth2-bearer T').auth, { type: 'bearer', token: 'T' });
    assert.deepEqual(parseCurl('curl -u ada https://x.test').auth, {
      type: 'basic',
      username: 'ada',
      password: '',
    });
    assert.deepEqual(parseCurl('curl https://bob:pw@x.test/a').auth, {
      type: 'basic',
      username: 'bob',
      password: 'pw',
    });
  });

  it('reads combined and attached short flags', () => {
    const p = parseCurl("curl -sSLXPATCH -H'X-A: 1' -dk=v https://x.test/a");
    assert.equal(p.method, 'PATCH');
    assert.deepEqual(p.headers, { 'X-A': '1', 'Content-Type': 'application/x-www-form-urlencoded' });
    assert.equal(p.body, 'k=v');
  });

  it('adds a scheme when missing and keeps the path as written', () => {
    const p = parseCurl('curl localhost:3000/Calls/{Sid}.json');
    assert.equal(p.url, 'http://localhost:3000/Calls/{Sid}.json');
    assert.equal(p.path, '/Calls/{Sid}.json');
    assert.equal(parseCurl('curl https://x.test').path, '/');
  });

  it('warns about each unrecognised flag and extra URLs, and ignores known ones', () => {
    const p = parseCurl(
      'curl --compressed --frobnicate -Wk https://x.test/a https://x.test/b --max-time 5 -o out.txt',
    );
    assert.equal(p.warnings.length, 3);
    assert.match(p.warnings[0]!, /--frobnicate/);
    assert.match(p.warnings[1]!, /-W/);
    assert.match(p.warnings[2]!, /x\.test\/b/);
  });

  it('accepts a leading prompt and curl.exe', () => {
    assert.equal(parseCurl('$ curl https://x.test/a').path, '/a');
    assert.equal(parseCurl('curl.exe https://x.test/b').path, '/b');
  });

  it('header edge cases: empty value removes, "Name;" sends empty, duplicates are joined', () => {
    const p = parseCurl("curl https://x.test --json 1 -H 'Accept:' -H 'X-Empty;' -H 'X-M: 1' -H 'x-m: 2'");
    assert.deepEqual(p.headers, { 'X-Empty': '', 'X-M': '1, 2', 'Content-Type': 'application/json' });
  });

  it('reads a Chrome bash copy', () => {
    const text = `curl 'https://api.example.com/v2/orders?status=open' \\
  -H 'accept: application/json, text/plain, */*' \\
  -H 'authorization: Bearer eyJhbGciOi.x.y' \\
  -H 'content-type: application/json' \\
  -H $'cookie: a=1; b=it\\'s' \\
  --data-raw $'{"note":"it\\'s \\u00e9"}' \\
  --compressed`;
    const p = parseCurl(text);
    assert.equal(p.method, 'POST');
    assert.equal(p.path, '/v2/orders');
    assert.equal(p.body, '{"note":"it\'s é"}');
    assert.equal(p.headers.cookie, "a=1; b=it's");
    assert.deepEqual(p.auth, { type: 'bearer', token: 'eyJhbGciOi.x.y' });
  });

  it('reads a Chrome cmd copy', () => {
    const text = [
      'curl ^"https://api.example.com/v2/orders?status=open^&page=2^" ^',
      '  -H ^"accept: application/json^" ^',
      '  -H ^"content-type: application/json^" ^',
      '  --data-raw ^"^{^\\^"qty^\\^":2,^\\^"note^\\^":^\\^"100^%^\\^"^}^" ^',
      '  --compressed',
    ].join('\r\n');
    const p = parseCurl(text);
    assert.equal(p.method, 'POST');
    assert.deepEqual(p.query, { status: 'open', page: '2' });
    assert.equal(p.body, '{"qty":2,"note":"100%"}');
    assert.deepEqual(p.warnings, []);
  });

  it('reads a Firefox bash copy with -X', () => {
    const p = parseCurl(
      `curl 'https://x.test/api/items/7' -X PUT -H 'User-Agent: Mozilla/5.0' -H 'Content-Type: application/json' -H 'Origin: https://x.test' -H 'Connection: keep-alive' --data-raw '{"done":true}'`,
    );
    assert.equal(p.method, 'PUT');
    assert.equal(p.headers['User-Agent'], 'Mozilla/5.0');
  });

  it('says what is wrong, where, and how to fix it', () => {
    fails('', /empty.*Paste a command/);
    fails('   \n  ', /empty/);
    fails(
      'wget https://x.test',
      /Not a cURL command: it starts with "wget" at line 1, column 1.*starts with curl/,
    );
    fails(
      "curl 'https://x.test",
      /Unbalanced quote: the ' opened at line 1, column 6 is never closed/,
      'INVALID_ARGUMENT',
    );
    fails(
      'curl "https://x.test" \\\n -H "a: b',
      /Unbalanced quote: the " opened at line 2, column 5/,
      'INVALID_ARGUMENT',
    );
    fails('curl "https://x.test/a b"', /contains whitespace/);
    fails("curl $'abc", /\$'…' string opened at line 1, column 6/, 'INVALID_ARGUMENT');
    fails('curl ^"https://x.test', /Unbalanced quote/, 'INVALID_ARGUMENT');
    fails(
      'curl https://x.test -H',
      /-H \(--header\) at line 1, column 21 needs a value, but the command ends there.*-H 'Accept/,
    );
    fails('curl https://x.test --data', /--data at line 1, column 21 needs a value/);
    fails('curl -s -o out.json', /No URL found.*Add the URL/);
    fails('curl -X -H a:b https://x.test', /needs an HTTP method/);
    fails('curl http://', /has no host/);
  });

  it('refuses a command cut off after a line continuation, in bash and in cmd (INVALID_ARGUMENT)', () => {
    const cut = (text: string, pattern: RegExp) =>
      assert.throws(
        () => parseCurl(text),
        (e: unknown) =>
          e instanceof MockdevError && e.code === 'INVALID_ARGUMENT' && pattern.test(e.fullMessage),
        JSON.stringify(text),
      );
    const bash =
      /^The command ends with a line continuation \(\\\) at line \d+, column \d+ and nothing after it: it looks cut off\. Paste the whole command/;
    cut('curl https://api.example.com/v1/users \\', bash);
    cut('curl https://api.example.com/v1/users \\\n', bash);
    cut('curl -X POST \\\r\n  https://api.example.com/v1/users \\\r\n  \r\n', /\(\\\) at line 2, column 36/);
    cut("curl -H 'A: b' https://x.test/a \\ \n\t", bash);
    const cmd =
      /^The command ends with a line continuation \(\^\) at line \d+, column \d+ and nothing after it: it looks cut off/;
    cut('curl https://api.example.com/v1/users ^', cmd);
    cut('curl "https://api.example.com/v1/users" ^\r\n', cmd);
    cut('curl ^"https://x.test/a^" ^\r\n  -H ^"a: b^" ^\r\n', /\(\^\) at line 2, column 15/);
    // Not cut off: an escaped backslash, a caret that is text, a continuation followed by more.
    assert.equal(parseCurl('curl https://x.test/a\\\\').url, 'https://x.test/a\\');
    assert.equal(parseCurl("curl 'https://x.test/a?q=^'").query.q, '^');
    assert.equal(parseCurl('curl https://x.test/a \\\n -H "A: b"').headers.A, 'b');
  });
});
