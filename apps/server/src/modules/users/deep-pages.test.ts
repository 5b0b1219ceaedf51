import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_SORT_FIELDS, type UserSortField } from '@tc/contract/users';
import { api, createSignedInTenant } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { insertRole } from '../roles';

/**
 * Over HTTP: every page of every sort, from both ends, is the slice of the full list that a
 * plain ORDER BY gives (pages are read inside one stretch of user_sort_counts, from its nearer
 * end, so these are the cases that can go wrong: stretch boundaries, reversed reads, filters,
 * equal names); and a search matching more than 10,000 answers 10,000, flagged as estimated.
 */
const USERS = 400;
const PAGE_SIZE = 9;

let server: TestServer;
let token: string;
let tenantId: string;
const roleIds: Record<string, string> = {};

// Equal names, mixed case, accents and different first characters, on purpose.
const FIRST = ['anna', 'Anna', 'Ben', 'Émile', 'Zoë', 'Ólafur', 'de Wit', 'Mia', 'Max', '1st'];
const LAST = ['Berg', 'berg', 'Álvarez', 'Zhou', "O'Neil", 'Müller', 'Kim', 'Kim-Lee'];
const list = (words: string[]) =>
  `array[${words.map((w) => `'${w.replace(/'/g, "''")}'`).join(',')}]`;

beforeAll(async () => {
  server = await startTestServer();
  const signedIn = await createSignedInTenant(server);
  token = signedIn.token;
  tenantId = signedIn.tenantId;
  const db = server.database.db;
  roleIds.Member = signedIn.memberRoleId;
  for (const name of ['Editor', 'Tiny'])
    roleIds[name] = await insertRole(db, { tenantId, name, permissionIds: [] });
  const roles = `array['${roleIds.Member}'::uuid, '${roleIds.Member}', '${roleIds.Editor}']`;
  // Creation times over 14 months, several users to a timestamp: the id decides among those.
  await db.execute(
    sql.raw(`insert into users (tenant_id, email, first_name, last_name, role_id, status, created_at)
      select '${tenantId}', lower(translate(f, ' ', '')) || g || '@' || (array['b.test', 'a.test'])[1 + g % 2],
        f, l, (${roles})[1 + g % 3], case when g % 7 = 0 then 'inactive' else 'active' end,
        timestamptz '2024-01-01' + (g / 3) * interval '25 hours'
      from generate_series(1, ${USERS}) g,
        lateral (select (${list(FIRST)})[1 + g % ${FIRST.length}] f,
                        (${list(LAST)})[1 + (g / 3) % ${LAST.length}] l) names`),
  );
  await db.execute(
    sql.raw(`update users set role_id = '${roleIds.Tiny}' where id in (select id from users
      where tenant_id = '${tenantId}' and role_id = '${roleIds.Editor}' order by id limit 3)`),
  );
}, 60_000);
afterAll(() => server?.close());

interface Row {
  id: string;
}

