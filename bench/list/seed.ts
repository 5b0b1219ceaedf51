/** Seeding the user list benchmark: bulk SQL straight into the database, not the API. */
import { sql } from 'drizzle-orm';
import type { Database } from '../../apps/server/src/db/database';
import { provisionTenant } from '../../apps/server/src/modules/tenants';
import { insertUser } from '../../apps/server/src/modules/users';
import { ADMIN, OTHER_TENANTS, OTHER_USERS, round, TENANT, USERS } from './settings';

const FIRST = [
  'Ada',
  'Bob',
  'Cleo',
  'Dan',
  'Eve',
  'Finn',
  'Gia',
  'Hugo',
  'Iris',
  'Jon',
  'Kai',
  'Lea',
  'Max',
  'Nina',
  'Otto',
  'Pia',
  'Quinn',
  'Rosa',
  'Sam',
  'Tina',
];
const LAST = [
  'Adler',
  'Berg',
  'Costa',
  'Dietz',
  'Engel',
  'Fischer',
  'Gruber',
  'Hahn',
  'Ito',
  'Jansen',
  'Keller',
  'Lang',
  'Meier',
  'Novak',
  'Olsen',
  'Peters',
  'Quast',
  'Roth',
  'Schulz',
  'Vogel',
  'Weber',
  'Young',
  'Zimmer',
];
const arr = (names: string[]) => `array[${names.map((n) => `'${n}'`).join(',')}]`;

/**
 * n users: e-mails `first.last.<6 hex of md5(g)>@<domain>` (distinct, lower case), 20×23 name
 * combinations, every 10th inactive, every 50th an Admin. A 4-hex fragment matches a handful.
 */
async function seedUsers(
  db: Database,
  tenant: { tenantId: string; adminRoleId: string; memberRoleId: string },
  n: number,
  domain: string,
) {
  await db.execute(
    sql.raw(`insert into users (tenant_id, email, first_name, last_name, role_id, status)
      select '${tenant.tenantId}',
        lower(f || '.' || l || '.' || substr(md5(g::text), 1, 6) || '.' || g || '@${domain}'),
        f, l,
        case when g % 50 = 0 then '${tenant.adminRoleId}'::uuid else '${tenant.memberRoleId}'::uuid end,
        case when g % 10 = 0 then 'inactive' else 'active' end
      from generate_series(1, ${n}) g,
        lateral (select (${arr(FIRST)})[1 + g % ${FIRST.length}] f,
                        (${arr(LAST)})[1 + (g / ${FIRST.length}) % ${LAST.length}] l) names`),
  );
}

export async function seed(
  db: Database,
): Promise<{ tenantId: string; search: string; searchMatches: number }> {
  const started = performance.now();
  const main = await db.transaction(async (tx) => {
    const tenant = await provisionTenant(tx, { name: TENANT, domain: 'bench.example.test' });
    await insertUser(tx, {
      tenantId: tenant.tenantId,
      email: ADMIN.email,
      firstName: 'Ada',
      lastName: 'Admin',
      roleId: tenant.adminRoleId,
      password: ADMIN.password,
    });
    return tenant;
  });
  await seedUsers(db, main, USERS, 'bench.example.test');
  for (let i = 1; i <= OTHER_TENANTS; i++) {
    const tenant = await db.transaction((tx) =>
      provisionTenant(tx, { name: `other${i}`, domain: `other${i}.example.test` }),
    );
    await seedUsers(db, tenant, OTHER_USERS, `other${i}.example.test`);
  }
  await db.execute(sql.raw('vacuum analyze'));
  // The search fragment: 4 hex characters of one user's e-mail token.
  const search = await firstValue(db, `select substr(md5('4242'), 2, 4) v`);
  const matches = Number(
    await firstValue(
      db,
      `select count(*)::int v from users where tenant_id = '${main.tenantId}' and (email ilike '%${search}%' or first_name ilike '%${search}%' or last_name ilike '%${search}%')`,
    ),
  );
  console.error(
    `  seeded in ${round((performance.now() - started) / 1000)} s; search "${search}" matches ${matches}`,
  );
  return { tenantId: main.tenantId, search, searchMatches: matches };
}

async function firstValue(db: Database, query: string): Promise<string> {
  const result = (await db.execute(sql.raw(query))) as unknown as { rows: Array<{ v: unknown }> };
  return String(result.rows[0]!.v);
}
