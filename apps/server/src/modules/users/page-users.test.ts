import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTenant, signIn, type TenantFixture } from '../../test/fixtures';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../../test/harness';
import { insertRole } from '../roles';
import { insertUser } from './queries';

interface Row {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  roleId: string;
  role: string;
  status: 'active' | 'inactive';
}

let server: TestServer;
let tenant: TenantFixture;
let token: string;
let zetaRoleId: string;
/** Every user of the tenant (the 26 below plus the admin), as the API shows them. */
let all: Row[];

const LAST_NAMES = ['Alpha', 'Bravo', 'Charlie'];
const FIRST_NAMES = ['Ophelia', 'Quentin', 'Rosalind', 'Sebastian'];

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.db, { adminEmail: 'admin@page.test' });
  token = (await signIn(server, tenant.name, tenant.adminEmail, TEST_PASSWORD)).access_token;
  const db = server.database.db;
  zetaRoleId = await insertRole(db, { tenantId: tenant.tenantId, name: 'Zeta', permissionIds: [] });
  // Same-shaped e-mails order alike under any collation; the last names tie on purpose.
  for (let i = 0; i < 26; i += 1) {
    await insertUser(db, {
      tenantId: tenant.tenantId,
      email: `user${String(i).padStart(2, '0')}@page.test`,
      firstName: FIRST_NAMES[i % FIRST_NAMES.length]!,
      lastName: LAST_NAMES[i % LAST_NAMES.length]!,
      roleId: i % 2 === 0 ? tenant.memberRoleId : zetaRoleId,
      status: i % 3 === 0 ? 'inactive' : 'active',
    });
  }
  const response = await page({ pageSize: 100 });
  all = (await response.json()).data.data;
});
afterAll(() => server?.close());

function page(body: unknown, bearer = token) {
  return api(server, '/users/page', bearer, { method: 'POST', body: JSON.stringify(body) });
}

async function rows(body: Record<string, unknown>) {
  const response = await page(body);
  expect(response.status).toBe(200);
  return (await response.json()).data as {
    data: Row[];
    pageIndex: number;
    pageSize: number;
    totalCount: number;
  };
}

/** Walks every page of 10 and answers the rows in the order the server gave them. */
async function walk(listSort: { field: string; direction: 0 | 1 }, filter = {}) {
  const walked: Row[] = [];
  for (let pageIndex = 1; pageIndex <= 3; pageIndex += 1) {
    const result = await rows({ pageIndex, pageSize: 10, listSort, filter });
    expect(result).toMatchObject({ pageIndex, pageSize: 10, totalCount: 27 });
    walked.push(...result.data);
  }
  return walked;
}

const byThenId = (key: (row: Row) => string) => (a: Row, b: Row) =>
  key(a) === key(b) ? (a.id < b.id ? -1 : 1) : key(a) < key(b) ? -1 : 1;

