import { checkFakeArguments, grow, spendFake } from './limits.js';

/**
 * Fake data for templates (`{{faker 'person.firstName'}}`, `{{email}}`): @faker-js/faker's
 * English locale, loaded only when a template uses it (the full import costs half a second).
 */

type FakerModule = typeof import('@faker-js/faker/locale/en');
type Faker = FakerModule['faker'];
let faker: Faker | undefined;
let fakerLoading: Promise<void> | undefined;

/** Loads the fake-data library (English locale only: the full import costs half a second). */
export function loadFaker(): Promise<void> {
  return (fakerLoading ??= import('@faker-js/faker/locale/en').then((m) => {
    faker = m.faker;
  }));
}

/** Whether the fake-data library has been loaded (tests check it stays unloaded). */
export const fakerLoaded = (): boolean => faker !== undefined;

/** The faker modules a template may call (`faker 'person.firstName'`). */
const FAKER_MODULES = new Set([
  'airline',
  'animal',
  'book',
  'color',
  'commerce',
  'company',
  'database',
  'datatype',
  'date',
  'finance',
  'food',
  'git',
  'hacker',
  'image',
  'internet',
  'location',
  'lorem',
  'music',
  'number',
  'person',
  'phone',
  'science',
  'string',
  'system',
  'vehicle',
  'word',
]);

/** Short names for common fake data: helper -> faker method. */
export const FAKE_SHORT: Record<string, string> = {
  firstName: 'person.firstName',
  lastName: 'person.lastName',
  fullName: 'person.fullName',
  name: 'person.fullName',
  email: 'internet.email',
  phone: 'phone.number',
  city: 'location.city',
  street: 'location.street',
  address: 'location.streetAddress',
  country: 'location.country',
  zipCode: 'location.zipCode',
  company: 'company.name',
  lorem: 'lorem.sentence',
  sentence: 'lorem.sentence',
  paragraph: 'lorem.paragraph',
  word: 'lorem.word',
  // Mockoon's names
  title: 'person.prefix',
  color: 'color.human',
  hexColor: 'color.rgb',
  countryCode: 'location.countryCode',
  zipcode: 'location.zipCode',
  postcode: 'location.zipCode',
  lat: 'location.latitude',
  long: 'location.longitude',
  domain: 'internet.domainName',
  tld: 'internet.domainSuffix',
  ipv4: 'internet.ipv4',
  ipv6: 'internet.ipv6',
};
export const FAKER_HELPERS = new Set(['faker', ...Object.keys(FAKE_SHORT)]);

type FakeCall = (args: unknown[]) => unknown;
/** Faker methods resolved (and checked) once per name: a render only calls them. */
const fakeCalls = new Map<string, FakeCall>();

function resolveFake(method: string): FakeCall {
  if (!faker) throw new Error('the fake-data library is not loaded');
  const [mod, fn, ...rest] = method.split('.');
  if (!mod || !fn || rest.length || !FAKER_MODULES.has(mod) || fn.startsWith('_') || fn === 'constructor')
    throw new Error(`unknown faker method "${method}" (use module.method, e.g. person.firstName)`);
  const target = (faker as unknown as Record<string, Record<string, unknown>>)[mod]!;
  const call = target[fn];
  if (typeof call !== 'function') throw new Error(`unknown faker method "${method}"`);
  const f = call as (...a: unknown[]) => unknown;
  return (args) => (args.length === 0 ? f.call(target) : f.apply(target, args));
}

/**
 * Calls a fake-data method: its sizes and inputs checked (limits.ts) before it runs, what it
 * asks for spent against the render's budget, its text counted as output.
 */
export function fake(method: string, args: unknown[]): unknown {
  let call = fakeCalls.get(method);
  if (call === undefined) {
    call = resolveFake(method);
    // Names can come from request data ({{faker query.kind}}): the map stays small.
    if (fakeCalls.size >= 256) fakeCalls.clear();
    fakeCalls.set(method, call);
  }
  if (args.length) spendFake(checkFakeArguments(method, args));
  const out = call(args);
  if (typeof out === 'string') grow(out.length);
  return out;
}

/** Seeds the fake data (`{{#seed key}}`); without a seed, back to random. */
export function seedFaker(seed?: number): void {
  faker?.seed(seed);
}
