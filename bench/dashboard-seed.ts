/**
 * Bulk seed for bench/dashboard.ts: one tenant of 100,000 users and 10,000 projects (owners,
 * countries, budgets, people), 30 days of sign-ins and an audit log, plus smaller tenants
 * beside it so every query has to filter by tenant. Plain SQL, not the API: seconds, not hours.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/database';
import { insertRole } from '../apps/server/src/modules/roles';
import { provisionTenant } from '../apps/server/src/modules/tenants';
import { insertUser } from '../apps/server/src/modules/users';

export const TENANT = 'bench';
export const ADMIN = { email: 'admin@bench.example.test', password: 'Bench-admin-1!' };
// Seeded users never sign in: any non-null value marks them as having set a password.
const FAKE_HASH = '$argon2id$v=19$m=19456,t=2,p=1$YmVuY2g$YmVuY2g';
const COUNTRIES = `array['DE','CH','AT','FR','IT','US','GB','ES','NL','SE','PL','BR']`;
const ROLES = ['Editor', 'Viewer', 'Planner', 'Controller', 'Engineer', 'Auditor'];

interface Sizes {
  users: number;
  projects: number;
  signIns: number;
}

/** A pseudo-random number in [0, 1) from an integer expression, the same on every run. */
const unit = (expression: string) =>
  `((hashint4(${expression})::bigint + 2147483648)::float8 / 4294967296)`;

async function run(db: Database, query: string) {
  await db.execute(sql.raw(query));
}

/** One tenant and its data; `admin` signs in, everyone else is bulk-inserted. */
async function seedTenant(db: Database, name: string, sizes: Sizes, admin?: typeof ADMIN) {
  const domain = `${name}.example.test`;
  const tenant = await db.transaction(async (tx) => {
    const provisioned = await provisionTenant(tx, { name, domain });
    const roleIds = [provisioned.memberRoleId];
    for (const role of ROLES) {
      roleIds.push(
        await insertRole(tx, { tenantId: provisioned.tenantId, name: role, permissionIds: [] }),
      );
    }
    const adminId = await insertUser(tx, {
      tenantId: provisioned.tenantId,
      email: admin?.email ?? `admin@${domain}`,
      firstName: 'Ada',
      lastName: 'Admin',
      roleId: provisioned.adminRoleId,
      password: admin?.password ?? 'Bench-admin-1!',
    });
    return { ...provisioned, roleIds, adminId };
  });
  const t = `'${tenant.tenantId}'::uuid`;
  const roles = `array[${tenant.roleIds.map((id) => `'${id}'::uuid`).join(',')}]`;
  // Every 20th user invited (no password), every 10th inactive, roles spread unevenly.
  await run(
    db,
    `insert into users (tenant_id, email, first_name, last_name, role_id, status, password_hash)
     select ${t}, 'user' || g || '@${domain}', 'First' || (g % 97), 'Last' || (g % 89),
       (${roles})[1 + (g::bigint * g) % ${tenant.roleIds.length}],
       case when g % 10 = 0 then 'inactive' else 'active' end,
       case when g % 20 = 0 then null else '${FAKE_HASH}' end
     from generate_series(1, ${sizes.users}) g`,
  );
  const pool = `(select array_agg(id order by email) a from (select id, email from users
      where tenant_id = ${t} order by email limit 5000) u)`;
  // Owners skewed towards a few (cube of a pseudo-random number), every 50th project unowned;
  // budgets to the cent. hashint4 makes the "random" numbers the same on every run.
  await run(
    db,
    `insert into projects (tenant_id, name, project_number, owner_id, budget, country, city)
     select ${t}, 'Project ' || g, 'P-' || g,
       case when g % 50 = 0 then null else o.a[1 + floor(2000 * power(${unit('g')}, 3))::int] end,
       round((${unit('g + 7')} * 5000000)::numeric, 2),
       case when g % 13 = 0 then null else (${COUNTRIES})[1 + g % 12] end, 'City ' || (g % 40)
     from generate_series(1, ${sizes.projects}) g, ${pool} o`,
  );
  await run(
    db,
    `insert into project_people (tenant_id, project_id, user_id)
     select ${t}, p.id, o.a[1 + (p.n * 3 + k) % array_length(o.a, 1)]
     from (select id, row_number() over (order by id) n from projects where tenant_id = ${t}) p,
       generate_series(0, 2) k, ${pool} o`,
  );
  // Sessions over the last 30 days: the sign_ins trigger counts them, as it does in production.
  await run(
    db,
    `insert into sessions (tenant_id, user_id, created_at, expires_at, revoked_at)
     select ${t}, o.a[1 + g % array_length(o.a, 1)],
       now() - (g % 30) * interval '1 day' - (g % 600) * interval '1 minute',
       now() + interval '1 day', now()
     from generate_series(1, ${sizes.signIns}) g, ${pool} o`,
  );
  await run(
    db,
    `insert into audit_log (tenant_id, actor_id, action, entity, entity_id, after, created_at)
     select ${t}, '${tenant.adminId}', 'create', 'projects', id::text,
       jsonb_build_object('name', name), now() - ${unit('hashtext(name)')} * interval '30 days'
     from projects where tenant_id = ${t}`,
  );
  await run(
    db,
    `insert into events (tenant_id, entity, action, entity_id)
     select ${t}, 'projects', 'create', g::text from generate_series(1, 100) g`,
  );
  return tenant;
}

export async function seed(db: Database, sizes: Sizes, otherTenants: number) {
  const started = performance.now();
  const main = await seedTenant(db, TENANT, sizes, ADMIN);
  for (let i = 1; i <= otherTenants; i += 1) {
    await seedTenant(db, `other${i}`, { users: 1000, projects: 100, signIns: 300 });
  }
  await run(db, 'vacuum analyze');
  console.error(`  seeded in ${Math.round((performance.now() - started) / 100) / 10} s`);
  return main;
}
