import fc from 'fast-check';
import { USER_IMPORT_ROW_STATUSES } from '@tc/contract/user-import';
import { anyText, emailAt } from './arbitraries';
import type { FuzzRequest } from './fuzz-request';
import { bearer, pageRequest } from './generators-entities';
import { fuzzRequest, jsonBody, pathSegment, type FuzzBody } from './http-parts';
import type { FuzzWorld } from './world';

const API = '/api/v1.0';

/** A CSV cell: typed text, any text (control characters, quotes, delimiters), or empty. */
const cell = fc.oneof(
  { arbitrary: fc.constantFrom('Member', 'Admin', 'active', 'inactive', ''), weight: 2 },
  { arbitrary: anyText, weight: 3 },
  { arbitrary: anyText.map((text) => `"${text.replaceAll('"', '""')}"`), weight: 1 },
);

const csvType = fc.constantFrom(
  'text/csv',
  'text/csv; charset=utf-8',
  'text/csv; charset=windows-1252',
  'Text/CSV',
  'text/plain',
  'application/octet-stream',
);

/**
 * An uploaded file: a header and rows of near-valid users, odd cells, odd delimiters and
 * line ends, a byte order mark or none; now and then raw bytes (not UTF-8, NUL, binary).
 */
function csvBody(domain: string): fc.Arbitrary<FuzzBody | undefined> {
  const row = fc.oneof(
    fc
      .tuple(anyText, anyText, emailAt(domain), fc.constantFrom('Member', 'Admin', 'nobody'))
      .map((cells) => cells.join(',')),
    fc
      .tuple(fc.array(cell, { maxLength: 60 }), fc.constantFrom(',', ';', '\t'))
      .map(([cells, delimiter]) => cells.join(delimiter)),
  );
  const text = fc
    .tuple(
      fc.constantFrom('first name,last name,e-mail,role', 'Vorname;Nachname;E-Mail;Rolle', ''),
      fc.array(row, { maxLength: 8 }),
      fc.constantFrom('\n', '\r\n', '\r'),
      fc.boolean(),
    )
    .map(([header, rows, end, bom]) => `${bom ? '\uFEFF' : ''}${[header, ...rows].join(end)}`);
  return fc.oneof(
    {
      arbitrary: fc
        .tuple(csvType, text)
        .map(([contentType, body]) => ({ contentType, bytes: Buffer.from(body, 'utf8') })),
      weight: 8,
    },
    {
      arbitrary: fc
        .tuple(csvType, fc.uint8Array({ maxLength: 2048 }))
        .map(([contentType, bytes]) => ({ contentType, bytes: Buffer.from(bytes) })),
      weight: 2,
    },
    { arbitrary: fc.constant(undefined), weight: 1 },
  );
}

const columnIndex = fc.oneof(fc.integer({ min: -1, max: 60 }), fc.constant(null));

/** One request generator per route of the user-import feature, the raw upload among them. */
export function userImportGenerators(world: FuzzWorld): Record<string, fc.Arbitrary<FuzzRequest>> {
  const auth = bearer(world.adminToken);
  const id = pathSegment(fc.uuid());
  const at = (suffix: string) => id.map((one) => `${API}/user-imports/${one}${suffix}`);
  const mapping = fc.record({
    mapping: fc.record({
      firstName: columnIndex,
      lastName: columnIndex,
      email: columnIndex,
      role: columnIndex,
      status: columnIndex,
    }),
    sendInvitations: fc.boolean(),
  });
  return {
    [`POST ${API}/user-imports`]: fuzzRequest({
      method: 'POST',
      path: fc.constant(`${API}/user-imports`),
      headers: auth,
      body: csvBody(world.tenant.domain),
    }),
    [`GET ${API}/user-imports/:id`]: fuzzRequest({ method: 'GET', path: at(''), headers: auth }),
    [`PUT ${API}/user-imports/:id/mapping`]: fuzzRequest({
      method: 'PUT',
      path: at('/mapping'),
      headers: auth,
      body: jsonBody(mapping),
    }),
    [`POST ${API}/user-imports/:id/rows`]: fuzzRequest({
      method: 'POST',
      path: at('/rows'),
      headers: auth,
      body: jsonBody(
        pageRequest(['line'], { status: fc.constantFrom(...USER_IMPORT_ROW_STATUSES) }),
      ),
    }),
    [`POST ${API}/user-imports/:id/apply`]: fuzzRequest({
      method: 'POST',
      path: at('/apply'),
      headers: auth,
    }),
    [`GET ${API}/user-imports/:id/result`]: fuzzRequest({
      method: 'GET',
      path: at('/result'),
      headers: auth,
    }),
  };
}
