import type { Database } from '../db/database';
import { prepareRawStatement } from '../db/prepared';
import { toPrincipal, type Principal, type PrincipalRow } from './principal';
import { and, eq, sql } from 'drizzle-orm';
import { CLIENT_ID } from '@tc/contract/permissions';
import { refreshTokens, sessions } from '../db/schema/identity';
import { hashToken, newOpaqueToken } from './sessions';
import type { MfaPolicy } from '@tc/contract/security';
import type { SecondFactorStanding } from './second-factor/status';

export type Rotation =
  | {
      outcome: 'rotated';
      principal: Principal;
      sessionId: string;
      expiresAt: Date;
      refreshToken: string;
      /** The tenant's second-factor policy and the user's factors, as they are now. */
      secondFactor: SecondFactorStanding;
    }
  | { outcome: 'session-ended' }
  | { outcome: 'other-client' }
  | { outcome: 'reused'; sessionId: string }
  | { outcome: 'unknown' };

interface RotationRow extends Partial<PrincipalRow> {
  claimedSessionId: string;
  expiresAt: Date | null;
  mfaPolicy: MfaPolicy | null;
  hasSecondFactor: boolean | null;
}

/**
 * Rotates a refresh token in one statement, so the hot path is one round trip and atomic:
 * claim the presented token (once only), touch its live session, store the successor, and
 * read the principal for the new access token. Only when nothing was claimed does a second
 * query tell a replayed token (whose family must end) from an unknown one.
 */
/**
 * The rotation statement, prepared once per database: PostgreSQL parses and plans it once per
 * connection, and Drizzle does not rebuild its SQL on every refresh.
 */
function prepareRotation(db: Database) {
  const query = sql`
    with claimed as (
      update refresh_tokens set used_at = now()
      where token_hash = ${sql.placeholder('tokenHash')} and tenant_id = ${sql.placeholder('tenantId')}
        and used_at is null
        -- Bound to the client that got it (sessions from before applications were recorded
        -- are the console's): another client's attempt spends nothing.
        and exists (
          select 1 from sessions s where s.id = refresh_tokens.session_id
            and coalesce(s.client_id, 'react-client') = ${sql.placeholder('clientId')}
        )
      returning session_id
    ), touched as (
      update sessions set last_used_at = now()
      from claimed
      where sessions.id = claimed.session_id and sessions.revoked_at is null
        and sessions.expires_at > now()
        and sessions.last_used_at > now() - make_interval(secs => ${sql.placeholder('idleSeconds')})
      returning sessions.id, sessions.user_id, sessions.expires_at
    ), successor as (
      insert into refresh_tokens (token_hash, tenant_id, session_id)
      select ${sql.placeholder('successorHash')}, ${sql.placeholder('tenantId')}, touched.id from touched
      returning session_id
    )
    select claimed.session_id as "claimedSessionId", touched.expires_at as "expiresAt",
      u.id as "userId", u.email, u.first_name as "firstName", u.last_name as "lastName",
      u.status, u.email_verified as "emailVerified", null as "passwordHash",
      t.id as "tenantId", t.name as realm, t.is_master as "isMaster", t.enabled as "tenantEnabled",
      r.name as "roleName", r.status as "roleStatus", null as "lockedUntil", null as "failureUserId",
      coalesce((
        select json_agg(p.name order by p.name)
        from role_permissions rp join permissions p on p.id = rp.permission_id
        where rp.role_id = r.id and r.status = 'active'
      ), '[]'::json) as permissions,
      t.mfa_policy as "mfaPolicy",
      exists (select 1 from totp_secrets where user_id = u.id and confirmed_at is not null)
        or exists (select 1 from passkeys where user_id = u.id) as "hasSecondFactor",
      (select count(*) from successor) as stored,
      -- Like Keycloak's in-memory sessions: a database crash may forget the last rotations
      -- (those clients sign in again), so this commit does not wait for the WAL flush.
      set_config('synchronous_commit', 'off', true) as "asyncCommit"
    from claimed
    left join touched on touched.id = claimed.session_id
    left join users u on u.id = touched.user_id
    left join tenants t on t.id = u.tenant_id
    left join roles r on r.id = u.role_id`;
  return prepareRawStatement(db, 'rotate_refresh_token', query);
}
const preparedRotation = new WeakMap<Database, ReturnType<typeof prepareRotation>>();

export async function rotateRefreshToken(
  db: Database,
  input: { tenantId: string; clientId: string; token: string; idleSeconds: number },
): Promise<Rotation> {
  const refreshToken = newOpaqueToken();
  let prepared = preparedRotation.get(db);
  if (!prepared) preparedRotation.set(db, (prepared = prepareRotation(db)));
  const result = await prepared.execute({
    tokenHash: hashToken(input.token),
    tenantId: input.tenantId,
    idleSeconds: input.idleSeconds,
    successorHash: hashToken(refreshToken),
    clientId: input.clientId,
  });
  const [row] = (result as unknown as { rows: RotationRow[] }).rows;
  if (!row) {
    // Nothing claimed: never issued here, issued to another client, or already used (a replay).
    const [token] = await db
      .select({
        sessionId: refreshTokens.sessionId,
        usedAt: refreshTokens.usedAt,
        clientId: sessions.clientId,
      })
      .from(refreshTokens)
      .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
      .where(
        and(
          eq(refreshTokens.tokenHash, hashToken(input.token)),
          eq(refreshTokens.tenantId, input.tenantId),
        ),
      );
    if (!token) return { outcome: 'unknown' };
    if ((token.clientId ?? CLIENT_ID) !== input.clientId) return { outcome: 'other-client' };
    return token.usedAt
      ? { outcome: 'reused', sessionId: token.sessionId }
      : { outcome: 'session-ended' };
  }
  if (!row.userId || !row.expiresAt) return { outcome: 'session-ended' };
  return {
    outcome: 'rotated',
    principal: toPrincipal(row as PrincipalRow),
    sessionId: row.claimedSessionId,
    expiresAt: new Date(row.expiresAt),
    refreshToken,
    secondFactor: { policy: row.mfaPolicy ?? 'optional', enrolled: row.hasSecondFactor === true },
  };
}
