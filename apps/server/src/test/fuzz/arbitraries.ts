import fc from 'fast-check';

/**
 * The building blocks of the fuzzing: text over the whole of Unicode (control characters,
 * unpaired surrogates and very long strings included), JSON of every type with numbers at the
 * edges and awkward keys, and near-valid values: a valid value with one part changed, so that
 * most requests get past the validator and reach the services.
 */

const fromCode = (code: number) => String.fromCharCode(code);
const controlCharacter = fc
  .oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }))
  .map(fromCode);
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map(fromCode);
const awkwardCharacter = fc.constantFrom(
  ...['\u2028', '\u2029', '\uFEFF', '\uFFFD', '\uFFFE', '\uFFFF', '\u202E', '\u200B', '\u0301'],
  ...['\u{1F600}', '\u{10FFFF}', '%', '_', '\\', '"', "'", '*', '/', '.', ' ', '<', '&', '=', '+'],
  ...['?', '#', ';', ',', '@', ':', '{', '[', '$1', '${x}', '\\u0000'],
);

/** One character (or two for a surrogate pair) from anywhere in UTF-16. */
// NUL on its own: the one character PostgreSQL refuses in text, so a 500 waits behind it.
export const anyCharacter = fc.oneof(
  { arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }), weight: 5 },
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 3 },
  { arbitrary: fc.constant('\u0000'), weight: 2 },
  { arbitrary: controlCharacter, weight: 2 },
  { arbitrary: loneSurrogate, weight: 1 },
  { arbitrary: awkwardCharacter, weight: 2 },
);

/** A piece repeated to 200 characters and up to 300,000 (beyond every bound and the body limit). */
const longText = fc
  .tuple(
    fc.string({ unit: anyCharacter, minLength: 1, maxLength: 4 }),
    fc.oneof(
      { arbitrary: fc.integer({ min: 200, max: 5_000 }), weight: 4 },
      { arbitrary: fc.integer({ min: 5_000, max: 300_000 }), weight: 1 },
    ),
  )
  .map(([piece, length]) => piece.repeat(Math.ceil(length / piece.length)).slice(0, length));

export const anyText = fc.oneof(
  { arbitrary: fc.string({ unit: anyCharacter, maxLength: 30 }), weight: 12 },
  { arbitrary: longText, weight: 1 },
);

/** A valid text with one odd character put somewhere in it. */
export const withOddCharacter = (valid: fc.Arbitrary<string>) =>
  fc
    .tuple(valid, anyCharacter, fc.nat())
    .map(
      ([text, odd, at]) =>
        text.slice(0, at % (text.length + 1)) + odd + text.slice(at % (text.length + 1)),
    );

/** JSON text written as it is: numbers JSON can carry but JavaScript cannot (1e400). */
export class RawJson {
  constructor(readonly text: string) {}
}
/** An object as its list of entries: keeps `__proto__` keys and repeated keys. */
export class JsonObject {
  constructor(readonly entries: readonly (readonly [string, unknown])[]) {}
}

export const edgeNumber = fc.oneof(
  fc.constantFrom(0, -0, 1, -1, 0.5, -0.5, 2, 10, 100, 101, 1_000_000, 1_000_001),
  fc.constantFrom(2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, -(2 ** 53)),
  fc.constantFrom(1e21, 1e308, -1e308, Number.MIN_VALUE, Number.EPSILON, 0.1 + 0.2),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc
    .constantFrom('1e400', '-1e400', '1e-400', '-0.0', '123456789012345678901234567890', '1E2')
    .map((text) => new RawJson(text)),
);

const jsonKey = fc.oneof(
  { arbitrary: fc.string({ unit: anyCharacter, maxLength: 12 }), weight: 3 },
  {
    arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'name', ''),
    weight: 1,
  },
);
const jsonScalar = fc.oneof(
  { arbitrary: anyText, weight: 4 },
  { arbitrary: edgeNumber, weight: 3 },
  { arbitrary: fc.boolean(), weight: 1 },
  { arbitrary: fc.constant(null), weight: 1 },
);

