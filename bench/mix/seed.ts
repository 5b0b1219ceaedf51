/**
 * Seeding the mixed benchmark: tenants made with the server's own provisioning (roles,
 * permissions, the console's client), then users, projects and project people in bulk SQL
 * straight into the migrated schema. On a fresh database 1,000,000 users take about a minute:
 * the users table's secondary indexes are dropped before the bulk insert and built again after
 * it, from their own definitions, which is much faster than growing them row by row.
 *
 * The data is meant to look like a real tenant: names from many languages, skewed so some are
 * common and some rare; e-mail addresses of a few shapes and domains; roles spread unevenly;
 * about 12 % inactive and 6 % invited; sign-up dates over three years; projects with owners,
 * people, budgets, countries and cities. Pseudo-random numbers come from hashes of the row
 * number, so every run seeds the same data.
 */
import type { Database } from '../../apps/server/src/db/database';
import { hashPassword } from '../../apps/server/src/identity/passwords';
import { insertRole } from '../../apps/server/src/modules/roles';
import { provisionTenant } from '../../apps/server/src/modules/tenants';
import {
  ASCII_FROM,
  ASCII_TO,
  CITIES,
  COUNTRIES,
  FIRST_NAMES,
  LAST_NAMES,
  MAIL_DOMAINS,
  PERMISSION_NAMES,
  PROJECT_KINDS,
  PROJECT_WORDS,
  ROLE_NAMES,
  sqlArray,
} from './names';

/** Drizzle for the server's provisioning, and plain SQL on the same connection. */
export interface SeedConnection {
  db: Database;
  query<Row = Record<string, unknown>>(text: string): Promise<Row[]>;
  engine: 'postgres' | 'pglite';
}

export interface TenantPlan {
  /** The realm name: consoles sign in at /realms/<name>. */
  name: string;
  users: number;
  projects: number;
  /** E-mail addresses of the administrators that sign in; each is one console. */
  consoleEmails: string[];
}

export const CONSOLE_PASSWORD = 'Bench-admin-1!';
export const domainOf = (tenant: string) => `${tenant}.example.test`;
// Seeded users never sign in: any value marks them as having set a password.
const FAKE_HASH = '$argon2id$v=19$m=19456,t=2,p=1$YmVuY2g$YmVuY2g';
/** Consoles are not edited by the workload: their e-mails start with this. */
export const CONSOLE_EMAIL_PREFIX = 'console';

/**
 * A pseudo-random number in [0, 1) from the row number `row` (a SQL expression), a stream
 * number and the tenant's number: the same on every run, different for each stream.
 */
const unit = (row: string, stream: number, salt: number) =>
  `((hashint8((${row})::bigint * 64 + ${stream} + ${salt}::bigint * 68719476736)::bigint + 2147483648)::float8 / 4294967296)`;

/**
 * An index into a list of n words, skewed (power > 1 makes low draws common) and then spread
 * over the list with a multiplier prime to n, so the common words are not all alphabetically
 * first.
 */
function pick(n: number, draw: string, power: number) {
  let step = 7919;
  while (n % step === 0) step += 2;
  return `1 + (floor(${n} * power(${draw}, ${power}))::int * ${step}) % ${n}`;
}

/** The lower-case ASCII letters of a name, as e-mail addresses spell it. */
const asciiLetters = (name: string) =>
  [...name.toLowerCase()]
    .map((letter) => {
      const accented = ASCII_FROM.indexOf(letter);
      return accented >= 0 ? ASCII_TO[accented] : letter;
    })
    .join('')
    .replace(/[^a-z]/g, '');

