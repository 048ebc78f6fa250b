/**
 * Sample values from JSON schemas (OpenAPI 3.0/3.1 and Swagger 2.0 dialects), for response
 * bodies a document gives no example for. Deterministic: the same schema always gives the same
 * value. Circular schemas (already dereferenced into object cycles) stop where they would
 * repeat; a node budget keeps very large schemas fast.
 */

type Schema = Record<string, unknown>;

export interface SampleOptions {
  /** Leave out properties a response never carries (writeOnly) or a request never sends (readOnly). */
  direction?: 'response' | 'request';
  /** From this depth on, only required properties are filled in. Default 4. */
  fullDepth?: number;
  /** Hard depth cap. Default 20. */
  maxDepth?: number;
  /** Maximum number of schema nodes visited for one sample. Default 20 000. */
  budget?: number;
}

const STRING_FORMATS: Record<string, string> = {
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  time: '00:00:00Z',
  duration: 'P1D',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  uri: 'https://example.com',
  url: 'https://example.com',
  'uri-reference': '/path',
  'iri-reference': '/path',
  iri: 'https://example.com',
  'uri-template': 'https://example.com/{id}',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  byte: 'c3RyaW5n',
  binary: '',
  password: 'password',
  'json-pointer': '/a/b',
  regex: '^.*$',
};

const SKIP = Symbol('skip');
type Out = unknown | typeof SKIP;

const isObj = (v: unknown): v is Schema => !!v && typeof v === 'object' && !Array.isArray(v);

class Sampler {
  private visits = 0;
  private readonly stack = new Set<Schema>();
  private readonly direction: 'response' | 'request';
  private readonly fullDepth: number;
  private readonly maxDepth: number;
  private readonly budget: number;

  constructor(options: SampleOptions) {
    this.direction = options.direction ?? 'response';
    this.fullDepth = options.fullDepth ?? 4;
    this.maxDepth = options.maxDepth ?? 20;
    this.budget = options.budget ?? 20_000;
  }

  sample(schema: unknown, depth: number): Out {
    if (schema === true || schema === undefined) return null;
    if (schema === false) return SKIP;
    if (!isObj(schema)) return null;
    if (this.stack.has(schema) || depth > this.maxDepth) return SKIP;
    this.visits++;
    this.stack.add(schema);
    try {
      return this.sampleInner(schema, depth);
    } finally {
      this.stack.delete(schema);
    }
  }

  private sampleInner(s: Schema, depth: number): Out {
    if (s.example !== undefined) return s.example;
    if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
    if (s.const !== undefined) return s.const;
    if (s.default !== undefined) return s.default;
    if (Array.isArray(s.enum) && s.enum.length) return s.enum.find((v) => v !== null) ?? s.enum[0];
    if (Array.isArray(s.allOf) && s.allOf.length) return this.allOf(s, depth);
    for (const key of ['oneOf', 'anyOf'] as const) {
      const options = s[key];
      if (Array.isArray(options) && options.length) {
        const pick =
          options.find(
            (o) =>
              !(
                isObj(o) &&
                (o.type === 'null' || (Array.isArray(o.type) && o.type.every((t) => t === 'null')))
              ),
          ) ?? options[0];
        const base = { ...s };
        delete base[key];
        const picked = this.sample(pick, depth);
        if (picked === SKIP) return SKIP;
        const rest = Object.keys(base).some((k) => k === 'properties' || k === 'type')
          ? this.sampleInner(base, depth)
          : undefined;
        return isObj(picked) && isObj(rest) ? { ...rest, ...picked } : picked;
      }
    }
    const type = this.typeOf(s);
    switch (type) {
      case 'null':
        return null;
      case 'object':
        return this.object(s, depth);
      case 'array':
        return this.array(s, depth);
      case 'string':
        return this.string(s);
      case 'integer':
      case 'number':
        return this.number(s, type);
      case 'boolean':
        return true;
      default:
        return null;
    }
  }

