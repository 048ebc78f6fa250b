/**
 * The README's `mockdev curl …` examples run as written: each is taken from README.md, split
 * into arguments by a real POSIX shell (and by mockdev's own bash reader, which must agree), run
 * in-process against a project "Payments", and what it stores (or previews) has a valid JSON body.
 * That the whole README runs, in order, is readme-run.test.ts.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Endpoint } from '../../src/core/model/endpoint.js';
import { tokenize } from '../../src/formats/curl/tokenize.js';
import { json, ROOT } from '../helpers/cli.js';
import { cliSandbox } from '../helpers/cli-inprocess.js';

/** The commands of the README's ```sh blocks (continued lines joined) that start with `prefix`. */
function readmeCommands(prefix: string): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  return blocks
    .flatMap((block) => block.replace(/\\\n/g, ' ').split('\n'))
    .filter((line) => line.startsWith(prefix));
}

/** The arguments /bin/sh gives `mockdev` for a command line of the README. */
function shellArgs(line: string): string[] {
  const out = execFileSync('/bin/sh', ['-c', `mockdev() { printf '%s\\0' "$@"; }\n${line}`], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  return out.split('\0').slice(0, -1);
}

const isJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('README examples', () => {
  it('every "mockdev curl" example runs as written and keeps a JSON body as JSON', async (t) => {
    const examples = readmeCommands('mockdev curl ');
    assert.ok(examples.length >= 2, `found ${examples.length} examples`);
    const { cli } = cliSandbox(t, 'mockdev-readme-');
    assert.equal((await cli(['project', 'create', 'Payments'])).code, 0);
    let bodies = 0;
    for (const line of examples) {
      const args = shellArgs(line);
      assert.equal(args[0], 'curl', line);
      assert.deepEqual(
        tokenize(line, 'bash').tokens.map((tok) => tok.value),
        ['mockdev', ...args],
        `mockdev's bash reader splits it as sh does: ${line}`,
      );
      const before = json<Endpoint[]>(await cli(['endpoint', 'list', 'Payments', '--json']));
      const r = await cli(args);
      assert.equal(r.code, 0, `${line}\n${r.stderr}`);
      let body: string | null;
      if (args.includes('--preview')) {
        body = args.includes('--json') ? json<{ body: string | null }>(r).body : null;
      } else {
        const after = json<Endpoint[]>(await cli(['endpoint', 'list', 'Payments', '--json']));
        assert.equal(after.length, before.length + 1, `${line} adds one endpoint`);
        const added = after.find((e) => !before.some((b) => b.id === e.id))!;
        body = added.request?.body ?? null;
        if (body !== null) assert.equal(added.body, body, `${line}: the JSON body is echoed`);
      }
      if (body !== null) {
        bodies++;
        assert.ok(isJson(body), `${line}\nstores the body ${body}, which is not JSON`);
      }
    }
    assert.ok(bodies >= 1, 'at least one example sends a body');
  });
});