function usersInsert(tenant: ProvisionedPlan) {
  const { tenantId, salt, users: count, roleIds } = tenant;
  const u = (stream: number) => unit('g', stream, salt);
  const domain = domainOf(tenant.name);
  // Member first: with the skew, about half of the users; Admin last and rare.
  const roles = `array[${roleIds.map((id) => `'${id}'::uuid`).join(',')}]`;
  const roleIndex = `1 + floor(${roleIds.length} * power(${u(3)}, 2.5))::int`;
  return `insert into users (tenant_id, email, first_name, last_name, role_id, status,
      password_hash, created_at, updated_at)
    select '${tenantId}', case g % 4
        when 0 then fa || '.' || la || g || '@${domain}'
        when 1 then left(fa, 1) || la || g || '@${domain}'
        when 2 then fa || '_' || la || g || '@' || (${sqlArray(MAIL_DOMAINS)})[1 + g % ${MAIL_DOMAINS.length}]
        else la || '.' || fa || g || '@' || (${sqlArray(MAIL_DOMAINS)})[1 + g % ${MAIL_DOMAINS.length}]
      end,
      f, l, (${roles})[${roleIndex}],
      case when ${u(4)} < 0.12 then 'inactive' else 'active' end,
      case when ${u(5)} < 0.06 then null else '${FAKE_HASH}' end,
      c, c + (now() - c) * ${u(7)}
    from (
      select g, (${sqlArray(FIRST_NAMES)})[fi] f, (${sqlArray(LAST_NAMES)})[li] l,
        (${sqlArray(FIRST_NAMES.map(asciiLetters))})[fi] fa,
        (${sqlArray(LAST_NAMES.map(asciiLetters))})[li] la,
        date_trunc('second', now() - ${u(6)} * interval '1095 days') c
      from (
        select g, ${pick(FIRST_NAMES.length, u(1), 1.6)} fi, ${pick(LAST_NAMES.length, u(2), 1.4)} li
        from generate_series(1, ${count}) g offset 0
      ) drawn offset 0
    ) spelled`;
}

/**
 * A numbered pool of the tenant's users, without the consoles: owners and people are drawn
 * from it by number (a hash join), never by indexing a huge array row by row.
 */
const userPool = (tenantId: string, size: number) =>
  `pool as materialized (select id, (row_number() over ()) - 1 n from (select id from users
      where tenant_id = '${tenantId}' and email not like '${CONSOLE_EMAIL_PREFIX}%'
      order by md5(id::text) limit ${size}) picked)`;

function projectsInsert(tenantId: string, salt: number, count: number, owners: number) {
  const u = (stream: number) => unit('g', stream, salt);
  return `with ${userPool(tenantId, owners)}
    insert into projects (tenant_id, name, short, project_number, owner_id, budget, country,
      city, postal_code, created_at, updated_at)
    select '${tenantId}',
      (${sqlArray(PROJECT_WORDS)})[${pick(PROJECT_WORDS.length, u(1), 1.2)}] || ' '
        || (${sqlArray(PROJECT_KINDS)})[${pick(PROJECT_KINDS.length, u(2), 1)}] || ' ' || g,
      case when g % 3 = 0 then upper(left(md5(g::text), 4)) end,
      'P-' || lpad(g::text, 6, '0'), pool.id,
      round((power(${u(4)}, 3) * 5000000)::numeric, 2),
      case when ${u(5)} < 0.08 then null
        else (${sqlArray(COUNTRIES)})[${pick(COUNTRIES.length, u(6), 1.8)}] end,
      (${sqlArray(CITIES)})[1 + g % ${CITIES.length}], lpad((g % 99999)::text, 5, '0'),
      now() - ${u(7)} * interval '900 days', now() - ${u(8)} * interval '30 days'
    from generate_series(1, ${count}) g
    left join pool on ${u(9)} >= 0.04 and pool.n = floor(${owners} * power(${u(3)}, 2))::int`;
}

function projectPeopleInsert(tenantId: string, salt: number, people: number) {
  const u = (stream: number) => unit('r * 8 + k', stream, salt);
  return `with ${userPool(tenantId, people)},
      numbered as (select id, row_number() over (order by id) r from projects
        where tenant_id = '${tenantId}')
    insert into project_people (tenant_id, project_id, user_id)
    select '${tenantId}', numbered.id, pool.id
    from numbered cross join generate_series(1, 4) k
    join pool on pool.n = floor(${people} * ${u(1)})::int
    where k <= 1 + r % 4
    on conflict do nothing`;
}

/** Roles besides Admin and Member, each with some system and custom permissions. */
async function seedRolesAndPermissions(
  connection: SeedConnection,
  tenantId: string,
  systemPermissions: string[],
): Promise<string[]> {
  const custom = await connection.query<{ id: string }>(
    `insert into permissions (tenant_id, name, description)
     select '${tenantId}', name, 'Grants ' || replace(name, ':', ' ') || '.'
     from unnest(${sqlArray(PERMISSION_NAMES)}) name returning id`,
  );
  const all = [...systemPermissions, ...custom.map((row) => row.id)];
  const roleIds: string[] = [];
  await connection.db.transaction(async (tx) => {
    for (const [index, name] of ROLE_NAMES.entries()) {
      const permissionIds = all.filter((_, p) => (p * 7 + index * 3) % 5 < 2);
      roleIds.push(
        await insertRole(tx, {
          tenantId,
          name,
          description: `${name}s of the tenant.`,
          status: index === ROLE_NAMES.length - 1 ? 'inactive' : 'active',
          permissionIds,
        }),
      );
    }
  });
  return roleIds;
}

