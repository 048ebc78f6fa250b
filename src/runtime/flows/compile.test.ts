import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callback, delay, flow } from '../../../test/helpers/flow-runtime.js';
import { compileTemplate } from '../../core/templates/engine.js';
import { compileFlow } from './compile.js';
import { callbackContext, headerObject, KeptBody } from './context.js';

describe('flow templates', () => {
  it('a callback template with an unknown helper fails its step saying the position once', () => {
    const compiled = compileFlow(
      flow('f', [
        { id: 's1', trigger: delay(1), action: callback('http://h/', { body: '{"a":1}\n  {{nope 1}}' }) },
      ]),
      false,
    );
    const action = compiled.steps[0]!.action as { problem?: string };
    assert.equal(
      action.problem?.replace(/; closest known: .*$/, ''),
      'the callback\'s body is not a valid template: Unknown helper "nope" at line 2, column 3',
    );
  });
  it("reads WireMock's request model: repeated query parameters, header names in any case", () => {
    const context = callbackContext({
      runId: 'r1',
      request: {
        method: 'GET',
        url: '/o/7?tag=a&tag=b',
        path: '/o/7',
        params: {},
        query: { tag: 'a' },
        headers: headerObject([['X-Client', 'acme']]),
        body: new KeptBody(null),
      },
      response: undefined,
      steps: new Map(),
      env: {},
      secrets: [],
      tunnelUrl: '',
    });
    const t = compileTemplate(
      '{{request.query.tag}}|{{request.query.tag.1}}|{{#each request.query.tag}}{{this}}{{/each}}|{{request.headers.X-CLIENT}}|{{request.headers.x-client.[0]}}|{{request.path.1}}',
    );
    assert.equal(t.render(context as never), 'a|b|ab|acme|acme|7');
  });
});
