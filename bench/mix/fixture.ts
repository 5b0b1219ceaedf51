/**
 * A fresh database for the mixed benchmark, migrated, seeded and sampled: what the consoles
 * need to know about each tenant (its realm, roles, some users and projects to read and edit)
 * is read back from the database after seeding, never assumed.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { openDatabase, type Database } from '../../apps/server/src/db/database';
import type { Cleanups } from '../lib/cleanups';
import { freshDatabase, type BenchDatabase, type Engine } from '../lib/database';
import { CONSOLE_EMAIL_PREFIX, seedTenants, type SeedConnection, type TenantPlan } from './seed';

export interface UserSample {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  roleId: string;
  status: 'active' | 'inactive';
}

export interface ProjectSample {
  id: string;
  name: string;
  short: string | null;
  projectNumber: string;
  ownerId: string | null;
  budget: string;
  country: string | null;
  city: string | null;
  postalCode: string | null;
  peopleIds: string[];
}

export interface TenantFixture {
  name: string;
  tenantId: string;
  /** Users of the tenant, consoles included. */
  userCount: number;
  consoleEmails: string[];
  roles: Array<{ id: string; name: string }>;
  users: UserSample[];
  projects: ProjectSample[];
  /** Users owning at least one project: the projects list's owner filter. */
  ownerIds: string[];
}

const SAMPLED_USERS = 2000;
const SAMPLED_PROJECTS = 500;

async function sample(
  query: SeedConnection['query'],
  plan: TenantPlan & { tenantId: string },
): Promise<TenantFixture> {
  const t = `'${plan.tenantId}'`;
  const users = await query<UserSample>(
    `select id, email, first_name "firstName", last_name "lastName", role_id "roleId", status
     from users where tenant_id = ${t} and email not like '${CONSOLE_EMAIL_PREFIX}%'
     order by md5(id::text) limit ${SAMPLED_USERS}`,
  );
  const projects = await query<ProjectSample>(
    `select p.id, p.name, p.short, p.project_number "projectNumber", p.owner_id "ownerId",
       p.budget::text budget, p.country, p.city, p.postal_code "postalCode",
       coalesce(json_agg(pp.user_id) filter (where pp.user_id is not null), '[]'::json) "peopleIds"
     from projects p left join project_people pp on pp.project_id = p.id
     where p.tenant_id = ${t} group by p.id order by md5(p.id::text) limit ${SAMPLED_PROJECTS}`,
  );
  const owners = await query<{ id: string }>(
    `select distinct owner_id id from projects where tenant_id = ${t} and owner_id is not null
     limit 300`,
  );
  const roles = await query<{ id: string; name: string }>(
    `select id, name from roles where tenant_id = ${t} order by name`,
  );
  const [count] = await query<{ n: number }>(
    `select count(*)::int n from users where tenant_id = ${t}`,
  );
  return {
    name: plan.name,
    tenantId: plan.tenantId,
    userCount: Number(count!.n),
    consoleEmails: plan.consoleEmails,
    roles,
    users,
    projects,
    ownerIds: owners.map((row) => row.id),
  };
}

/** Seeds and samples on one connection of either engine. */
async function seedAndSample(connection: SeedConnection, plans: TenantPlan[]) {
  const tenants = await seedTenants(connection, plans);
  const fixtures: TenantFixture[] = [];
  for (const tenant of tenants) fixtures.push(await sample(connection.query, tenant));
  return fixtures;
}

/**
 * A fresh database (dropped by `cleanups`) with the schema the server migrates to and the
 * planned tenants. PGlite is one process at a time on a folder, so it is seeded and closed
 * before the server opens it; PostgreSQL is done the same way for the same order of events.
 */
export async function preparedDatabase(
  engine: Engine,
  plans: TenantPlan[],
  cleanups: Cleanups,
  prefix = 'bench_mix',
): Promise<{ database: BenchDatabase; tenants: TenantFixture[] }> {
  const database = await freshDatabase(engine, { prefix });
  cleanups.add(database.drop);
  const handle = await openDatabase({
    databaseUrl: database.url,
    dataDir: database.dataDir ?? '',
    poolSize: 1,
  });
  try {
    await handle.migrate();
    if (engine === 'pglite') {
      const client = (
        handle.db as unknown as {
          $client: { query: (text: string) => Promise<{ rows: Array<Record<string, unknown>> }> };
        }
      ).$client;
      const query = async <Row>(text: string) => (await client.query(text)).rows as Row[];
      return { database, tenants: await seedAndSample({ db: handle.db, query, engine }, plans) };
    }
  } finally {
    await handle.close();
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const db = drizzle(client, { casing: 'snake_case' }) as unknown as Database;
    const query = async <Row>(text: string) => (await client.query(text)).rows as Row[];
    return { database, tenants: await seedAndSample({ db, query, engine }, plans) };
  } finally {
    await client.end();
  }
}
