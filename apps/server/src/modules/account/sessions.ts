import { sql, type SQL } from 'drizzle-orm';
import type { Session } from '@tc/contract/security';
import type { Database } from '../../db/database';
import { notFound } from '../../http/problem';
import { PayloadStore } from '../../identity/openid/payload-store';
import { browserOf } from '../../identity/second-factor/notifications';
import { openSessions } from './queries';
import { recordSecurityChange } from './security-record';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** A user's open sessions as the account page and the administrator see them. */
export async function listSessions(
  db: Database,
  owner: { tenantId: string; userId: string },
  currentSessionId: string | undefined,
): Promise<Session[]> {
  const rows = await openSessions(db, owner.tenantId, owner.userId);
  return rows.map((row) => ({
    id: row.id,
    ...browserOf(row.userAgent ?? undefined),
    clientId: row.clientId,
    clientName: row.clientName,
    ipAddress: row.ipAddress,
    createdAt: new Date(row.createdAt).toISOString(),
    lastActiveAt: new Date(row.lastUsedAt).toISOString(),
    current: row.id === currentSessionId,
  }));
}

/** Which of a user's open sessions to end: one, all but one, or all. */
export type SessionsToEnd = { only: string } | { allBut: string } | 'all';

/**
 * Ends sessions of a user in the caller's transaction and answers how many were open.
 *
 * Our session's end is what the API checks on every request (the caller cache counts the
 * write as a change of the tenant, so its access tokens fail at the very next request), and
 * what both refresh paths refuse. A session of the code flow also has a grant at the OpenID
 * provider: the grant and everything issued under it go, so its refresh token is unknown
 * there too. And the provider's browser sessions of the ended sign-ins go as well, or single
 * sign-on would let those browsers straight back in without the password.
 */
export async function endSessions(
  tx: Database,
  owner: { tenantId: string; userId: string },
  which: SessionsToEnd,
): Promise<number> {
  const only = typeof which === 'object' && 'only' in which ? which.only : null;
  const allBut = typeof which === 'object' && 'allBut' in which ? which.allBut : null;
  const ended = rowsOf<{ id: string; grantId: string | null }>(
    await tx.execute(sql`
      update sessions set revoked_at = now()
      where tenant_id = ${owner.tenantId} and user_id = ${owner.userId}
        and revoked_at is null and expires_at > now()
        and (${only}::uuid is null or id = ${only}::uuid)
        and (${allBut}::uuid is null or id <> ${allBut}::uuid)
      returning id, grant_id as "grantId"`),
  );
  const grants = ended.flatMap((session) => (session.grantId ? [session.grantId] : []));
  const store = new PayloadStore(tx, owner.tenantId, 'Grant');
  for (const grantId of grants) await store.revokeByGrantId(grantId);
  if (only) {
    if (grants.length > 0) await endBrowserSessions(tx, owner, { holding: grants });
  } else {
    const kept = allBut ? await grantOf(tx, allBut) : null;
    await endBrowserSessions(tx, owner, { allBut: kept });
  }
  return ended.length;
}

/**
 * Ends sessions of a user in a transaction of its own, audited as a change of that user by
 * `actorId` (the user, or an administrator); 404 when the one session named is not theirs or
 * no longer open. Answers how many ended.
 */
export async function revokeSessions(
  db: Database,
  input: { tenantId: string; userId: string; actorId: string },
  which: SessionsToEnd,
): Promise<number> {
  return db.transaction(async (tx) => {
    const ended = await endSessions(tx, input, which);
    const only = typeof which === 'object' && 'only' in which ? which.only : undefined;
    if (only && ended === 0) throw notFound('session.not_found');
    if (ended > 0) {
      await recordSecurityChange(tx, {
        ...input,
        after: { endedSessions: ended, ...(only ? { session: only } : {}) },
      });
    }
    return ended;
  });
}

async function grantOf(tx: Database, sessionId: string): Promise<string | null> {
  const [row] = rowsOf<{ grantId: string | null }>(
    await tx.execute(sql`select grant_id as "grantId" from sessions where id = ${sessionId}`),
  );
  return row?.grantId ?? null;
}

/**
 * The provider's browser sessions (its 'Session' artifacts) of the user: those holding one of
 * the given grants, or all but the one holding the grant kept (the caller's own browser).
 */
async function endBrowserSessions(
  tx: Database,
  owner: { tenantId: string; userId: string },
  which: { holding: string[] } | { allBut: string | null },
): Promise<void> {
  // The provider's session lists, per application, the grant each sign-in made.
  const holds = (grants: SQL) => sql`exists (
      select 1 from jsonb_each(case when jsonb_typeof(payload->'authorizations') = 'object'
        then payload->'authorizations' else '{}'::jsonb end) a
      where a.value->>'grantId' in (${grants}))`;
  let condition: SQL;
  if ('holding' in which) {
    condition = holds(
      sql.join(
        which.holding.map((grantId) => sql`${grantId}`),
        sql`, `,
      ),
    );
  } else {
    condition = which.allBut ? sql`not ${holds(sql`${which.allBut}`)}` : sql`true`;
  }
  await tx.execute(sql`
    delete from oidc_payloads
    where tenant_id = ${owner.tenantId} and model = 'Session'
      and payload->>'accountId' = ${owner.userId} and ${condition}`);
}
