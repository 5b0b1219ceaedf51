import type { Grant, KoaContextWithOIDC } from 'oidc-provider';

/**
 * Every application of a tenant is registered by the tenant's own administrators, so a user
 * who signs in is not asked to consent: the grant covers what the request asks for, for the
 * user's identity and for our API (the audience of the access tokens).
 */
export async function grantFor(
  ctx: KoaContextWithOIDC,
  audience: string,
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
  grant.addResourceScope(audience, scope);
  await grant.save();
  return grant;
}
