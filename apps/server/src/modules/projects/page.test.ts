import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTenant, signIn, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { insertUser } from '../users';

let server: TestServer;
let tenant: TenantFixture;
let token: string;
let otherToken: string;
const owners: string[] = [];

interface Row {
  id: string;
  name: string;
  projectNumber: string;
  budget: string;
  country: string | null;
  ownerId: string | null;
  owner: string | null;
}

// Owner names chosen so that the owner order differs from the project order.
const OWNER_NAMES = [
  ['Zoe', 'Zimmer'],
  ['Anna', 'Adler'],
  ['Mia', 'Meier'],
];
const COUNTRIES = ['DE', 'CH', 'AT', 'FR'];
// Text order of these would differ from their numeric order.
const budgetFor = (i: number) => (i % 2 === 0 ? `${i * 100 + 9}` : `${i}.5`);
const PROJECTS = 26;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.db);
  const other = await createTenant(server.database.db);
  token = (await signIn(server, tenant.name, tenant.adminEmail, tenant.password)).access_token;
  otherToken = (await signIn(server, other.name, other.adminEmail, other.password)).access_token;
  for (const [firstName, lastName] of OWNER_NAMES) {
    owners.push(
      await insertUser(server.database.db, {
        tenantId: tenant.tenantId,
        email: `${firstName}@${tenant.domain}`.toLowerCase(),
        firstName: firstName!,
        lastName: lastName!,
        roleId: tenant.memberRoleId,
      }),
    );
  }
  for (let i = 0; i < PROJECTS; i += 1) {
    const response = await api(server, '/projects/create', token, {
      method: 'POST',
      body: JSON.stringify({
        name: `project ${String(i).padStart(2, '0')}${i === 7 ? ' 100%_done' : ''}`,
        projectNumber: `PN-${String(PROJECTS - i).padStart(3, '0')}`,
        budget: budgetFor(i),
        country: COUNTRIES[i % COUNTRIES.length],
        ownerId: i % 4 === 3 ? null : owners[i % 3],
      }),
    });
    expect(response.status).toBe(201);
  }
  // The other tenant's project matches every search but must never be listed.
  await api(server, '/projects/create', otherToken, {
    method: 'POST',
    body: JSON.stringify({ name: 'project 99', projectNumber: 'PN-999' }),
  });
});
afterAll(() => server?.close());

async function page(body: Record<string, unknown>, bearer = token) {
  const response = await api(server, '/projects/page', bearer, {
    method: 'POST',
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function all(listSort: { field: string; direction: 0 | 1 }, filter = {}): Promise<Row[]> {
  const rows: Row[] = [];
  for (let pageIndex = 1; ; pageIndex += 1) {
    const { status, body } = await page({ pageIndex, pageSize: 10, listSort, filter });
    expect(status).toBe(200);
    rows.push(...body.data.data);
    if (rows.length >= body.data.totalCount || body.data.data.length === 0) return rows;
  }
}

describe('projects page', () => {
  it('pages with defaults and counts only the caller’s tenant', async () => {
    const { status, body } = await page({});
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ pageIndex: 1, pageSize: 10, totalCount: PROJECTS });
    expect(body.data.data.map((row: Row) => row.name)[0]).toBe('project 00');

    const third = await page({ pageIndex: 3, pageSize: 10 });
    expect(third.body.data.data).toHaveLength(PROJECTS - 20);
    const rows = await all({ field: 'name', direction: 0 });
    expect(new Set(rows.map((row) => row.id)).size).toBe(PROJECTS);
    expect(rows.map((row) => row.name)).toEqual([...rows.map((row) => row.name)].sort());

    expect((await page({}, otherToken)).body.data.totalCount).toBe(1);
  });

  it('sorts by budget as a number, both ways', async () => {
    const numeric = (rows: Row[]) => rows.map((row) => Number(row.budget));
    const ascending = numeric(await all({ field: 'budget', direction: 0 }));
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    expect(ascending[0]).toBe(1.5);
    const descending = numeric(await all({ field: 'budget', direction: 1 }));
    expect(descending).toEqual([...ascending].reverse());
  });

  it('sorts by owner name, by project number and by country', async () => {
    const byOwner = await all({ field: 'owner', direction: 0 });
    const named = byOwner.filter((row) => row.owner !== null).map((row) => row.owner);
    expect(named[0]).toBe('Anna Adler');
    expect(named.at(-1)).toBe('Zoe Zimmer');
    expect(named).toEqual([...named].sort());
    expect(byOwner).toHaveLength(PROJECTS);

    const numbers = (await all({ field: 'projectNumber', direction: 1 })).map(
      (r) => r.projectNumber,
    );
    expect(numbers[0]).toBe('PN-026');
    expect(numbers).toEqual([...numbers].sort().reverse());

    const countries = (await all({ field: 'country', direction: 0 })).map((r) => r.country);
    expect(countries).toEqual([...countries].sort());
    const created = await all({ field: 'createdAt', direction: 1 });
    expect(created).toHaveLength(PROJECTS);
  });

  it('searches name or project number, and filters by owner and country', async () => {
    const byName = await page({ filter: { search: 'PROJECT 1' }, pageSize: 100 });
    expect(byName.body.data.totalCount).toBe(10);
    const byNumber = await page({ filter: { search: 'pn-02' }, pageSize: 100 });
    expect(byNumber.body.data.data.map((row: Row) => row.projectNumber).sort()).toEqual([
      'PN-020',
      'PN-021',
      'PN-022',
      'PN-023',
      'PN-024',
      'PN-025',
      'PN-026',
    ]);
    // LIKE wildcards are searched literally.
    const literal = await page({ filter: { search: '100%_' } });
    expect(literal.body.data.data.map((row: Row) => row.name)).toEqual(['project 07 100%_done']);
    // One or two characters match the start of name or number: no project starts with '%'.
    expect((await page({ filter: { search: '%' } })).body.data.totalCount).toBe(0);
    expect((await page({ filter: { search: 'Pr' } })).body.data.totalCount).toBe(PROJECTS);
    expect((await page({ filter: { search: 'pn' } })).body.data.totalCount).toBe(PROJECTS);
    expect((await page({ filter: { search: '07' } })).body.data.totalCount).toBe(0);

    const anna = await all({ field: 'name', direction: 0 }, { ownerId: owners[1] });
    expect(anna.length).toBeGreaterThan(0);
    expect(anna.every((row) => row.ownerId === owners[1] && row.owner === 'Anna Adler')).toBe(true);
    const swiss = await all({ field: 'name', direction: 0 }, { country: 'ch' });
    expect(swiss.length).toBe(7);
    expect(swiss.every((row) => row.country === 'CH')).toBe(true);
    expect((await page({ filter: { ownerId: randomUUID() } })).body.data.totalCount).toBe(0);
  });

  it('refuses unknown sort fields, filters and page sizes with field messages', async () => {
    const badSort = await page({ listSort: { field: 'tenantId', direction: 0 } });
    expect(badSort.status).toBe(400);
    expect(badSort.body.errors).toHaveProperty(['listSort.field']);
    expect((await page({ pageSize: 101 })).body.errors).toHaveProperty('pageSize');
    expect((await page({ pageIndex: 0 })).status).toBe(400);
    expect((await page({ filter: { tenantId: randomUUID() } })).status).toBe(400);
    expect((await page({ filter: { ownerId: 'x' } })).body.errors).toHaveProperty([
      'filter.ownerId',
    ]);
  });
});
