import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MockdevError } from '../errors.js';
import { parseInput } from '../validate.js';
import { EndpointInputSchema, EndpointPatchSchema, EndpointSchema, VariationSchema } from './endpoint.js';
import { STATUS_TEXT_MAX, StatusTextSchema } from './fields.js';

const stored = {
  id: 'e1',
  name: 'created',
  method: 'POST',
  path: '/things',
  status: 201,
  headers: {},
  body: '',
  contentType: 'application/json',
  delay: 0,
  enabled: true,
  kind: 'mock',
  variations: [],
};

/** The one INVALID_ARGUMENT message parseInput gives for an endpoint input. */
const refusal = (input: Record<string, unknown>): string => {
  try {
    parseInput(EndpointInputSchema, { path: '/x', ...input }, 'endpoint');
  } catch (e) {
    assert.ok(e instanceof MockdevError && e.code === 'INVALID_ARGUMENT', String(e));
    return e.message;
  }
  assert.fail(`accepted ${JSON.stringify(input)}`);
};

describe('statusText (the reason phrase)', () => {
  it('accepts printable ASCII, Latin-1, tabs and templates, up to the limit', () => {
    for (const text of [
      'Gone Fishing',
      'Créé, déjà vu ÿ',
      'a\tb',
      'Created {{params.id}}',
      '',
      'x'.repeat(200),
    ])
      assert.equal(StatusTextSchema.safeParse(text).success, true, JSON.stringify(text));
    assert.equal(STATUS_TEXT_MAX, 200);
  });

  it('refuses line breaks, control characters, text beyond Latin-1 and overlong text, in one line', () => {
    const crlf = refusal({ statusText: 'OK\r\nSet-Cookie: a=1' });
    assert.match(crlf, /^Invalid statusText "OK\\r\\nSet-Cookie: a=1": must be one line \(no line breaks\)$/);
    assert.equal(crlf.includes('\n'), false);
    assert.match(refusal({ statusText: 'a\nb' }), /statusText .*must be one line/);
    assert.match(refusal({ statusText: 'a\rb' }), /statusText .*must be one line/);
    for (const bad of ['a\u0000b', 'a\u007fb', 'a\u0085b', 'dash \u2013', 'emoji \u{1F600}'])
      assert.match(
        refusal({ statusText: bad }),
        /statusText .*printable ASCII or Latin-1/,
        JSON.stringify(bad),
      );
    assert.match(refusal({ statusText: 'x'.repeat(201) }), /statusText .*must be at most 200 characters$/);
    assert.match(refusal({ statusText: 42 }), /statusText 42: /);
    // A variation's the same, its path in the message.
    const v = { id: 'v1', name: 'v', status: 200, statusText: 'a\r\nb' };
    assert.match(
      refusal({ variations: [v] }),
      /^Invalid variations\.0\.statusText "a\\r\\nb": must be one line/,
    );
  });

  it('is optional: an endpoint without it parses unchanged and its JSON has no statusText', () => {
    const parsed = EndpointSchema.parse(stored);
    assert.deepEqual(parsed, stored);
    assert.equal('statusText' in parsed, false);
    assert.equal(JSON.stringify(parsed).includes('statusText'), false);
    const v = VariationSchema.parse({ id: 'v1', name: 'v', status: 404 });
    assert.equal('statusText' in v, false);
  });

  it('is kept next to status when set, and a patch may clear it with null or ""', () => {
    const parsed = EndpointSchema.parse({ ...stored, statusText: 'Created {{params.id}}' });
    assert.deepEqual(Object.keys(parsed).slice(4, 6), ['status', 'statusText']);
    assert.equal(EndpointPatchSchema.parse({ statusText: null }).statusText, null);
    assert.equal(EndpointPatchSchema.parse({ statusText: '' }).statusText, '');
    assert.equal(EndpointPatchSchema.safeParse({ statusText: 'a\nb' }).success, false);
  });
});
