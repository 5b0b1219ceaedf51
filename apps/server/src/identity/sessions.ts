import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/database';
import { prepareRawStatement } from '../db/prepared';
import { CLIENT_ID } from '@tc/contract/permissions';
import { refreshTokens, sessions } from '../db/schema/identity';
import type { SessionOrigin } from './openid/browser-id';

type Executor = Pick<Database, 'insert' | 'update' | 'select' | 'execute'>;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');
export const newOpaqueToken = () => randomBytes(32).toString('base64url');

export interface SessionLifetimes {
  absoluteSeconds: number;
  idleSeconds: number;
}

/** A session and its first refresh token in one statement: one round trip, one commit. */
function prepareStartSession(db: Executor) {
  const query = sql`
    with started as (
      insert into sessions (tenant_id, user_id, expires_at, client_id, user_agent, ip_address,
        browser_hash)
      values (${sql.placeholder('tenantId')}, ${sql.placeholder('userId')}, ${sql.placeholder('expiresAt')},
        ${sql.placeholder('clientId')}, ${sql.placeholder('userAgent')},
        ${sql.placeholder('ipAddress')}, ${sql.placeholder('browserHash')})
      returning id, tenant_id
    ), first_token as (
      insert into refresh_tokens (token_hash, tenant_id, session_id)
      select ${sql.placeholder('tokenHash')}, tenant_id, id from started
      returning session_id
    )
    select session_id as "sessionId",
      set_config('synchronous_commit', 'off', true) as "asyncCommit"
    from first_token`;
  return prepareRawStatement(db as Database, 'start_session', query);
}
const preparedStart = new WeakMap<object, ReturnType<typeof prepareStartSession>>();

export async function startSession(
  db: Executor,
  owner: { tenantId: string; userId: string },
  lifetimes: SessionLifetimes,
  clientId: string,
  /** Where the session was opened: shown to its user, and compared for new-browser notices. */
  origin: Partial<SessionOrigin> = {},
): Promise<{ sessionId: string; refreshToken: string; refreshExpiresIn: number }> {
  const expiresAt = new Date(Date.now() + lifetimes.absoluteSeconds * 1000);
  const refreshToken = newOpaqueToken();
  let prepared = preparedStart.get(db);
  if (!prepared) preparedStart.set(db, (prepared = prepareStartSession(db)));
  const result = await prepared.execute({
    tenantId: owner.tenantId,
    userId: owner.userId,
    expiresAt: expiresAt.toISOString(),
    tokenHash: hashToken(refreshToken),
    clientId,
    userAgent: origin.userAgent ?? null,
    ipAddress: origin.ipAddress ?? null,
    browserHash: origin.browserHash ?? null,
  });
  const [row] = (result as { rows: Array<{ sessionId: string }> }).rows;
  return {
    sessionId: row!.sessionId,
    refreshToken,
    refreshExpiresIn: Math.min(lifetimes.idleSeconds, lifetimes.absoluteSeconds),
  };
}

export async function issueRefreshToken(
  db: Executor,
  tenantId: string,
  sessionId: string,
): Promise<string> {
  const token = newOpaqueToken();
  await db.insert(refreshTokens).values({ tokenHash: hashToken(token), tenantId, sessionId });
  return token;
}

export async function revokeSession(db: Executor, sessionId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Ends every session of a user (deactivation, password change). */
export async function revokeUserSessions(db: Executor, userId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

export async function findSessionByRefreshToken(
  db: Executor,
  token: string,
): Promise<{ sessionId: string; tenantId: string; clientId: string } | undefined> {
  const [row] = await db
    .select({
      sessionId: refreshTokens.sessionId,
      tenantId: refreshTokens.tenantId,
      clientId: sessions.clientId,
    })
    .from(refreshTokens)
    .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
    .where(eq(refreshTokens.tokenHash, hashToken(token)));
  // Sessions from before applications were recorded are the console's.
  return row ? { ...row, clientId: row.clientId ?? CLIENT_ID } : undefined;
}
