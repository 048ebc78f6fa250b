import { linearRegexProblem } from '../linear-regex.js';
import { shift } from './dates-wiremock.js';
import { hasOwn } from './helpers.js';
import { ALPHABETS, RANGE_MAX } from './helpers-wiremock.js';
import { parseJsonPath } from './json-path.js';
import { FAKE_LENGTH_MAX } from './limits.js';

/**
 * What a WireMock helper's literal arguments already get wrong, found at save (literals.ts): a
 * pattern the linear-time engine cannot run, a JSONPath it cannot read, an offset, a random text's
 * length or type, a range over its limit. `params` and `hash` hold literals, else undefined.
 */
export function wiremockLiteralProblem(
  name: string,
  params: readonly unknown[],
  hash: Readonly<Record<string, unknown>>,
): string | undefined {
  const attempt = (check: () => unknown): string | undefined => {
    try {
      check();
      return undefined;
    } catch (e) {
      return `${name}: ${(e as Error).message.replace(/^\w+: /, '')}`;
    }
  };
  const str = (v: unknown): v is string => typeof v === 'string';
  switch (name) {
    case 'regexExtract':
    case 'matches': {
      const p = params[1];
      const why = str(p) ? linearRegexProblem(p) : undefined;
      return why && `${name}: the pattern ${why}`;
    }
    case 'jsonPath':
      return str(params[1]) ? attempt(() => parseJsonPath(params[1] as string)) : undefined;
    case 'now':
    case 'date':
      return str(hash.offset) ? attempt(() => shift(new Date(0), hash.offset)) : undefined;
    case 'randomValue': {
      const length = hash.length;
      if (typeof length === 'number' && !(length >= 0 && length <= FAKE_LENGTH_MAX))
        return `randomValue: a length of ${length} is outside 0 to ${FAKE_LENGTH_MAX}`;
      const type = str(hash.type) ? hash.type.toUpperCase() : undefined;
      return type !== undefined && type !== 'UUID' && !hasOwn(ALPHABETS, type)
        ? `randomValue: type ${JSON.stringify(hash.type)} is not one of ${Object.keys(ALPHABETS).join(', ')}, UUID`
        : undefined;
    }
    case 'range': {
      const [lo, hi] = params;
      return typeof lo === 'number' && typeof hi === 'number' && hi - lo + 1 > RANGE_MAX
        ? `range: more than ${RANGE_MAX} numbers from ${lo} to ${hi}`
        : undefined;
    }
    default:
      return undefined;
  }
}
