import assert from 'node:assert/strict';
import { afterEach, beforeEach } from 'node:test';
import type { NewRequestRecord, RequestLogStore, Stores } from '../../src/core/ports.js';
import type { StoreImplementation } from './implementations.js';

export interface RequestLogSandbox {
  /** The request log of this test's stores. */
  readonly log: RequestLogStore;
  /** Another opening of the same data, as another process would have. */
  again(): Stores;
  /** A project id no test used yet. */
  newProjectId(prefix?: string): string;
  /** Writes records for a new project through a writer, closed when done; returns the project id. */
  logged(records: NewRequestRecord[], limit?: number): Promise<string>;
}

/**
 * What the request log's contract suites share: every test gets fresh, empty stores (none sees
 * what another left behind), closed after it. Call inside a describe().
 */
export function requestLogSandbox(impl: StoreImplementation): RequestLogSandbox {
  let stores: Stores;
  let reopen: () => Stores;
  let cleanup: () => Promise<void>;
  let project = 0;
  beforeEach(async () => {
    ({ stores, again: reopen, cleanup } = await impl.open());
  });
  afterEach(() => cleanup());
  const sandbox: RequestLogSandbox = {
    get log() {
      return stores.requests;
    },
    again: () => reopen(),
    newProjectId: (prefix = 'p') => `${prefix}${++project}`,
    async logged(records, limit = 1000) {
      const projectId = sandbox.newProjectId();
      const writer = sandbox.log.openWriter({ projectId, limit });
      for (const r of records) writer.push(r);
      await writer.close();
      assert.equal(writer.lost, 0);
      return projectId;
    },
  };
  return sandbox;
}
