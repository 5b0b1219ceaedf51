import fc from 'fast-check';
import { anyText, fuzzedJson, JsonObject, nearValid, toJson } from './arbitraries';
import { FuzzRequest } from './fuzz-request';

/** How the parts of a request are fuzzed: paths, queries, headers and bodies of every kind. */

const UNPAIRED_SURROGATE = /\p{Cs}/u;

/** UTF-8, except that an unpaired surrogate becomes the three bytes no decoder accepts. */
function utf8Bytes(text: string): Buffer {
  if (!UNPAIRED_SURROGATE.test(text)) return Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  for (const character of text) {
    const code = character.codePointAt(0)!;
    parts.push(
      code >= 0xd800 && code <= 0xdfff
        ? Buffer.from([0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)])
        : Buffer.from(character, 'utf8'),
    );
  }
  return Buffer.concat(parts);
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;
/** Percent-encodes every byte but the unreserved ones (RFC 3986 §2.3). */
export function percentEncode(text: string): string {
  let encoded = '';
  for (const byte of utf8Bytes(text)) {
    const character = String.fromCharCode(byte);
    encoded += UNRESERVED.test(character)
      ? character
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

const brokenEscapes = fc.constantFrom(
  ...['%', '%zz', '%C0%80', '%FF', '%E0%80', '%ED%A0%80', '%00', '%0A', '%2F', '%2e%2e', '..'],
  ...['.', ';', '%20', '', '%25', '%u0000', '+'],
);

/** A path segment from any text, or a broken escape; `valid` ones are used most. */
export function pathSegment(valid: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: valid.map(percentEncode), weight: 14 },
    { arbitrary: anyText.map(percentEncode), weight: 4 },
    { arbitrary: brokenEscapes, weight: 1 },
    {
      arbitrary: fc.tuple(valid, brokenEscapes).map(([text, junk]) => percentEncode(text) + junk),
      weight: 1,
    },
  );
}

/** A query string: mostly none, else names the route reads and any others, any values. */
export function query(names: readonly string[] = [], values = anyText): fc.Arbitrary<string> {
  const name = names.length > 0 ? fc.oneof(fc.constantFrom(...names), anyText) : anyText;
  return fc.oneof(
    { arbitrary: fc.constant(''), weight: 6 },
    {
      arbitrary: fc
        .array(fc.tuple(name, values), { minLength: 1, maxLength: 4 })
        .map(
          (pairs) =>
            `?${pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&')}`,
        ),
      weight: 3,
    },
    {
      arbitrary: fc
        .array(fc.oneof(brokenEscapes, fc.constantFrom('&', '=', '?', '#', '[', ']', 'a')))
        .map((junk) => `?${junk.join('')}`),
      weight: 1,
    },
  );
}

// What HTTP/1.1 can carry in a header value: tab, printable ASCII and Latin-1 (obs-text).
const fromCode = (code: number) => String.fromCharCode(code);
const headerCharacter = fc.oneof(
  { arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map(fromCode), weight: 8 },
  { arbitrary: fc.integer({ min: 0x80, max: 0xff }).map(fromCode), weight: 2 },
  { arbitrary: fc.constant('\t'), weight: 1 },
);
export const anyHeaderValue = fc.oneof(
  { arbitrary: fc.string({ unit: headerCharacter, maxLength: 40 }), weight: 10 },
  {
    arbitrary: fc
      .tuple(
        fc.string({ unit: headerCharacter, minLength: 1, maxLength: 3 }),
        fc.integer({ min: 100, max: 20_000 }),
      )
      .map(([piece, n]) => piece.repeat(Math.ceil(n / piece.length)).slice(0, n)),
    weight: 1,
  },
);

/** Headers the server reads somewhere; others are made up. */
const READ_HEADERS = [
  ...['authorization', 'tenant-id', 'accept-language', 'last-event-id', 'if-none-match'],
  ...['accept', 'accept-encoding', 'host', 'content-type', 'origin', 'cookie', 'x-forwarded-for'],
];
// Headers that change how the connection itself works, not what a route reads.
const TRANSPORT_HEADERS = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'expect',
  'te',
  'trailer',
  'upgrade',
]);
const headerName = fc.oneof(
  fc.constantFrom(...READ_HEADERS),
  fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/).filter((name) => !TRANSPORT_HEADERS.has(name)),
);

/** The route's own headers, mostly as they are, else with one changed, removed or added. */
export function headers(valid: Record<string, string>): fc.Arbitrary<Record<string, string>> {
  const changed = fc
    .tuple(
      fc.oneof(fc.constantFrom(...Object.keys(valid), 'accept'), headerName),
      fc.option(anyHeaderValue),
    )
    .map(([name, value]) => {
      const copy = { ...valid };
      if (value === null) delete copy[name];
      else copy[name] = value;
      return copy;
    });
  return fc.oneof({ arbitrary: fc.constant(valid), weight: 6 }, { arbitrary: changed, weight: 4 });
}

export interface FuzzBody {
  contentType: string | undefined;
  bytes: Buffer;
}