async function page(body: Record<string, unknown>) {
  const response = await api(server, '/users/page', token, {
    method: 'POST',
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()).data as {
    data: Row[];
    totalCount: number;
    totalCountIsEstimate?: boolean;
  };
}

/** The order a plain ORDER BY gives (the column, then the id; by role, the role's name). */
const reference: Record<UserSortField, string> = {
  email: 'u.email',
  firstName: 'u.first_name',
  lastName: 'u.last_name',
  createdAt: 'u.created_at',
  status: 'u.status',
  role: 'r.name',
};

async function expectedIds(field: UserSortField, direction: 0 | 1, filter: Record<string, string>) {
  const dir = direction === 1 ? 'desc' : 'asc';
  const where = [
    `u.tenant_id = '${tenantId}'`,
    ...(filter.status ? [`u.status = '${filter.status}'`] : []),
    ...(filter.roleId ? [`u.role_id = '${filter.roleId}'`] : []),
  ].join(' and ');
  const { rows } = (await server.database.db.execute(
    sql.raw(`select u.id from users u join roles r on r.id = u.role_id where ${where}
      order by ${reference[field]} ${dir}, u.id ${dir}`),
  )) as unknown as { rows: Row[] };
  return rows.map((row) => row.id);
}

describe('users pages over HTTP', () => {
  const filters: Record<string, () => Record<string, string>> = {
    'no filter': () => ({}),
    'inactive users': () => ({ status: 'inactive' }),
    'the Editor role': () => ({ roleId: roleIds.Editor! }),
    'a role of three users': () => ({ roleId: roleIds.Tiny! }),
    'active members': () => ({ roleId: roleIds.Member!, status: 'active' }),
  };
  for (const field of USER_SORT_FIELDS) {
    it(`sorted by ${field}: every page from both ends is the plain ORDER BY's slice, with every filter`, async () => {
      for (const [name, filterOf] of Object.entries(filters)) {
        const filter = filterOf();
        for (const direction of [0, 1] as const) {
          const expected = await expectedIds(field, direction, filter);
          const last = Math.max(1, Math.ceil(expected.length / PAGE_SIZE));
          // Every page without a filter; with one, the first, the middle ones and the last.
          const pages =
            name === 'no filter'
              ? [...Array(last).keys()].map((i) => i + 1)
              : [...new Set([1, Math.floor(last / 2), Math.ceil(last / 2) + 1, last])];
          for (const pageIndex of pages.filter((p) => p >= 1)) {
            const answer = await page({
              pageIndex,
              pageSize: PAGE_SIZE,
              filter,
              listSort: { field, direction },
            });
            const from = (pageIndex - 1) * PAGE_SIZE;
            expect(
              answer.data.map((row) => row.id),
              `${name}, ${direction}, page ${pageIndex}`,
            ).toEqual(expected.slice(from, from + PAGE_SIZE));
            expect(answer.totalCount).toBe(expected.length);
            expect(answer).not.toHaveProperty('totalCountIsEstimate');
          }
          const beyond = await page({
            pageIndex: last + 1,
            pageSize: PAGE_SIZE,
            filter,
            listSort: { field, direction },
          });
          expect(beyond).toMatchObject({ data: [], totalCount: expected.length });
        }
      }
    });
  }
});

describe('a search matching more than 10,000 users', () => {
  let other: { token: string; tenantId: string };
  // Enough that a sample of the tenant leaves no doubt about it: nothing is counted.
  const MATCHING = 12_000;

  beforeAll(async () => {
    const signedIn = await createSignedInTenant(server);
    other = { token: signedIn.token, tenantId: signedIn.tenantId };
    const roles = `array['${signedIn.memberRoleId}'::uuid, '${signedIn.adminRoleId}']`;
    await server.database.db.execute(
      sql.raw(`insert into users (tenant_id, email, first_name, last_name, role_id, status, created_at)
        select '${other.tenantId}', 'u' || g || '@q.test', (array['Kim', 'Lea', 'Ivo'])[1 + g % 3],
          case when g <= ${MATCHING} then 'Quoll' else 'Other' end, (${roles})[1 + g % 2],
          case when g % 3 = 0 then 'inactive' else 'active' end,
          timestamptz '2024-01-01' + g * interval '7 hours'
        from generate_series(1, ${MATCHING + 20}) g`),
    );
  }, 60_000);

  const search = (body: Record<string, unknown>) =>
    api(server, '/users/page', other.token, { method: 'POST', body: JSON.stringify(body) }).then(
      async (response) => {
        expect(response.status).toBe(200);
        return (await response.json()).data as {
          data: Array<{ id: string; lastName: string }>;
          totalCount: number;
          totalCountIsEstimate?: boolean;
        };
      },
    );

  it('answers 10,000 flagged as an estimate; a narrower search or filter answers exactly', async () => {
    expect(await search({ filter: { search: 'quoll' } })).toMatchObject({
      totalCount: 10_000,
      totalCountIsEstimate: true,
    });
    const inactive = await search({ filter: { search: 'quoll', status: 'inactive' } });
    expect(inactive.totalCount).toBe(Math.floor(MATCHING / 3));
    expect(inactive).not.toHaveProperty('totalCountIsEstimate');
    const others = await search({ filter: { search: 'other' }, pageSize: 100 });
    expect(others.totalCount).toBe(20);
    expect(others).not.toHaveProperty('totalCountIsEstimate');
  });

  it('one or two characters match the start of a name or e-mail, three or more anywhere', async () => {
    expect((await search({ filter: { search: 'ot' } })).totalCount).toBe(20);
    expect((await search({ filter: { search: 'th' } })).totalCount).toBe(0);
    expect((await search({ filter: { search: 'the' } })).totalCount).toBe(20);
    expect((await search({ filter: { search: 'Q' } })).totalCountIsEstimate).toBe(true);
  });

  it('pages up to the 10,000th match in every sort and both directions hold the right rows', async () => {
    for (const field of USER_SORT_FIELDS) {
      for (const direction of [0, 1] as const) {
        const dir = direction === 1 ? 'desc' : 'asc';
        const { rows } = (await server.database.db.execute(
          sql.raw(`select u.id from users u join roles r on r.id = u.role_id
            where u.tenant_id = '${other.tenantId}' and u.last_name = 'Quoll'
            order by ${reference[field]} ${dir}, u.id ${dir}`),
        )) as unknown as { rows: Row[] };
        for (const pageIndex of [1, 500, 999, 1000]) {
          const answer = await search({
            pageIndex,
            pageSize: 10,
            filter: { search: 'quoll' },
            listSort: { field, direction },
          });
          const from = (pageIndex - 1) * 10;
          expect(
            answer.data.map((row) => row.id),
            `${field} ${dir} page ${pageIndex}`,
          ).toEqual(rows.slice(from, from + 10).map((row) => row.id));
        }
      }
    }
  });
});
