import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../api/client';
import { settingRefusal } from './words';

describe('a refused setting in the screen’s words', () => {
  const refused = new ApiError({
    title: 'Bad request',
    status: 400,
    code: 'INVALID_ARGUMENT',
    detail: 'Invalid defaultPort 80: must be from 1024 to 65535',
    details: {
      field: 'defaultPort',
      issues: [{ path: 'defaultPort', message: 'must be from 1024 to 65535' }],
    },
  });

  it('names the setting as the screen does, never by its internal name', () => {
    const worded = settingRefusal(refused, 'defaultPort', 'default port') as ApiError;
    assert.equal(worded.detail, 'Default port must be from 1024 to 65535');
    assert.equal(worded.code, 'INVALID_ARGUMENT');
  });

  it('keeps any other error as it is', () => {
    assert.equal(settingRefusal(refused, 'mcpPort', 'MCP port'), refused, 'another field’s issue');
    const down = new ApiError({ title: 'mockdev ui cannot be reached', status: 0 });
    assert.equal(settingRefusal(down, 'defaultPort', 'default port'), down);
    const plain = new Error('x');
    assert.equal(settingRefusal(plain, 'defaultPort', 'default port'), plain);
  });
});
