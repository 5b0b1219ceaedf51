import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anyJson, anyText } from '../../test/fuzz/arbitraries';
import { percentEncode } from '../../test/fuzz/http-parts';
import { startTestServer, type TestServer } from '../../test/harness';
import { newUser, patchOf, scimTenant } from '../../test/helpers/scim';

// With a valid SCIM token, any filter, body or PATCH reaches the real logic: the answer is a
// SCIM answer below 500, whatever comes (the route fuzzing sends no such token).

let server: TestServer;
let scim: Awaited<ReturnType<typeof scimTenant>>;
let userId: string;
let groupId: string;

beforeAll(async () => {
  server = await startTestServer();
  scim = await scimTenant(server);
  userId = (await scim.call('POST', '/Users', newUser('fuzzed@example.org'))).body.id;
  groupId = (await scim.call('POST', '/Groups', { displayName: 'Fuzzed' })).body.id;
});
afterAll(() => server?.close());

const attribute = fc.constantFrom(
  'userName',
  'emails',
  'emails.value',
  'emails[type eq "work"].value',
  'name.givenName',
  'name',
  'externalId',
  'active',
  'members',
  'members[value eq "x"]',
  'displayName',
  'meta.lastModified',
  'id',
  'groups',
);
const value = fc.oneof(anyText, fc.boolean(), fc.integer(), anyJson, fc.constant(null));
const operation = fc.record(
  {
    op: fc.oneof(fc.constantFrom('add', 'Replace', 'remove', 'REMOVE'), anyText),
    path: fc.oneof(attribute, anyText),
    value: fc.oneof(value, fc.array(fc.record({ value: fc.oneof(anyText, fc.uuid()) }))),
  },
  { requiredKeys: ['op'] },
);
const filter = fc.oneof(
  anyText,
  fc
    .tuple(attribute, fc.constantFrom('eq', 'ne', 'co', 'sw', 'ew', 'gt', 'le', 'pr'), anyText)
    .map(([path, op, text]) => `${path} ${op} ${JSON.stringify(text)}`),
);

async function expectScimAnswer(method: string, path: string, body?: unknown) {
  const answer = await scim.call(method, path, body);
  expect(
    answer.status,
    `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(answer.body)}`,
  ).toBeLessThan(500);
  // Node's HTTP parser refuses a request line too long (414, 431) before any route runs.
  if (answer.status >= 400 && answer.status !== 414 && answer.status !== 431) {
    expect(answer.body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
  }
}

describe('SCIM under fuzzed input', () => {
  it('filters, sorting and paging', async () => {
    await fc.assert(
      fc.asyncProperty(
        filter,
        anyText,
        fc.constantFrom('Users', 'Groups'),
        async (text, sort, kind) => {
          const query = `filter=${percentEncode(text)}&sortBy=${percentEncode(sort)}&count=${percentEncode(sort)}`;
          await expectScimAnswer('GET', `/${kind}?${query}`);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('PATCH operations on a user and a group', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { maxLength: 3 }), async (operations) => {
        await expectScimAnswer('PATCH', `/Users/${userId}`, patchOf(...operations));
        await expectScimAnswer('PATCH', `/Groups/${groupId}`, patchOf(...operations));
      }),
      { numRuns: 150 },
    );
  });

  it('POST and PUT bodies', async () => {
    const body = fc.oneof(
      anyJson,
      fc.record(
        {
          userName: fc.oneof(anyText, fc.emailAddress()),
          name: fc.oneof(anyJson, fc.record({ givenName: anyText })),
          emails: anyJson,
          active: value,
          externalId: value,
          displayName: anyText,
          members: anyJson,
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(body, async (payload) => {
        await expectScimAnswer('POST', '/Users', payload);
        await expectScimAnswer('PUT', `/Users/${userId}`, payload);
        await expectScimAnswer('POST', '/Groups', payload);
      }),
      { numRuns: 100 },
    );
  });
});