describe('users page', () => {
  it('answers the first 10 by e-mail with the exact total by default', async () => {
    const result = await rows({});
    expect(result).toMatchObject({ pageIndex: 1, pageSize: 10, totalCount: 27 });
    expect(result.data.map((row) => row.email)).toEqual([
      'admin@page.test',
      ...Array.from({ length: 9 }, (_, i) => `user0${i}@page.test`),
    ]);
    expect(result.data[1]).toMatchObject({ role: 'Member', status: 'inactive', invited: true });
    expect(result.data[0]).toMatchObject({ role: 'Admin', invited: false });
    expect(result.data[0]).not.toHaveProperty('passwordHash');
  });

  it('accepts the spec client’s request as it sends it', async () => {
    const result = await rows({
      pageIndex: 2,
      pageSize: 10,
      filter: {},
      listSort: { field: 'email', direction: 0 },
      listGroup: { field: 'email', direction: 0, isExpanded: true },
    });
    expect(result.data.map((row) => row.email)[0]).toBe('user09@page.test');
    expect(result.data).toHaveLength(10);
  });

  it('pages through every user by e-mail in both directions without gaps or repeats', async () => {
    const ascending = await walk({ field: 'email', direction: 0 });
    expect(ascending).toHaveLength(27);
    expect(ascending.map((row) => row.email)).toEqual(all.map((row) => row.email));
    expect(new Set(ascending.map((row) => row.id)).size).toBe(27);
    const descending = await walk({ field: 'email', direction: 1 });
    expect(descending).toEqual([...ascending].reverse());
    const last = await rows({ pageIndex: 3, pageSize: 10 });
    expect(last.data).toHaveLength(7);
    const beyond = await rows({ pageIndex: 4, pageSize: 10 });
    expect(beyond).toMatchObject({ data: [], totalCount: 27 });
  });

  it('orders ties by id, so pages are stable (last name, both directions)', async () => {
    const ascending = await walk({ field: 'lastName', direction: 0 });
    expect(ascending.map((row) => row.id)).toEqual(
      [...all].sort(byThenId((row) => row.lastName)).map((row) => row.id),
    );
    const descending = await walk({ field: 'lastName', direction: 1 });
    expect(descending).toEqual([...ascending].reverse());
  });

  it('sorts by role name, first name, status and creation time', async () => {
    const byRole = await walk({ field: 'role', direction: 0 });
    expect(byRole.map((row) => row.id)).toEqual(
      [...all].sort(byThenId((row) => row.role)).map((row) => row.id),
    );
    expect(byRole[0]!.role).toBe('Admin');
    expect(byRole.at(-1)!.role).toBe('Zeta');
    const byFirstName = await walk({ field: 'firstName', direction: 1 });
    expect(byFirstName[0]!.firstName).toBe('Sebastian');
    const byStatus = await walk({ field: 'status', direction: 1 });
    expect(byStatus.slice(0, 9).every((row) => row.status === 'inactive')).toBe(true);
    const byCreation = await walk({ field: 'createdAt', direction: 0 });
    expect(byCreation).toHaveLength(27);
  });

  it('searches a fragment of the e-mail, first or last name, case-insensitively', async () => {
    const byEmail = await rows({ filter: { search: 'ER1' } });
    expect(byEmail.totalCount).toBe(10);
    expect(byEmail.data.every((row) => row.email.startsWith('user1'))).toBe(true);
    const byFirst = await rows({ filter: { search: 'phel' }, pageSize: 100 });
    expect(byFirst.totalCount).toBe(7);
    expect(byFirst.data.every((row) => row.firstName === 'Ophelia')).toBe(true);
    const byLast = await rows({ filter: { search: 'CHARL' }, pageSize: 100 });
    expect(byLast.totalCount).toBe(8);
    const admin = await rows({ filter: { search: 'ada' } });
    expect(admin.data.map((row) => row.email)).toEqual(['admin@page.test']);
  });

  it('treats LIKE wildcards in the search as text', async () => {
    expect((await rows({ filter: { search: '%' } })).totalCount).toBe(0);
    expect((await rows({ filter: { search: '_' } })).totalCount).toBe(0);
  });

  it('filters by status and role, together with the search', async () => {
    const inactive = await rows({ filter: { status: 'inactive' }, pageSize: 100 });
    expect(inactive.totalCount).toBe(9);
    expect(inactive.data.every((row) => row.status === 'inactive')).toBe(true);
    const zeta = await rows({ filter: { roleId: zetaRoleId }, pageSize: 100 });
    expect(zeta.totalCount).toBe(13);
    expect(zeta.data.every((row) => row.role === 'Zeta')).toBe(true);
    const both = await rows({ filter: { roleId: zetaRoleId, status: 'inactive', search: 'user' } });
    expect(both.data.map((row) => row.email)).toEqual([
      'user03@page.test',
      'user09@page.test',
      'user15@page.test',
      'user21@page.test',
    ]);
    expect(both.totalCount).toBe(4);
  });

  it('shows only the caller’s tenant', async () => {
    const other = await createTenant(server.database.db);
    const otherToken = (await signIn(server, other.name, other.adminEmail, TEST_PASSWORD))
      .access_token;
    const response = await page({ pageSize: 100 }, otherToken);
    const body = await response.json();
    expect(body.data.totalCount).toBe(1);
    expect(body.data.data.map((row: Row) => row.email)).toEqual([other.adminEmail]);
  });

  it.each([
    [{ pageSize: 0 }, 'pageSize'],
    [{ pageSize: 101 }, 'pageSize'],
    [{ pageIndex: 0 }, 'pageIndex'],
    [{ pageIndex: 1.5 }, 'pageIndex'],
    [{ listSort: { field: 'passwordHash', direction: 0 } }, 'listSort.field'],
    [{ listSort: { field: 'email', direction: 2 } }, 'listSort.direction'],
    [{ filter: { tenantId: 'x' } }, 'filter'],
    [{ filter: { roleId: 'admin' } }, 'filter.roleId'],
    [{ filter: { status: 'deleted' } }, 'filter.status'],
  ])('refuses %j with a field error on %s', async (body, field) => {
    const response = await page(body);
    expect(response.status).toBe(400);
    const problem = await response.json();
    expect(problem).toMatchObject({ status: 400 });
    expect(Object.keys(problem.errors)).toContain(field);
  });
});

describe('totalCount kept by triggers', () => {
  it('stays exact through creates, status and role changes, and deletes', async () => {
    const total = async (filter: Record<string, unknown> = {}) => {
      const response = await api(server, '/users/page', token, {
        method: 'POST',
        body: JSON.stringify({ pageIndex: 1, pageSize: 1, filter }),
      });
      return (await response.json()).data.totalCount as number;
    };
    const start = await total();
    const created = await api(server, '/users/create', token, {
      method: 'POST',
      body: JSON.stringify({
        firstName: 'Count',
        lastName: 'Me',
        email: `count.${Date.now()}@example.test`,
        roleId: tenant.memberRoleId,
        status: 'active',
      }),
    });
    const user = (await created.json()).data;
    expect(await total()).toBe(start + 1);
    const inactiveBefore = await total({ status: 'inactive' });
    const memberInactiveBefore = await total({ roleId: tenant.memberRoleId, status: 'inactive' });
    await api(server, '/users/update', token, {
      method: 'PUT',
      body: JSON.stringify({ ...user, status: 'inactive', roleId: tenant.adminRoleId }),
    });
    expect(await total({ status: 'inactive' })).toBe(inactiveBefore + 1);
    // The user moved from Member/active to Admin/inactive: Member/inactive is untouched.
    expect(await total({ roleId: tenant.memberRoleId, status: 'inactive' })).toBe(
      memberInactiveBefore,
    );
    expect(await total({ roleId: tenant.adminRoleId, status: 'inactive' })).toBeGreaterThan(0);
    await api(server, `/users/delete/${user.id}`, token, { method: 'POST' });
    expect(await total()).toBe(start);
    expect(await total({ status: 'inactive' })).toBe(inactiveBefore);
  });
});
