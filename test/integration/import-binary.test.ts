/**
 * A file that is not text (an image, an archive, random bytes) given to `mockdev import`, or
 * binary data pasted as a cURL command: one line naming the file (or the command) and saying it
 * is not text, never the raw bytes.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ImportReport } from '../../src/app/openapi.js';
import { assertCliError, json } from '../helpers/cli.js';
import { cliSandbox } from '../helpers/cli-inprocess.js';

/** No control character, no replacement character (what raw bytes turn into), at most one line. */
function assertNoRawBytes(text: string): void {
  // eslint-disable-next-line no-control-regex
  assert.doesNotMatch(text.trimEnd(), /[\u0000-\u0008\u000b-\u001f\u007f\ufffd]/, JSON.stringify(text));
  assert.ok(text.length < 400, `short: ${text.length} characters`);
}

/** A PNG's signature and header, then 2 KB of bytes that are not text. */
const png = () => Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), randomBytes(2048)]);

describe('binary input', () => {
  it('import of a PNG, an archive or raw bytes exits 2 naming the file, saying it is not text', async (t) => {
    const { cli, dir } = cliSandbox(t, 'mockdev-binary-');
    // Bytes that are not UTF-8 and start with no known signature (0xC0 is never valid UTF-8).
    const raw = Buffer.from(`openapi: 3.0.3\n${'\xc0\xc1\xfe\xff'.repeat(512)}`, 'latin1');
    const cases: [string, Buffer, RegExp][] = [
      [
        'logo.png',
        png(),
        /^mockdev: logo\.png is not a text file: it looks like a PNG image\. Give an OpenAPI/,
      ],
      [
        'api.tgz',
        Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0]), randomBytes(2048)]),
        /api\.tgz is not a text file: it looks like a gzip archive/,
      ],
      ['api.yaml', raw, /^mockdev: api\.yaml is not a text file: it is not UTF-8 text\./],
      [
        'nul.json',
        Buffer.from('{"openapi": "3.0.3"\u0000\u0000}'),
        /nul\.json is not a text file: it holds NUL bytes/,
      ],
      [
        'utf16.yaml',
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('openapi: 3.0.3\n', 'utf16le')]),
        /utf16\.yaml is not a text file: it is UTF-16 text; save it as UTF-8/,
      ],
      [
        'utf16-no-bom.json',
        Buffer.from('{"openapi": "3.0.3"}', 'utf16le'),
        /utf16-no-bom\.json is not a text file: it is UTF-16 text/,
      ],
    ];
    for (const [name, bytes, pattern] of cases) {
      writeFileSync(join(dir, name), bytes);
      const r = await cli(['import', name]);
      assertCliError(r, 2, pattern);
      assertNoRawBytes(r.stderr);
    }
    // From stdin there is no file to name: the document is not text (exit 1, as other bad documents).
    const stdin = await cli(['import', '-'], { input: png().toString('latin1') });
    assert.equal(stdin.code, 1, stdin.stderr);
    assert.match(stdin.stderr, /The document is not text/);
    assertNoRawBytes(stdin.stderr);
    assert.deepEqual(json<unknown[]>(await cli(['project', 'list', '--json'])), []);
  });

  it('a $ref to a binary file is a warning naming the file, without its bytes', async (t) => {
    const { cli, dir } = cliSandbox(t, 'mockdev-binary-');
    writeFileSync(join(dir, 'pet.png'), png());
    writeFileSync(
      join(dir, 'api.yaml'),
      [
        'openapi: 3.0.3',
        'info: { title: Pets, version: "1" }',
        'paths:',
        '  /pets:',
        '    get:',
        '      responses:',
        "        '200':",
        '          description: ok',
        '          content:',
        '            application/json:',
        "              schema: { $ref: 'pet.png#/Pet' }",
      ].join('\n'),
    );
    const r = await cli(['import', 'api.yaml', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const report = json<ImportReport>(r);
    assert.equal(report.created.length, 1);
    const warning = report.warnings.find((w) => w.message.includes('pet.png'));
    assert.ok(warning, JSON.stringify(report.warnings));
    assert.match(warning.message, /pet\.png is not a text file: it looks like a PNG image/);
    for (const line of r.stderr.split('\n')) assertNoRawBytes(line);
  });

  it('binary data given as a cURL command is refused as not text, quoting no bytes', async (t) => {
    const { cli } = cliSandbox(t, 'mockdev-binary-');
    for (const text of [png().toString('latin1'), `wget\u0001 https://x.test`]) {
      const r = await cli(['curl', text, '--preview']);
      assertCliError(r, 1, /^mockdev: The cURL command is not text: it holds/);
      assertNoRawBytes(r.stderr);
    }
    // A word that is not curl is quoted short and escaped.
    const other = await cli(['curl', `${'x'.repeat(2000)} https://x.test`, '--preview']);
    assertCliError(other, 1, /Not a cURL command: it starts with "x{30}…" at line 1, column 1/);
  });
});
