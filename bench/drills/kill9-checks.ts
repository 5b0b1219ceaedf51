/**
 * What the kill -9 drill checks in the database once the server is stopped: every
 * acknowledged user is there, and nothing a user's creation writes in its transaction is
 * missing or left over without its user.
 */
import { openDatabase } from '../../apps/server/src/db/database';
import { provisionTenant } from '../../apps/server/src/modules/tenants/provisioning';
import { insertUser } from '../../apps/server/src/modules/users/queries';

/** The drill's users are recognisable by their address. */
export const DRILL_DOMAIN = 'drill.example.test';

export interface Acknowledged {
  id: string;
  email: string;
}

export interface Findings {
  /** Users of the drill in the table. */
  present: number;
  /** Acknowledged (201) but not in the table. */
  lost: number;
  /** In the table though their answer never arrived (committed as the process died). */
  unacknowledged: number;
  /** Users missing a part of their creation, by part. */
  withoutAudit: number;
  withoutEvent: number;
  withoutInvitationLink: number;
  withoutMail: number;
  /** Parts of a creation whose user is not there. */
  orphanAudit: number;
  orphanMail: number;
  /** The per-role user counts the triggers keep agree with the rows. */
  countsAgree: boolean;
  /** The drill's messages in the outbox, by status. */
  outbox: Record<string, number>;
}

/** The tenant whose administrator creates the users (PGlite: before the server opens it). */
export async function seedTenant(env: { DATABASE_URL?: string; DATA_DIR?: string }) {
  const handle = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR ?? '' });
  try {
    await handle.migrate();
    const admin = { email: 'admin@drill-tenant.example.test', password: 'Drill-admin-2026!' };
    const roleId = await handle.db.transaction(async (tx) => {
      const tenant = await provisionTenant(tx, {
        name: 'drill',
        domain: 'drill-tenant.example.test',
      });
      await insertUser(tx, {
        tenantId: tenant.tenantId,
        email: admin.email,
        firstName: 'Drill',
        lastName: 'Admin',
        roleId: tenant.adminRoleId,
        password: admin.password,
      });
      return tenant.memberRoleId;
    });
    return { realm: 'drill', admin, roleId };
  } finally {
    await handle.close();
  }
}

type Query = (text: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;

export async function checkDatabase(
  env: { DATABASE_URL?: string; DATA_DIR?: string },
  acknowledged: Acknowledged[],
): Promise<Findings> {
  const handle = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR ?? '',
    poolSize: 1,
  });
  const client = (
    handle.db as unknown as {
      $client: { query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }> };
    }
  ).$client;
  const query: Query = async (text, params) =>
    (await client.query(text, params)).rows as Array<Record<string, unknown>>;
  try {
    return await findings(query, acknowledged);
  } finally {
    await handle.close();
  }
}

async function count(query: Query, text: string): Promise<number> {
  const [row] = await query(text, [`%@${DRILL_DOMAIN}`]);
  return Number(row?.n ?? 0);
}

async function findings(query: Query, acknowledged: Acknowledged[]): Promise<Findings> {
  const rows = await query('select id, email from users where email like $1', [
    `%@${DRILL_DOMAIN}`,
  ]);
  const present = new Set(rows.map((row) => String(row.id)));
  const acknowledgedIds = new Set(acknowledged.map((user) => user.id));
  const drillUsers = 'select id, email from users where email like $1';
  const missing = (part: string) =>
    count(query, `select count(*) as n from (${drillUsers}) u where not exists (${part})`);
  const [tenantCount] = await query(
    `select (select count(*) from users u where u.tenant_id = t.tenant_id) as rows,
            (select coalesce(sum(n), 0) from user_counts c where c.tenant_id = t.tenant_id) as counted
       from (select distinct tenant_id from users where email like $1) t`,
    [`%@${DRILL_DOMAIN}`],
  );
  const outbox = await query(
    'select status, count(*) as n from mail_outbox where to_address like $1 group by status',
    [`%@${DRILL_DOMAIN}`],
  );
  return {
    present: present.size,
    lost: acknowledged.filter((user) => !present.has(user.id)).length,
    unacknowledged: [...present].filter((id) => !acknowledgedIds.has(id)).length,
    withoutAudit: await missing(
      "select 1 from audit_log a where a.entity = 'users' and a.action = 'create' and a.entity_id = u.id::text",
    ),
    withoutEvent: await missing(
      "select 1 from events e where e.entity = 'users' and e.action = 'create' and e.entity_id = u.id::text",
    ),
    withoutInvitationLink: await missing(
      "select 1 from action_tokens t where t.user_id = u.id and t.purpose = 'invite'",
    ),
    withoutMail: await missing('select 1 from mail_outbox m where m.to_address = u.email'),
    orphanAudit: await count(
      query,
      `select count(*) as n from audit_log a where a.entity = 'users' and a.action = 'create'
         and a.after->>'email' like $1 and not exists (select 1 from users u where u.id::text = a.entity_id)`,
    ),
    orphanMail: await count(
      query,
      `select count(*) as n from mail_outbox m where m.to_address like $1
         and not exists (select 1 from users u where u.email = m.to_address)`,
    ),
    countsAgree: !tenantCount || Number(tenantCount.rows) === Number(tenantCount.counted),
    outbox: Object.fromEntries(outbox.map((row) => [String(row.status), Number(row.n)])),
  };
}