/** Any JSON value: scalars, arrays and nested objects (with awkward and repeated keys). */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec<{
  value: unknown;
  array: unknown[];
  object: JsonObject;
}>((tie) => ({
  value: fc.oneof(
    { maxDepth: 3, depthSize: 'small' },
    { arbitrary: jsonScalar, weight: 6 },
    { arbitrary: tie('array'), weight: 1 },
    { arbitrary: tie('object'), weight: 1 },
  ),
  array: fc.array(tie('value'), { maxLength: 5 }),
  object: fc.array(fc.tuple(jsonKey, tie('value')), { maxLength: 5 }).map((e) => new JsonObject(e)),
})).value;

/** JSON.stringify, plus RawJson and JsonObject; undefined members are left out. */
export function toJson(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  const member = ([key, item]: readonly [string, unknown]) =>
    `${JSON.stringify(key)}:${toJson(item)}`;
  if (value instanceof JsonObject) return `{${value.entries.map(member).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map((item) => toJson(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    return `{${entries.map(member).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

type Path = (string | number)[];

/** Every place in a plain JSON value: the root, each member and each element. */
function placesIn(value: unknown, at: Path = []): Path[] {
  const places = [at];
  if (Array.isArray(value)) value.forEach((item, i) => places.push(...placesIn(item, [...at, i])));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) places.push(...placesIn(item, [...at, key]));
  }
  return places;
}

function replaceAt(value: unknown, path: Path, change: (old: unknown) => unknown): unknown {
  if (path.length === 0) return change(value);
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  copy[head!] = replaceAt(copy[head!], rest, change);
  return copy;
}

const mutation = fc.oneof(
  { arbitrary: anyJson.map((to) => () => to), weight: 4 },
  { arbitrary: fc.constant(() => undefined), weight: 1 },
  {
    arbitrary: fc.tuple(anyCharacter, fc.nat()).map(([odd, at]) => (old: unknown) => {
      if (typeof old !== 'string') return odd;
      const i = at % (old.length + 1);
      return old.slice(0, i) + odd + old.slice(i);
    }),
    weight: 4,
  },
  {
    arbitrary: fc.tuple(jsonKey, anyJson).map(
      ([key, item]) =>
        (old: unknown) =>
          old !== null && typeof old === 'object' && !Array.isArray(old)
            ? new JsonObject([...Object.entries(old), [key, item]])
            : item,
    ),
    weight: 1,
  },
);

/**
 * A valid value with one member, element or the whole replaced, removed or given an odd
 * character; half the time the place is one of its texts, where the services are reached.
 */
export function nearValid(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(valid, fc.nat(), fc.boolean(), mutation).map(([value, pick, text, change]) => {
    const all = placesIn(value);
    const texts = all.filter((path) => typeof valueAt(value, path) === 'string');
    const places = text && texts.length > 0 ? texts : all;
    return replaceAt(value, places[pick % places.length]!, change);
  });
}

const valueAt = (value: unknown, path: Path): unknown =>
  path.reduce<unknown>((at, key) => (at as Record<string | number, unknown>)[key], value);

/** Mostly near-valid, some valid as they are, some anything at all. */
export function fuzzedJson(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: valid, weight: 2 },
    { arbitrary: nearValid(valid), weight: 7 },
    { arbitrary: anyJson, weight: 1 },
  );
}

/** Ids that exist (most of the time), any other id, or an id in another case. */
export function idFrom(ids: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: ids.length > 0 ? fc.constantFrom(...ids) : fc.uuid(), weight: 8 },
    { arbitrary: fc.uuid(), weight: 1 },
    { arbitrary: fc.uuid().map((id) => id.toUpperCase()), weight: 1 },
  );
}

/** Text a person would type: printable graphemes of any script, not blank. */
export const typedText = (maxLength: number) =>
  fc.string({ unit: 'grapheme', minLength: 1, maxLength }).filter((text) => text.trim().length > 0);

/** A fresh, valid e-mail address at the domain. */
export const emailAt = (domain: string) =>
  fc
    .tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,15}$/), fc.nat())
    .map(([local, n]) => `${local}${n}@${domain}`);
