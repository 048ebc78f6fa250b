import type * as z from 'zod';
import { MockdevError } from '../core/errors.js';
import { describeIssue, valueAt } from '../core/validate.js';
import type { ToolDefinition } from './tools/define.js';

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Maps common alternative argument names to the documented ones (the documented name wins). */
export function normalizeArguments(tool: ToolDefinition, raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null) return {};
  if (!isPlainObject(raw)) {
    throw new MockdevError('INVALID_ARGUMENT', `The arguments of ${tool.name} must be a JSON object`, {
      hint: `Pass an object such as ${exampleArguments(tool)}`,
    });
  }
  const args = { ...raw };
  for (const [alias, target] of Object.entries(tool.aliases ?? {})) {
    if (alias in args && !(target in args) && !(alias in tool.input.shape)) {
      args[target] = args[alias];
      delete args[alias];
    }
  }
  return args;
}

function exampleArguments(tool: ToolDefinition): string {
  const required = Object.entries(tool.input.shape)
    .filter(([, field]) => !(field as z.ZodType).safeParse(undefined).success)
    .map(([key]) => `"${key}": …`);
  return `{${required.join(', ')}}`;
}

/**
 * Checks arguments against the tool's input schema. A failure is one INVALID_ARGUMENT error
 * naming each bad field, the value given and the rule, so the caller knows what to fix.
 */
export function parseArguments(tool: ToolDefinition, raw: unknown): Record<string, unknown> {
  const args = normalizeArguments(tool, raw);
  const result = tool.input.safeParse(args);
  if (result.success) return result.data as Record<string, unknown>;
  const problems = result.error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.map(String).join('.');
    const top = tool.input.shape[String(issue.path[0])] as z.ZodType | undefined;
    if (issue.code === 'invalid_type' && valueAt(args, issue.path) === undefined && issue.path.length > 0) {
      const about = issue.path.length === 1 ? top?.description : undefined;
      return `missing required field "${path}"${about ? ` (${about.replace(/\.$/, '')})` : ''}`;
    }
    return `invalid ${describeIssue(issue, args, 'arguments', tool.input)}`;
  });
  const text = problems.join('; ');
  throw new MockdevError(
    'INVALID_ARGUMENT',
    `${tool.name}: ${text.charAt(0).toUpperCase()}${text.slice(1)}`,
    {
      hint: `Fix the arguments and call ${tool.name} again (its input schema describes every field)`,
      details: {
        issues: result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
      },
    },
  );
}
