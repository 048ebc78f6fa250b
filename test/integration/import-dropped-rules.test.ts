/**
 * An exported document whose variation rules this mockdev cannot use (a pattern the linear-time
 * engine refuses, as an earlier mockdev stored; a rule of another shape) or whose selection mode
 * it does not know: the import leaves them out with a warning naming the operation and where,
 * never silently (a variation chosen by its rules would otherwise answer no request unnoticed).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Endpoint } from '../../src/core/model/endpoint.js';
import { json } from '../helpers/cli.js';
import { cliSandbox } from '../helpers/cli-inprocess.js';

const DOC = {
  openapi: '3.0.3',
  'x-mockdev-export': true,
  info: { title: 'Old', version: '1' },
  paths: {
    '/users': {
      get: {
        'x-mockdev-mode': 'sometimes',
        'x-mockdev-rules': {
          admin: [{ source: 'header', key: 'x-role', op: 'regex', value: '^(?!guest)' }],
          odd: [{ source: 'cookie', key: 'a', op: 'equals', value: '1' }],
          vip: [{ source: 'query', key: 'vip', op: 'exists' }],
        },
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': {
                examples: {
                  main: { value: { id: 1 } },
                  admin: { value: { id: 2 } },
                  odd: { value: { id: 3 } },
                  vip: { value: { id: 4 } },
                },
              },
            },
          },
        },
      },
    },
  },
};

describe('import: rules and mode it cannot use', () => {
  it('are left out with a warning each; the usable rules are kept', async (t) => {
    const { cli, dir } = cliSandbox(t, 'mockdev-dropped-rules-');
    const file = join(dir, 'old.json');
    writeFileSync(file, JSON.stringify(DOC, null, 2));
    const r = await cli(['import', file]);
    assert.equal(r.code, 0, r.stderr);
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning:'));
    assert.equal(warnings.length, 3, r.stderr);
    assert.match(
      r.stderr,
      /warning: #\/paths\/~1users\/get\/x-mockdev-rules\/admin \(line \d+, column \d+\): operation GET \/users: the rules of variation "admin" are left out .*lookahead or lookbehind/,
    );
    assert.match(r.stderr, /x-mockdev-rules\/odd .*the rules of variation "odd" are left out/);
    assert.match(r.stderr, /x-mockdev-mode .*selection mode "sometimes" is not rules, sequential or random/);
    const [endpoint] = json<Endpoint[]>(await cli(['endpoint', 'list', 'Old', '--json']));
    assert.deepEqual(
      endpoint!.variations.map((v) => [v.name, v.rules]),
      [
        ['admin', undefined],
        ['odd', undefined],
        ['vip', [{ source: 'query', key: 'vip', op: 'exists' }]],
      ],
    );
  });
});