  private typeOf(s: Schema): string | undefined {
    const t = s.type;
    if (typeof t === 'string') return t;
    if (Array.isArray(t)) {
      const nonNull = t.find((x) => x !== 'null');
      return (nonNull as string | undefined) ?? 'null';
    }
    if (isObj(s.properties) || isObj(s.additionalProperties) || s.additionalProperties === true)
      return 'object';
    if (s.items !== undefined || Array.isArray(s.prefixItems)) return 'array';
    if (typeof s.format === 'string' || typeof s.pattern === 'string' || s.minLength !== undefined)
      return 'string';
    if (s.minimum !== undefined || s.maximum !== undefined) return 'number';
    return undefined;
  }

  private allOf(s: Schema, depth: number): Out {
    const parts = (s.allOf as unknown[]).map((p) => this.sample(p, depth)).filter((p) => p !== SKIP);
    const rest = { ...s };
    delete rest.allOf;
    const own = Object.keys(rest).length ? this.sampleInner(rest, depth) : undefined;
    const all = own === undefined || own === null || own === SKIP ? parts : [...parts, own];
    if (all.length === 0) return SKIP;
    if (all.every(isObj)) return Object.assign({}, ...all);
    return all.find((p) => p !== null) ?? null;
  }

  private object(s: Schema, depth: number): Out {
    const out: Record<string, unknown> = {};
    const props = isObj(s.properties) ? s.properties : {};
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    const onlyRequired = depth >= this.fullDepth || this.visits > this.budget;
    for (const [name, prop] of Object.entries(props)) {
      if (onlyRequired && !required.has(name)) continue;
      if (isObj(prop)) {
        if (this.direction === 'response' && prop.writeOnly === true) continue;
        if (this.direction === 'request' && prop.readOnly === true) continue;
      }
      const value = this.sample(prop, depth + 1);
      if (value === SKIP) {
        if (required.has(name)) out[name] = null;
        continue;
      }
      out[name] = value;
    }
    if (Object.keys(props).length === 0 && isObj(s.additionalProperties) && !onlyRequired) {
      const value = this.sample(s.additionalProperties, depth + 1);
      if (value !== SKIP) out.key = value;
    }
    return out;
  }

  private array(s: Schema, depth: number): Out {
    const out: unknown[] = [];
    if (Array.isArray(s.prefixItems)) {
      for (const item of s.prefixItems) {
        const v = this.sample(item, depth + 1);
        if (v === SKIP) break;
        out.push(v);
      }
      return out;
    }
    if (s.items === undefined) return out;
    const item = this.sample(s.items, depth + 1);
    if (item === SKIP) return out;
    const count = Math.min(Math.max(typeof s.minItems === 'number' ? s.minItems : 1, 1), 10);
    for (let i = 0; i < count; i++) out.push(item);
    return out;
  }

  private string(s: Schema): string {
    let value =
      typeof s.format === 'string' && s.format in STRING_FORMATS ? STRING_FORMATS[s.format]! : 'string';
    const min = typeof s.minLength === 'number' ? s.minLength : 0;
    const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
    while (value.length < min) value += value || 'a';
    if (value.length > max) value = value.slice(0, max);
    return value;
  }

  private number(s: Schema, type: string): number {
    const int = type === 'integer';
    let lower: number | undefined;
    let upper: number | undefined;
    if (typeof s.minimum === 'number')
      lower = s.exclusiveMinimum === true ? s.minimum + (int ? 1 : 0.5) : s.minimum;
    if (typeof s.exclusiveMinimum === 'number') lower = s.exclusiveMinimum + (int ? 1 : 0.5);
    if (typeof s.maximum === 'number')
      upper = s.exclusiveMaximum === true ? s.maximum - (int ? 1 : 0.5) : s.maximum;
    if (typeof s.exclusiveMaximum === 'number') upper = s.exclusiveMaximum - (int ? 1 : 0.5);
    let value = lower ?? (upper !== undefined && upper < 0 ? upper : 0);
    if (upper !== undefined && value > upper) value = upper;
    if (int) value = Math.ceil(value);
    if (typeof s.multipleOf === 'number' && s.multipleOf > 0 && value % s.multipleOf !== 0) {
      value = Math.ceil(value / s.multipleOf) * s.multipleOf;
    }
    return value;
  }
}

/** A sample value for `schema`; `null` when nothing can be said. */
export function sampleFromSchema(schema: unknown, options: SampleOptions = {}): unknown {
  const value = new Sampler(options).sample(schema, 0);
  return value === SKIP ? null : value;
}
