import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createContext } from '../../src/app/context.js';
import type { FlowRun } from '../../src/core/model/flow.js';
import { tempDir } from '../helpers/cli.js';
import { endpointOf } from '../helpers/endpoint.js';
import {
  after,
  callback,
  delay,
  flow,
  onRequest,
  saveProject,
  startReceiver,
} from '../helpers/flow-runtime.js';
import { makeProject, startServe } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';

/**
 * A spawned `mockdev serve` (dist/: `npm run build` first) stopped by SIGTERM with flow steps
 * pending: it exits without waiting for a delay, and every step not done is stored as cancelled
 * (read back from the SQLite run store in this process).
 */
describe('flows at run time: SIGTERM', () => {
  it('records pending steps as cancelled and exits without waiting for them', async (t) => {
    const tmp = tempDir();
    const ctx = createContext({ dataDir: tmp.dir, cwd: tmp.dir });
    t.after(() => {
      ctx.close();
      tmp.cleanup();
    });
    const receiver = await startReceiver(t);
    const { id } = await makeProject(tmp.dir, 'sigterm', []);
    await saveProject(ctx, id, {
      endpoints: [endpointOf('go')],
      flows: [
        flow('pending', [
          { id: 's1', trigger: onRequest('go'), action: callback(`${receiver.url}/first`) },
          { id: 's2', trigger: delay(60_000), action: callback(`${receiver.url}/late`) },
          { id: 's3', trigger: after('s2'), action: callback(`${receiver.url}/later`) },
        ]),
      ],
    });
    const serve = await startServe([id], { dataDir: tmp.dir });
    t.after(() => serve.stop());
    await (await fetch(`${serve.url}/go`)).text();
    await receiver.waitFor(1);
    const t0 = Date.now();
    serve.child.kill('SIGTERM');
    const code = await serve.exited;
    assert.equal(code, 0, serve.stderr());
    assert.ok(Date.now() - t0 < 10_000, `the server took ${Date.now() - t0} ms to stop`);
    assert.deepEqual(
      receiver.received.map((r) => r.url),
      ['/first'],
    );

    const list = () => ctx.flowRuns.list(id, { limit: 10 });
    const run: FlowRun = await waitUntil(async () => (await list())[0], 'the run to be stored');
    assert.equal(run.status, 'cancelled');
    assert.deepEqual(
      run.steps.map((s) => [s.stepId, s.status]),
      [
        ['s1', 'completed'],
        ['s2', 'cancelled'],
        ['s3', 'cancelled'],
      ],
    );
    assert.equal(run.steps[1]!.reason, 'the server stopped');
  });
});