const odd = fc.constantFrom('application/json; charset=utf-16', 'application/xml', 'text/html');
const junkBody: fc.Arbitrary<FuzzBody | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.record({
    contentType: fc.oneof(
      fc.constantFrom(undefined, 'application/json', 'text/plain', 'application/octet-stream'),
      fc.constantFrom('application/x-www-form-urlencoded', 'image/png', 'multipart/form-data'),
      odd,
      anyHeaderValue,
    ),
    bytes: fc
      .oneof(
        fc.uint8Array({ maxLength: 512 }),
        anyText.map((text) => utf8Bytes(text)),
      )
      .map((bytes) => Buffer.from(bytes)),
  }),
);

const jsonType = fc.oneof(
  { arbitrary: fc.constant('application/json'), weight: 10 },
  { arbitrary: fc.constantFrom('application/json; charset=utf-8', 'Application/JSON'), weight: 1 },
);

/** A JSON body: mostly near-valid, sometimes valid, sometimes not JSON at all. */
export function jsonBody(valid: fc.Arbitrary<unknown>): fc.Arbitrary<FuzzBody | undefined> {
  return fc.oneof(
    {
      arbitrary: fc.tuple(jsonType, fuzzedJson(valid)).map(([contentType, value]) => ({
        contentType,
        bytes: Buffer.from(toJson(value), 'utf8'),
      })),
      weight: 18,
    },
    { arbitrary: junkBody, weight: 2 },
  );
}

/** Form fields from a JSON-ish value: arrays repeat a field, anything else is written as JSON. */
function formText(value: unknown, encode: (text: string) => string): string {
  const entries =
    value instanceof JsonObject
      ? value.entries
      : value !== null && typeof value === 'object' && !Array.isArray(value)
        ? Object.entries(value)
        : [['', value] as const];
  const field = (key: string, item: unknown): string[] => {
    if (item === undefined) return [];
    if (Array.isArray(item)) return item.flatMap((one) => field(key, one));
    if (item === null) return [encode(key)];
    return [`${encode(key)}=${encode(typeof item === 'string' ? item : toJson(item))}`];
  };
  return entries.flatMap(([key, item]) => field(key, item)).join('&');
}

/** A form body (the token endpoint's): near-valid fields, repeated fields, raw bytes. */
export function formBody(valid: fc.Arbitrary<Record<string, string>>) {
  const form = (encode: (text: string) => string) => (value: unknown) => ({
    contentType: 'application/x-www-form-urlencoded',
    bytes: utf8Bytes(formText(value, encode)),
  });
  return fc.oneof(
    { arbitrary: valid.map(form(percentEncode)), weight: 4 },
    { arbitrary: nearValid(valid).map(form(percentEncode)), weight: 12 },
    { arbitrary: nearValid(valid).map(form((text) => text)), weight: 2 },
    { arbitrary: jsonBody(valid), weight: 1 },
    { arbitrary: junkBody, weight: 1 },
  );
}

/** A query string of fields (an authorization request's): near-valid mostly, now and then any. */
export function fieldsQuery(valid: fc.Arbitrary<Record<string, string>>) {
  const text = (value: unknown) => `?${formText(value, percentEncode)}`;
  return fc.oneof(
    { arbitrary: valid.map(text), weight: 4 },
    { arbitrary: nearValid(valid).map(text), weight: 12 },
    { arbitrary: query(), weight: 2 },
  );
}

const SIGNATURES = [
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from([0xff, 0xd8, 0xff]),
  Buffer.from('GIF89a', 'latin1'),
  Buffer.from('RIFF\0\0\0\0WEBP', 'latin1'),
  Buffer.alloc(0),
];
const imageType = fc.constantFrom('image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/x');

/** Random bytes, mostly after an image signature, as an image upload; now and then not one. */
export const imageBody: fc.Arbitrary<FuzzBody | undefined> = fc.oneof(
  {
    arbitrary: fc
      .tuple(imageType, fc.constantFrom(...SIGNATURES), fc.uint8Array({ maxLength: 4096 }))
      .map(([contentType, signature, rest]) => ({
        contentType,
        bytes: Buffer.concat([signature, rest]),
      })),
    weight: 8,
  },
  {
    arbitrary: fc
      .uint8Array({ maxLength: 512 })
      .map((bytes) => ({ contentType: 'application/octet-stream', bytes: Buffer.from(bytes) })),
    weight: 1,
  },
  { arbitrary: junkBody, weight: 1 },
);

export interface RequestParts {
  method: string;
  /** The path as sent, its parameters already encoded. */
  path: fc.Arbitrary<string>;
  query?: fc.Arbitrary<string>;
  headers: fc.Arbitrary<Record<string, string>>;
  body?: fc.Arbitrary<FuzzBody | undefined>;
  /** The answer may be an event stream that never ends. */
  endless?: boolean;
}

export function fuzzRequest(parts: RequestParts): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(parts.path, parts.query ?? query(), parts.headers, parts.body ?? fc.constant(undefined))
    .map(([path, search, headerValues, body]) => {
      const all = { ...headerValues };
      if (body?.contentType !== undefined && all['content-type'] === undefined) {
        all['content-type'] = body.contentType;
      }
      return new FuzzRequest(parts.method, path + search, all, body?.bytes, parts.endless);
    });
}