export interface ProvisionedPlan extends TenantPlan {
  tenantId: string;
  salt: number;
  adminRoleId: string;
  /** Member first, the other roles, Admin last: the order of the users' skew. */
  roleIds: string[];
}

async function provision(connection: SeedConnection, plan: TenantPlan, salt: number) {
  const tenant = await connection.db.transaction((tx) =>
    provisionTenant(tx, { name: plan.name, domain: domainOf(plan.name) }),
  );
  const extra = await seedRolesAndPermissions(connection, tenant.tenantId, [
    ...tenant.permissionIds.values(),
  ]);
  const provisioned: ProvisionedPlan = {
    ...plan,
    tenantId: tenant.tenantId,
    salt,
    adminRoleId: tenant.adminRoleId,
    roleIds: [tenant.memberRoleId, ...extra, tenant.adminRoleId],
  };
  return provisioned;
}

/** The users table's indexes that no constraint owns, with their definitions. */
async function secondaryIndexes(connection: SeedConnection) {
  return connection.query<{ name: string; definition: string }>(
    `select indexname as name, indexdef as definition from pg_indexes
     where schemaname = 'public' and tablename = 'users' and indexname not in
       (select conname from pg_constraint where conrelid = 'users'::regclass)`,
  );
}

async function insertConsoles(connection: SeedConnection, tenant: ProvisionedPlan, hash: string) {
  const values = tenant.consoleEmails
    .map(
      (email, k) =>
        `('${tenant.tenantId}', '${email}', '${FIRST_NAMES[(k * 31) % FIRST_NAMES.length]!.replaceAll("'", "''")}',
          'Console ${k + 1}', '${tenant.adminRoleId}', '${hash}', now() - interval '400 days')`,
    )
    .join(',');
  if (!values) return;
  await connection.query(
    `insert into users (tenant_id, email, first_name, last_name, role_id, password_hash, created_at)
     values ${values}`,
  );
}

const seconds = (since: number) => Math.round((performance.now() - since) / 100) / 10;

/** Seeds every planned tenant; answers their ids and roles, in the plan's order. */
export async function seedTenants(
  connection: SeedConnection,
  plans: TenantPlan[],
): Promise<ProvisionedPlan[]> {
  const started = performance.now();
  const hash = await hashPassword(CONSOLE_PASSWORD);
  const tenants: ProvisionedPlan[] = [];
  for (const [index, plan] of plans.entries())
    tenants.push(await provision(connection, plan, index));
  for (const tenant of tenants) await insertConsoles(connection, tenant, hash);
  console.error(`  ${tenants.length} tenants provisioned in ${seconds(started)} s`);

  const totalUsers = plans.reduce((sum, plan) => sum + plan.users, 0);
  const rebuild = totalUsers >= 50_000 ? await secondaryIndexes(connection) : [];
  const memory = connection.engine === 'pglite' ? '256MB' : '512MB';
  await connection.query(`set maintenance_work_mem = '${memory}'`);
  for (const index of rebuild) await connection.query(`drop index ${index.name}`);
  let step = performance.now();
  for (const tenant of tenants) {
    await connection.query(usersInsert(tenant));
  }
  console.error(`  ${totalUsers} users inserted in ${seconds(step)} s`);
  step = performance.now();
  for (const index of rebuild) await connection.query(index.definition);
  if (rebuild.length > 0) {
    console.error(`  ${rebuild.length} users indexes built again in ${seconds(step)} s`);
  }
  step = performance.now();
  for (const tenant of tenants) {
    if (tenant.projects === 0) continue;
    const clamp = (value: number, low: number, high: number) =>
      Math.max(Math.min(value, high, tenant.users), Math.min(low, tenant.users));
    const owners = clamp(Math.round(tenant.users / 20), 20, 5000);
    const people = clamp(Math.round(tenant.users / 5), 50, 20000);
    await connection.query(projectsInsert(tenant.tenantId, tenant.salt, tenant.projects, owners));
    await connection.query(projectPeopleInsert(tenant.tenantId, tenant.salt, people));
  }
  console.error(`  projects and their people inserted in ${seconds(step)} s`);
  step = performance.now();
  await connection.query('vacuum analyze');
  console.error(`  vacuum analyze in ${seconds(step)} s; seeded in ${seconds(started)} s`);
  return tenants;
}
