import { and, eq, sql } from 'drizzle-orm';
import type { ApplicationConsent } from '@tc/contract/consents';
import { CONSENT_SCOPES } from '@tc/contract/sign-in-step-paths';
import type { Database } from '../../db/database';
import { applicationConsents } from '../../db/schema/consents';
import { clients } from '../../db/schema/clients';
import { PayloadStore } from '../openid/payload-store';
import { sessionOfGrant } from '../openid/claims';

/** A user and an application (its row id) of a tenant. */
export interface ConsentKey {
  tenantId: string;
  userId: string;
  clientRowId: string;
}

/** Whether the user allowed the application every one of `scopes` (OpenID Connect Core §3.1.2.4). */
export async function consentCovers(
  db: Database,
  key: ConsentKey,
  scopes: readonly string[],
): Promise<boolean> {
  const [row] = await db
    .select({ scopes: applicationConsents.scopes })
    .from(applicationConsents)
    .where(
      and(
        eq(applicationConsents.tenantId, key.tenantId),
        eq(applicationConsents.userId, key.userId),
        eq(applicationConsents.clientId, key.clientRowId),
      ),
    );
  if (!row) return false;
  const allowed = new Set(row.scopes);
  return scopes.every((scope) => allowed.has(scope));
}

/** Records that the user allowed `scopes`, beside what they allowed the application before. */
export async function recordConsent(
  db: Database,
  key: ConsentKey,
  scopes: readonly string[],
): Promise<void> {
  const allowed = [...new Set(scopes)];
  await db
    .insert(applicationConsents)
    .values({ ...key, clientId: key.clientRowId, scopes: allowed })
    .onConflictDoUpdate({
      target: [applicationConsents.userId, applicationConsents.clientId],
      set: {
        scopes: sql`array(select distinct unnest(${applicationConsents.scopes} || excluded.scopes) order by 1)`,
        grantedAt: sql`now()`,
      },
    });
}

/** The applications a user allowed, newest first. */
export async function listConsents(
  db: Database,
  owner: { tenantId: string; userId: string },
): Promise<ApplicationConsent[]> {
  const rows = await db
    .select({
      id: clients.id,
      name: clients.name,
      clientId: clients.clientId,
      scopes: applicationConsents.scopes,
      grantedAt: applicationConsents.grantedAt,
    })
    .from(applicationConsents)
    .innerJoin(clients, eq(clients.id, applicationConsents.clientId))
    .where(
      and(
        eq(applicationConsents.tenantId, owner.tenantId),
        eq(applicationConsents.userId, owner.userId),
      ),
    )
    .orderBy(sql`${applicationConsents.grantedAt} desc`, clients.name);
  return rows.map((row) => ({
    ...row,
    // In the order the consent page lists them.
    scopes: CONSENT_SCOPES.filter((scope) => row.scopes.includes(scope)),
    grantedAt: row.grantedAt.toISOString(),
  }));
}

/**
 * Withdraws a consent: the row goes, and with it what the application holds for the user —
 * each grant its sign-ins made (codes, refresh tokens, the grant itself at the provider) and
 * our sessions of them, which the API checks on every access token. The next sign-in asks
 * again. Answers false when there was no such consent.
 */
export async function withdrawConsent(db: Database, key: ConsentKey): Promise<boolean> {
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(applicationConsents)
      .where(
        and(
          eq(applicationConsents.tenantId, key.tenantId),
          eq(applicationConsents.userId, key.userId),
          eq(applicationConsents.clientId, key.clientRowId),
        ),
      )
      .returning({ userId: applicationConsents.userId });
    if (removed.length === 0) return false;
    const grants = (await tx.execute(sql`
      select distinct s.grant_id as "grantId"
      from sessions s join clients c on c.client_id = s.client_id and c.tenant_id = s.tenant_id
      where s.tenant_id = ${key.tenantId} and s.user_id = ${key.userId}
        and c.id = ${key.clientRowId} and s.grant_id is not null`)) as unknown as {
      rows: Array<{ grantId: string }>;
    };
    const issued = new PayloadStore(tx, key.tenantId, 'Grant');
    for (const { grantId } of grants.rows) {
      await issued.revokeByGrantId(grantId);
      await issued.destroy(grantId);
      await sessionOfGrant.revoke(tx, grantId);
    }
    return true;
  });
}
