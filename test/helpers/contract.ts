import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileContract, type CompiledContract } from '../../src/core/contract/index.js';
import type { RequestRecord } from '../../src/core/model/request.js';
import { readOpenApiText } from '../../src/formats/openapi/document-text.js';
import { DocumentSet, type Dialect } from '../../src/formats/openapi/refs.js';
import { ROOT } from './cli.js';

/** A file of test/fixtures/contract. */
export const contractFixture = (name: string): string => join(ROOT, 'test', 'fixtures', 'contract', name);

/** A document's text, dereferenced as the app loads it (own `$ref`s only). */
export function dereferenced(text: string, dialect: Dialect): Record<string, unknown> {
  const root = readOpenApiText(text, 'contract');
  const set = new DocumentSet(pathToFileURL(join(ROOT, 'contract.yaml')).href, root.value, dialect);
  return set.dereference().value as Record<string, unknown>;
}

/** A fixture of test/fixtures/contract compiled. */
export const compiledFixture = (name: string, dialect: Dialect): CompiledContract =>
  compileContract(dereferenced(readFileSync(contractFixture(name), 'utf8'), dialect), dialect);

let seq = 0;

/** A logged request: a GET of / answered 200 with an empty body, with `over` laid on top. */
export function record(
  over: Partial<Omit<RequestRecord, 'response'>> & { response?: Partial<RequestRecord['response']> } = {},
): RequestRecord {
  const { response, ...rest } = over;
  return {
    id: `r${++seq}`,
    projectId: 'p',
    endpointId: null,
    timestamp: '2025-01-01T00:00:00.000Z',
    method: 'GET',
    path: '/',
    query: {},
    headers: {},
    body: '',
    status: response?.status ?? 200,
    durationMs: 1,
    starred: false,
    truncated: false,
    response: { status: 200, headers: {}, body: '', ...response },
    variation: null,
    protocol: 'http/1.1',
    clientAddress: '127.0.0.1',
    ...rest,
  };
}
