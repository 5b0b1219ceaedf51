import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import {
  DASHBOARD_DAYS,
  DASHBOARD_RECENT_ACTIVITY,
  DASHBOARD_TOP_OWNERS,
  type Dashboard,
} from '@tc/contract/dashboard';
import type { Database } from '../../db/database';
import { auditLog } from '../../db/schema/audit';
import { users } from '../../db/schema/identity';

/*
 * The dashboard's aggregate queries. The dashboard is a read model over the whole tenant, so
 * it reads the other modules' tables directly (read-only), each query filtered by tenant_id
 * and answered from an index: projects_tenant_figures_idx (index-only), user_counts (kept by
 * triggers, migration 0003), users_tenant_invited_idx, sign_ins, audit_log_tenant_created_idx.
 */

async function rows<Row>(db: Database, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}

/** Project count, total budget and budget per country, from one index-only scan. */
export async function projectFigures(db: Database, tenantId: string) {
  const found = await rows<{ total: number; country: string | null; n: number; budget: string }>(
    db,
    sql`select grouping(country)::int as total, country, count(*)::int as n,
          coalesce(sum(budget), 0.00)::text as budget
        from projects where tenant_id = ${tenantId}
        group by rollup (country)`,
  );
  // An empty tenant has no rollup row at all.
  const total = found.find((row) => row.total === 1) ?? { n: 0, budget: '0.00' };
  const budgetByCountry = found
    .filter((row) => row.total === 0)
    .map((row) => ({ country: row.country, budget: row.budget, projects: row.n }))
    .sort(
      (a, b) =>
        compareDecimal(b.budget, a.budget) || (a.country ?? '~').localeCompare(b.country ?? '~'),
    );
  return { projects: total.n, totalBudget: total.budget, budgetByCountry };
}

/** Compares two non-negative decimal strings exactly (no float rounding of large budgets). */
export function compareDecimal(a: string, b: string): number {
  const [ai = '', af = ''] = a.split('.');
  const [bi = '', bf = ''] = b.split('.');
  if (ai.length !== bi.length) return ai.length - bi.length;
  if (ai !== bi) return ai < bi ? -1 : 1;
  const width = Math.max(af.length, bf.length);
  const [x, y] = [af.padEnd(width, '0'), bf.padEnd(width, '0')];
  return x === y ? 0 : x < y ? -1 : 1;
}

export async function projectsPerOwner(
  db: Database,
  tenantId: string,
): Promise<Dashboard['projectsPerOwner']> {
  const found = await rows<{
    ownerId: string;
    first: string;
    last: string;
    email: string;
    n: number;
  }>(
    db,
    sql`select top.owner_id as "ownerId", u.first_name as first, u.last_name as last,
          u.email, top.n
        from (select owner_id, count(*)::int as n from projects
              where tenant_id = ${tenantId} and owner_id is not null
              group by owner_id order by n desc, owner_id limit ${DASHBOARD_TOP_OWNERS}) top
        join users u on u.id = top.owner_id and u.tenant_id = ${tenantId}
        order by top.n desc, top.owner_id`,
  );
  return found.map((row) => ({
    ownerId: row.ownerId,
    owner: displayName(row.first, row.last, row.email),
    projects: row.n,
  }));
}

/** User figures from the trigger-kept counts; invited users from a small partial index. */
export async function userFigures(db: Database, tenantId: string) {
  const [found] = await rows<{
    users: number;
    active: number;
    invited: number;
    invitedActive: number;
  }>(
    db,
    sql`select
          (select coalesce(sum(n), 0)::int from user_counts where tenant_id = ${tenantId}) as users,
          (select coalesce(sum(n), 0)::int from user_counts
            where tenant_id = ${tenantId} and status = 'active') as active,
          (select count(*)::int from users
            where tenant_id = ${tenantId} and password_hash is null) as invited,
          (select count(*)::int from users
            where tenant_id = ${tenantId} and password_hash is null and status = 'active')
            as "invitedActive"`,
  );
  return {
    users: found!.users,
    activeUsers: found!.active - found!.invitedActive,
    invitedUsers: found!.invited,
  };
}

/** Every role with its number of users, roles without users included. */
export async function usersByRole(
  db: Database,
  tenantId: string,
): Promise<Dashboard['usersByRole']> {
  return rows(
    db,
    sql`select r.id as "roleId", r.name as role, coalesce(sum(c.n), 0)::int as users
        from roles r
        left join user_counts c on c.tenant_id = r.tenant_id and c.role_id = r.id
        where r.tenant_id = ${tenantId}
        group by r.id, r.name
        order by users desc, lower(r.name), r.id`,
  );
}

/** The last 30 UTC days, today last, zeros included. */
export async function signInsPerDay(
  db: Database,
  tenantId: string,
): Promise<Dashboard['signInsPerDay']> {
  return rows(
    db,
    sql`select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(s.count, 0)::int as count
        from (select (now() at time zone 'utc')::date - g as day
              from generate_series(0, ${DASHBOARD_DAYS - 1}::int) g) d
        left join sign_ins s on s.tenant_id = ${tenantId} and s.day = d.day
        order by d.day`,
  );
}

/**
 * The newest audit entries, read backwards along audit_log_tenant_created_idx. The actor is
 * matched within the tenant too, so an id never reveals a user of another tenant.
 */
export async function recentActivity(
  db: Database,
  tenantId: string,
): Promise<Dashboard['recentActivity']> {
  const found = await db
    .select({
      id: auditLog.id,
      at: auditLog.createdAt,
      action: auditLog.action,
      entity: auditLog.entity,
      entityId: auditLog.entityId,
      actorId: auditLog.actorId,
      first: users.firstName,
      last: users.lastName,
      email: users.email,
      summary: sql<string | null>`coalesce(${auditLog.after}->>'name', ${auditLog.before}->>'name',
        ${auditLog.after}->>'email', ${auditLog.before}->>'email')`,
    })
    .from(auditLog)
    .leftJoin(users, and(eq(users.id, auditLog.actorId), eq(users.tenantId, auditLog.tenantId)))
    .where(eq(auditLog.tenantId, tenantId))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(DASHBOARD_RECENT_ACTIVITY);
  return found.map(({ first, last, email, at, ...entry }) => ({
    ...entry,
    at: at.toISOString(),
    actor: email === null ? null : displayName(first ?? '', last ?? '', email),
  }));
}

function displayName(first: string, last: string, email: string): string {
  return `${first} ${last}`.trim() || email;
}

/**
 * What the dashboard depends on, as one short string: the tenant's latest change event (every
 * audited write adds one, in its own transaction), today's sign-ins and the UTC day. Two index
 * lookups, so a cached dashboard is checked for freshness on every request.
 */
export async function dashboardVersion(db: Database, tenantId: string): Promise<string> {
  const [found] = await rows<{ version: string }>(
    db,
    sql`select concat_ws(':',
          coalesce((select max(id) from events where tenant_id = ${tenantId}), 0),
          coalesce((select count from sign_ins
            where tenant_id = ${tenantId} and day = (now() at time zone 'utc')::date), 0),
          (now() at time zone 'utc')::date) as version`,
  );
  return found!.version;
}
