/**
 * The body field's JSON check: the core's rule (src/core/model/json-body.ts, the same the CLI
 * and MCP warn with), and pretty-printing.
 */
export {
  describeJsonProblem,
  isJsonContentType,
  jsonProblem,
  lineColumn,
  type JsonProblem,
} from '../../../src/core/model/json-body.js';

/** The JSON text pretty-printed with two spaces; throws when it is not JSON. */
export function formatJson(text: string): string {
  return JSON.stringify(JSON.parse(text), null, 2);
}
