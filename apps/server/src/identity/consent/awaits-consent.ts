import type { Client, KoaContextWithOIDC } from 'oidc-provider';
import { CLIENT_ID } from '@tc/contract/permissions';
import type { Database } from '../../db/database';
import { consentCovers } from './consents';

/**
 * The tenant's own applications sign their users in without asking: the console itself and
 * those an administrator marked first-party. Every other application is a third party, which
 * the user allows on the consent page (OpenID Connect Core §3.1.2.4).
 */
export const isFirstParty = (client: Client) =>
  client.clientId === CLIENT_ID || client['first_party'] === true;

/**
 * Whether the authorization request asks for more than the signed-in user allowed the
 * application: then the provider's grant stays empty and its consent prompt asks.
 */
export async function awaitsConsent(
  ctx: KoaContextWithOIDC,
  where: { db: Database; tenantId: string },
): Promise<boolean> {
  const { client, session } = ctx.oidc;
  if (!client || !session?.accountId || isFirstParty(client)) return false;
  const clientRowId = client['client_row_id'];
  if (typeof clientRowId !== 'string') return true;
  return !(await consentCovers(
    where.db,
    { tenantId: where.tenantId, userId: session.accountId, clientRowId },
    [...ctx.oidc.requestParamScopes],
  ));
}
