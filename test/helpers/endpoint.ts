import type { Endpoint } from '../../src/core/model/endpoint.js';

/** A mock endpoint with the model's defaults (GET /<id>, 200, its id as JSON). */
export const endpointOf = (id: string, extra: Partial<Endpoint> = {}): Endpoint => ({
  id,
  name: id,
  method: 'GET',
  path: `/${id}`,
  status: 200,
  headers: {},
  body: `{"id":"${id}"}`,
  contentType: 'application/json',
  delay: 0,
  enabled: true,
  kind: 'mock',
  variations: [],
  ...extra,
});
