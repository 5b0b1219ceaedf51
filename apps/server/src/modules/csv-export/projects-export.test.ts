import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTenant, signIn, uniqueName, type TenantFixture } from '../../test/fixtures';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../../test/harness';
import { projectPageRequestSchema } from '@tc/contract/projects';
import { projectExportBatches } from '../projects';
import { insertRole } from '../roles';
import { insertUser } from '../users';

/**
 * Over HTTP on either engine: the projects export holds exactly the rows that paging through
 * POST /projects/page shows for the same filter, search and sort, in the same order (sorts by
 * columns a project may leave empty included), and nothing of another tenant.
 */
let server: TestServer;
let tenant: TenantFixture;
let other: TenantFixture;
let token: string;
let ownerIds: string[];

const HEADER = [
  'Project number',
  'Name',
  'Short name',
  'Description',
  'Owner',
  'Budget',
  'Country',
  'City',
  'Postal code',
  'Address',
  'People',
  'Created',
];
const COUNTRIES = ['DE', null, 'FR', 'IT', null, 'CH'];
const NAMES = ['Apollo', 'Borealis', 'Cassini', 'apollo', 'Delta', 'Échelle', '@launch'];

function create(bearer: string, body: object) {
  return api(server, '/projects/create', bearer, { method: 'POST', body: JSON.stringify(body) });
}

beforeAll(async () => {
  server = await startTestServer();
  const db = server.database.db;
  tenant = await createTenant(db);
  other = await createTenant(db);
  token = (await signIn(server, tenant.name, tenant.adminEmail, TEST_PASSWORD)).access_token;
  ownerIds = [tenant.adminId];
  for (const [first, last] of [
    ['Zora', 'Quist'],
    ['Ben', 'Adler'],
  ] as const) {
    ownerIds.push(
      await insertUser(db, {
        tenantId: tenant.tenantId,
        email: `${first.toLowerCase()}@projects-export.test`,
        firstName: first,
        lastName: last,
        roleId: tenant.memberRoleId,
      }),
    );
  }
  for (let i = 0; i < 24; i += 1) {
    const response = await create(token, {
      name: `${NAMES[i % NAMES.length]} ${i % 5}`,
      projectNumber: `P-${String(i).padStart(3, '0')}`,
      description: i % 2 === 0 ? `Line one\nline "two", ${i}` : null,
      ownerId: i % 4 === 3 ? null : ownerIds[i % ownerIds.length],
      budget: `${(i * 37) % 11}000.50`,
      country: COUNTRIES[i % COUNTRIES.length],
      peopleIds: i % 3 === 0 ? ownerIds.slice(1) : [],
    });
    expect(response.status).toBe(201);
  }
  const otherToken = (await signIn(server, other.name, other.adminEmail, TEST_PASSWORD))
    .access_token;
  expect((await create(otherToken, { name: 'Apollo secret', projectNumber: 'X-1' })).status).toBe(
    201,
  );
}, 60_000);
afterAll(() => server?.close());

function exportProjects(body: unknown, bearer = token) {
  return api(server, '/projects/export', bearer, { method: 'POST', body: JSON.stringify(body) });
}

