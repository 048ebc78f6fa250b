/**
 * Mockoon environments in the shape Mockoon writes them (packages/commons models: Environment,
 * Route, RouteResponse, ResponseRule, DataBucket), for the converter's tests and the import's
 * integration test.
 */

type Json = Record<string, unknown>;

let n = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;

export function mockoonResponse(fields: Json = {}): Json {
  return {
    uuid: uuid(),
    body: '{}',
    latency: 0,
    statusCode: 200,
    label: '',
    headers: [],
    bodyType: 'INLINE',
    filePath: '',
    databucketID: '',
    sendFileAsBody: false,
    rules: [],
    rulesOperator: 'OR',
    disableTemplating: false,
    fallbackTo404: false,
    default: false,
    crudKey: 'id',
    callbacks: [],
    ...fields,
  };
}

export function mockoonRoute(fields: Json = {}): Json {
  return {
    uuid: uuid(),
    type: 'http',
    documentation: '',
    method: 'get',
    endpoint: '',
    responses: [mockoonResponse({ default: true })],
    responseMode: null,
    streamingMode: null,
    streamingInterval: 0,
    ...fields,
  };
}

export function mockoonEnvironment(routes: Json[], fields: Json = {}): Json {
  return {
    uuid: uuid(),
    lastMigration: 33,
    name: 'Demo API',
    endpointPrefix: '',
    latency: 0,
    port: 3001,
    hostname: '',
    folders: [],
    routes,
    rootChildren: routes.map((r) => ({ type: 'route', uuid: r.uuid })),
    proxyMode: false,
    proxyHost: '',
    proxyRemovePrefix: false,
    tlsOptions: {
      enabled: false,
      type: 'CERT',
      pfxPath: '',
      certPath: '',
      keyPath: '',
      caPath: '',
      passphrase: '',
    },
    cors: false,
    headers: [{ key: 'Content-Type', value: 'application/json' }],
    proxyReqHeaders: [{ key: '', value: '' }],
    proxyResHeaders: [{ key: '', value: '' }],
    data: [],
    callbacks: [],
    ...fields,
  };
}

export const rule = (
  target: string,
  modifier: string,
  operator: string,
  value = '',
  invert = false,
): Json => ({
  target,
  modifier,
  value,
  invert,
  operator,
});
