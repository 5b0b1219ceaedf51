import type { Client, Grant, KoaContextWithOIDC } from 'oidc-provider';
import type { Database } from '../../db/database';
import { browserOrigin } from './browser-id';
import { handedOffRequests } from './handed-off';
import { sessionOfGrant } from './claims';

/** Where a new grant's session is opened. */
export interface GrantSessions {
  db: Database;
  tenantId: string;
  /** Seconds the session lasts at most (the refresh token's absolute lifetime). */
  ttl: number;
}

/**
 * Every application of a tenant is registered by the tenant's own administrators, so a user
 * who signs in is not asked to consent: the grant covers what the request asks for, for the
 * user's identity and for our API (the audience of the access tokens).
 *
 * This runs in the browser's own request (the authorization request, or its resume after the
 * sign-in), so a new grant's session is opened here with the browser's user agent, address
 * and id cookie: the token requests come later, perhaps from the application's server.
 */
export async function grantFor(
  ctx: KoaContextWithOIDC,
  /** The resource the client's access tokens are for (audience.ts). */
  resourceFor: (client: Client) => string,
  sessions?: GrantSessions,
): Promise<Grant | undefined> {
  const { client, session } = ctx.oidc;
  const accountId = session?.accountId;
  if (!client || !accountId) return undefined;
  const { Grant } = ctx.oidc.provider;
  const existingId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
  const existing = existingId ? await Grant.find(existingId) : undefined;
  const grant =
    existing?.accountId === accountId
      ? existing
      : new Grant({ clientId: client.clientId, accountId });
  const scope = [...ctx.oidc.requestParamScopes].join(' ');
  grant.addOIDCScope(scope);
  grant.addOIDCClaims([...ctx.oidc.requestParamClaims]);
  grant.addResourceScope(resourceFor(client), scope);
  await grant.save();
  if (sessions && grant !== existing) {
    await sessionOfGrant.open(sessions.db, {
      tenantId: sessions.tenantId,
      userId: accountId,
      grantId: grant.jti,
      clientId: client.clientId,
      ttl: sessions.ttl,
      origin: browserOrigin(ctx.req.headers, handedOffRequests.get(ctx.req)?.ip ?? ctx.ip),
    });
  }
  return grant;
}