async function records(body: unknown): Promise<string[][]> {
  const response = await exportProjects(body);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-disposition')).toMatch(/filename="projects-[\d-]+\.csv"/);
  // response.text() would drop the byte order mark: read the bytes.
  const bytes = Buffer.from(await response.arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return parse(bytes.subarray(3).toString('utf8'), { record_delimiter: '\r\n' });
}

interface PageRow {
  id: string;
  name: string;
  projectNumber: string;
  owner: string | null;
  country: string | null;
  budget: string;
  description: string | null;
  people: Array<{ name: string }>;
}

async function pagedRows(request: object): Promise<PageRow[]> {
  const rows: PageRow[] = [];
  for (let pageIndex = 1; ; pageIndex += 1) {
    const response = await api(server, '/projects/page', token, {
      method: 'POST',
      body: JSON.stringify({ ...request, pageIndex, pageSize: 5 }),
    });
    expect(response.status).toBe(200);
    const page = (await response.json()).data as { data: PageRow[] };
    rows.push(...page.data);
    if (page.data.length < 5) return rows;
  }
}

/** Name and number tell the rows apart in the file (a name may be written with an apostrophe). */
const keyOf = (name: string, number: string) => `${name}|${number}`;
const fileKeys = (file: string[][]) => file.slice(1).map((r) => keyOf(r[1]!, r[0]!));
const safe = (text: string) => (/^[=+\-@]/.test(text) ? `'${text}` : text);

describe('POST /projects/export', () => {
  it('writes the header and each project as the list shows it', async () => {
    const file = await records({});
    expect(file[0]).toEqual(HEADER);
    const paged = await pagedRows({});
    expect(file).toHaveLength(25);
    expect(fileKeys(file)).toEqual(paged.map((row) => keyOf(safe(row.name), row.projectNumber)));
    const withPeople = paged.find((row) => row.people.length === 2 && row.description)!;
    const record = file.find(
      (r) => r[1] === safe(withPeople.name) && r[0] === withPeople.projectNumber,
    )!;
    expect(record[3]).toBe(withPeople.description);
    expect(record[4]).toBe(withPeople.owner ?? '');
    expect(record[5]).toBe(withPeople.budget);
    expect(record[10]).toBe(withPeople.people.map((person) => person.name).join('; '));
    expect(record[11]).toMatch(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/);
  });

  const requests = [
    { filter: {}, listSort: { field: 'country', direction: 0 } },
    { filter: {}, listSort: { field: 'country', direction: 1 } },
    { filter: {}, listSort: { field: 'owner', direction: 0 } },
    { filter: { search: 'apollo' }, listSort: { field: 'owner', direction: 1 } },
    { filter: { country: 'de' }, listSort: { field: 'budget', direction: 1 } },
    { filter: { search: 'p-00' }, listSort: { field: 'projectNumber', direction: 0 } },
    { filter: {}, listSort: { field: 'createdAt', direction: 1 } },
  ];
  it.each(requests)('holds the rows of the pages for $filter by $listSort', async (request) => {
    const paged = await pagedRows(request);
    expect(paged.length).toBeGreaterThan(0);
    const file = await records(request);
    expect(fileKeys(file)).toEqual(paged.map((row) => keyOf(safe(row.name), row.projectNumber)));
    // Batches of 2: each starts after the last row of the one before, past empty countries
    // and owners.
    const batched: string[] = [];
    const batches = projectExportBatches(
      server.database.db,
      tenant.tenantId,
      projectPageRequestSchema.parse(request),
      2,
    );
    for await (const batch of batches) batched.push(...batch.map((row) => row.id));
    expect(batched).toEqual(paged.map((row) => row.id));
  });

  it("keeps to the owner filter and never holds another tenant's projects", async () => {
    const mine = await records({ filter: { ownerId: ownerIds[1] } });
    expect(mine.slice(1).every((record) => record[4] === 'Zora Quist')).toBe(true);
    expect(mine.length).toBeGreaterThan(1);
    const apollo = await records({ filter: { search: 'apollo' } });
    expect(apollo.slice(1).map((record) => record[1])).not.toContain('Apollo secret');
    expect(await records({ filter: { ownerId: other.adminId } })).toEqual([HEADER]);
  });

  it('answers 400 for bad bodies, 401 without a token and 403 without projects:read', async () => {
    expect((await exportProjects({ filter: { country: 'Germany' } })).status).toBe(400);
    expect((await exportProjects({ listSort: { field: 'secret' } })).status).toBe(400);
    expect((await exportProjects({}, '')).status).toBe(401);
    const noneRole = await insertRole(server.database.db, {
      tenantId: tenant.tenantId,
      name: uniqueName('None'),
      permissionIds: [],
    });
    const email = `${uniqueName('n')}@projects-export.test`;
    await insertUser(server.database.db, {
      tenantId: tenant.tenantId,
      email,
      firstName: 'No',
      lastName: 'Body',
      roleId: noneRole,
      password: TEST_PASSWORD,
    });
    const nobody = await signIn(server, tenant.name, email, TEST_PASSWORD);
    expect((await exportProjects({}, nobody.access_token)).status).toBe(403);
  });
});
