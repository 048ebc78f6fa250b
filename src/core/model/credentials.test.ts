import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  maskCredentialHeaders,
  maskCredentialQuery,
  maskCredentialsInText,
  maskCredentialValue,
  secretsOf,
} from './credentials.js';
import { CapturedRequestSchema } from './endpoint.js';

describe('credentials', () => {
  it('masks the credential of a header value and keeps its scheme; twice is once', () => {
    assert.equal(maskCredentialValue('Bearer abc.def'), 'Bearer ********');
    assert.equal(maskCredentialValue('  Basic YWRhOmxvdmVsYWNl '), 'Basic ********');
    assert.equal(maskCredentialValue('just-a-key'), '********');
    assert.equal(maskCredentialValue(maskCredentialValue('Bearer abc')), 'Bearer ********');
    assert.equal(maskCredentialValue('********'), '********');
  });

  it('knows a secret in every form it travels in', () => {
    assert.deepEqual(secretsOf({ type: 'bearer', token: 't0k3n' }), ['t0k3n']);
    assert.deepEqual(secretsOf({ type: 'basic', username: 'ada', password: 'lovelace' }), [
      'lovelace',
      'YWRhOmxvdmVsYWNl',
      'YWRhOmxvdmVsYWNl',
    ]);
    assert.deepEqual(secretsOf({ type: 'basic', username: 'ada', password: '' }), []);
    assert.deepEqual(secretsOf(null), []);
  });

  it('masks Authorization and Proxy-Authorization always, other values when they hold a secret', () => {
    assert.deepEqual(
      maskCredentialHeaders(
        {
          authorization: 'Bearer t0k3n',
          'Proxy-Authorization': 'Basic eDp5',
          'X-Key': 'my t0k3n here',
          Accept: 'application/json',
          'X-Short': 'ab',
        },
        ['t0k3n', 'ab'],
      ),
      {
        authorization: 'Bearer ********',
        'Proxy-Authorization': 'Basic ********',
        'X-Key': '********',
        Accept: 'application/json',
        'X-Short': 'ab',
      },
    );
    assert.deepEqual(maskCredentialQuery({ t: 't0k3n', q: ['a', 'x-t0k3n'] }, ['t0k3n']), {
      t: '********',
      q: ['a', '********'],
    });
  });

  it('masks credentials quoted in a message', () => {
    assert.equal(
      maskCredentialsInText(`near: "'Authorization: Bearer abc.def"`),
      `near: "'Authorization: Bearer ********"`,
    );
    assert.equal(
      maskCredentialsInText('The URL "https://ada:pw@x.test/a b" contains whitespace'),
      'The URL "https://ada:********@x.test/a b" contains whitespace',
    );
    assert.equal(maskCredentialsInText('ignored t0k3n-x', ['t0k3n']), 'ignored ********-x');
  });

  it('a stored captured request keeps no password, token or Authorization credential', () => {
    const stored = CapturedRequestSchema.parse({
      headers: { Authorization: 'Basic YWRhOmxvdmVsYWNl' },
      auth: { type: 'basic', username: 'ada', password: 'lovelace' },
    });
    assert.deepEqual(stored, {
      headers: { Authorization: 'Basic ********' },
      query: {},
      body: null,
      auth: { type: 'basic', username: 'ada' },
    });
    assert.deepEqual(CapturedRequestSchema.parse({ auth: { type: 'bearer', token: 'x' } }).auth, {
      type: 'bearer',
    });
  });
});
