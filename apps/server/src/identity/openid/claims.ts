import { sql } from 'drizzle-orm';
import type { FindAccount, KoaContextWithOIDC } from 'oidc-provider';
import { loadOidcProvider } from './library';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { principalById, userTokenClaims } from '../principal';
import {
  refreshAllowedByPolicy,
  SECOND_FACTOR_NOW_REQUIRED,
  secondFactorStanding,
} from '../second-factor/status';
import type { SessionOrigin } from './browser-id';
import type { Realm } from '../realms';

type PrincipalRead = ReturnType<typeof principalById>;

/**
 * Where a realm's provider reads accounts. One request may read its account several times
 * (the account, then each token's claims): once from the database.
 */
export function claimSources(db: Database, tenantId: string) {
  const reads = new WeakMap<object, Map<string, PrincipalRead>>();
  return {
    principal(ctx: object, userId: string): PrincipalRead {
      let ofRequest = reads.get(ctx);
      if (!ofRequest) reads.set(ctx, (ofRequest = new Map()));
      let read = ofRequest.get(userId);
      if (!read) ofRequest.set(userId, (read = principalById(db, tenantId, userId)));
      return read;
    },
    secondFactorStanding: (userId: string) => secondFactorStanding(db, tenantId, userId),
  };
}

export type ClaimSources = ReturnType<typeof claimSources>;

/**
 * The provider's accounts are the realm's users who may sign in. A refresh token's account is
 * looked up before the token is used: there the tenant's second-factor policy as it is now
 * refuses a user a sign-in would send to enrolment (a policy made stricter since the grant).
 */
export function accountFinder(sources: ClaimSources): FindAccount {
  return async (ctx, sub, token) => {
    const principal = await sources.principal(ctx, sub);
    if (!principal?.userActive || !principal.emailVerified || !principal.tenantEnabled) {
      return undefined;
    }
    if (token?.kind === 'RefreshToken') {
      const standing = await sources.secondFactorStanding(sub);
      if (!refreshAllowedByPolicy(standing, principal.permissions)) {
        // InvalidGrant keeps its own words ('grant request is invalid'); these say what to do.
        const { errors } = await loadOidcProvider();
        throw new errors.CustomOIDCProviderError('invalid_grant', SECOND_FACTOR_NOW_REQUIRED);
      }
    }
    return {
      accountId: sub,
      claims: () => ({
        sub,
        email: principal.email,
        email_verified: principal.emailVerified,
        name: `${principal.firstName} ${principal.lastName}`.trim(),
        given_name: principal.firstName,
        family_name: principal.lastName,
        ...(principal.locale ? { locale: principal.locale } : {}),
      }),
    };
  };
}

/**
 * Whether the browser session's account lacks a second factor the tenant's policy now
 * requires of it: a session opened before the policy was made stricter signs nobody in then
 * (single sign-on), and the sign-in page asks for the enrolment instead.
 */
export async function sessionLacksRequiredFactor(
  sources: ClaimSources,
  ctx: KoaContextWithOIDC,
): Promise<boolean> {
  const accountId = ctx.oidc.session?.accountId;
  if (!accountId) return false;
  const principal = await sources.principal(ctx, accountId);
  if (!principal) return false;
  const standing = await sources.secondFactorStanding(accountId);
  return !refreshAllowedByPolicy(standing, principal.permissions);
}

/**
 * Our session of a provider grant: the API checks every access token's `sid` against it, so
 * ending either ends both. It is opened where the grant is made, in the browser's request,
 * so that it shows where the browser was; the token requests that come later (perhaps from
 * the application's server) touch it without changing that.
 */
export const sessionOfGrant = {
  async open(
    db: Database,
    input: {
      tenantId: string;
      userId: string;
      grantId: string;
      clientId: string;
      ttl: number;
      origin?: SessionOrigin;
      /**
       * When the browser's provider session last proved its user (epoch seconds): a grant made
       * by single sign-on opens a new session without a password, so that session's proof is
       * the sign-in's, not its own start (account security changes need a recent one).
       */
      signedInAt?: number | undefined;
    },
  ): Promise<{ id: string; revoked: boolean }> {
    const expiresAt = new Date(Date.now() + input.ttl * 1000).toISOString();
    const origin = input.origin;
    const signedInAt =
      input.signedInAt === undefined ? null : new Date(input.signedInAt * 1000).toISOString();
    const result = (await db.execute(sql`
      insert into sessions (tenant_id, user_id, expires_at, grant_id, client_id, user_agent,
        ip_address, browser_hash, reverified_at)
      values (${input.tenantId}, ${input.userId}, ${expiresAt}, ${input.grantId}, ${input.clientId},
        ${origin?.userAgent ?? null}, ${origin?.ipAddress ?? null}, ${origin?.browserHash ?? null},
        ${signedInAt})
      on conflict (grant_id) where grant_id is not null
        do update set last_used_at = now(),
          user_agent = coalesce(sessions.user_agent, excluded.user_agent),
          ip_address = coalesce(sessions.ip_address, excluded.ip_address),
          browser_hash = coalesce(sessions.browser_hash, excluded.browser_hash)
      returning id, revoked_at is not null as revoked`)) as unknown as {
      rows: Array<{ id: string; revoked: boolean }>;
    };
    return result.rows[0]!;
  },

  async revoke(db: Database, grantId: string): Promise<void> {
    await db.execute(
      sql`update sessions set revoked_at = now() where grant_id = ${grantId} and revoked_at is null`,
    );
  },
};

interface IssuedToken {
  kind: string;
  accountId?: string;
  grantId?: string;
  clientId?: string;
  client?: { clientId: string; metadata(): Record<string, unknown> };
}

interface ServiceGrants {
  roles: string[];
  permissions: string[];
}

/**
 * The claims our API reads, added to every access token the provider issues: a user's roles
 * and permissions and our session's id, or a client's service roles.
 */
export async function accessTokenClaims(
  {
    db,
    realm,
    config,
    sources,
  }: { db: Database; realm: Realm; config: Config; sources: ClaimSources },
  ctx: KoaContextWithOIDC,
  token: IssuedToken,
): Promise<Record<string, unknown> | undefined> {
  const clientId = token.client?.clientId ?? token.clientId ?? '';
  if (token.kind === 'ClientCredentials') {
    // Read with the client's row in this request (client-metadata.ts).
    const granted = token.client?.metadata()['service_grants'] as ServiceGrants | undefined;
    return {
      typ: 'Bearer',
      azp: clientId,
      tenant_id: realm.id,
      realm_access: { roles: granted?.roles ?? [] },
      permissions: granted?.permissions ?? [],
    };
  }
  if (token.kind !== 'AccessToken' || !token.accountId || !token.grantId) return undefined;
  const principal = await sources.principal(ctx, token.accountId);
  if (!principal?.userActive || !principal.emailVerified || !principal.tenantEnabled) {
    const { errors } = await loadOidcProvider();
    throw new errors.InvalidGrant('the account can no longer sign in');
  }
  const session = await sessionOfGrant.open(db, {
    tenantId: realm.id,
    userId: principal.userId,
    grantId: token.grantId,
    clientId,
    ttl: config.refreshTokenTtl,
  });
  if (session.revoked) {
    const { errors } = await loadOidcProvider();
    throw new errors.InvalidGrant('the session has ended');
  }
  return userTokenClaims(principal, session.id, clientId);
}
