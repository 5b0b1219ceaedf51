import type { Client, Grant, KoaContextWithOIDC } from 'oidc-provider';
import type { Database } from '../../db/database';
import { browserOrigin } from './browser-id';
import { handedOffRequests } from './handed-off';
import { sessionOfGrant } from './claims';
import { awaitsConsent } from '../consent/awaits-consent';

/** Where a new grant's session is opened. */
export interface GrantSessions {
  db: Database;
  tenantId: string;
  /** Seconds the session lasts at most (the refresh token's absolute lifetime). */
  ttl: number;
}

/**
 * The grant of a signed-in user's authorization request: for a first-party application, or
 * one the user allowed what it asks for (identity/consent), it covers the request, for the
 * user's identity and for the one resource the application's access tokens are for (our API
 * only for the console and the applications allowed to call it: audience.ts).
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
  // An application that is not first-party gets only what the user allowed it: until then its
  // grant stays empty and the provider's consent prompt asks (identity/consent).
  if (sessions && (await awaitsConsent(ctx, sessions))) return undefined;
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
      signedInAt: session.authTime(),
    });
  }
  return grant;
}
