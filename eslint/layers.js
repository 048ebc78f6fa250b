/**
 * An ESLint rule that enforces the layer directions of docs/architecture.md:
 *
 *   core  <-  formats / store / runtime  <-  app  <-  adapters (cli, mcp, api)
 *
 * and the HTTP edge (http: listen, the guard, the body reader, the problem writer) beside the
 * runtime, on the core, for every layer that serves HTTP (the mock server, the app, MCP, the API).
 * The license service (license-service) stands apart, on the core only: nothing imports it.
 *
 * A module may import from its own layer and from the layers listed for it below; anything else
 * (a store importing the runtime, the app importing an adapter, an adapter reaching into a store)
 * is reported. Imports are resolved against the importing file, so the rule holds however deep
 * the folders are. Tests are not checked: they look at every layer.
 */
import { dirname, relative, resolve, sep } from 'node:path';

export const ALLOWED = {
  core: [],
  formats: ['core'],
  store: ['core'],
  http: ['core'],
  runtime: ['core', 'http'],
  app: ['core', 'formats', 'store', 'runtime', 'http'],
  mcp: ['core', 'app', 'runtime', 'http'],
  api: ['core', 'app', 'runtime', 'http'],
  cli: ['core', 'app', 'runtime', 'mcp', 'api', 'http'],
  // The license service (`npm run license-service`): a deployable component of its own, on the core only.
  'license-service': ['core'],
};

/** The layer of an absolute path: the first folder under src/, when it is one of the layers. */
function layerOf(srcRoot, file) {
  const rel = relative(srcRoot, file);
  if (rel.startsWith('..')) return undefined;
  const first = rel.split(sep)[0];
  return first in ALLOWED ? first : undefined;
}

export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports follow the layer directions of docs/architecture.md' },
    schema: [{ type: 'object', properties: { srcRoot: { type: 'string' } }, additionalProperties: false }],
    messages: {
      wrongWay:
        '{{from}} may not import {{to}} ({{source}}): {{from}} sits {{where}}. Allowed from {{from}}: {{allowed}}. Move the code to the right layer (docs/architecture.md).',
    },
  },
  create(context) {
    const srcRoot = resolve(context.cwd, context.options[0]?.srcRoot ?? 'src');
    const from = layerOf(srcRoot, resolve(context.cwd, context.filename));
    if (!from) return {};
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const to = layerOf(srcRoot, resolve(dirname(resolve(context.cwd, context.filename)), source));
      if (!to || to === from || ALLOWED[from].includes(to)) return;
      const below = ALLOWED[to].includes(from);
      context.report({
        node,
        messageId: 'wrongWay',
        data: {
          from,
          to,
          source,
          where: below ? `below ${to}` : `beside ${to}`,
          allowed: ALLOWED[from].join(', ') || 'nothing outside core',
        },
      });
    };
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};

export default { rules: { layers: layersRule } };
