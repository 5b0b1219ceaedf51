import { sql } from 'drizzle-orm';
import type { Database } from '../db/database';
import { OAuthError } from './oauth-error';
import { throttledDescription, type ClientSecretGuard } from './openid/client-secret';

const invalidClient = () =>
  new OAuthError(401, 'invalid_client', 'Invalid client or Invalid client credentials');

/**
 * The password grant is switched per application, as Keycloak's "direct access grants": on
 * for the console's own client (for the earlier client and the tools written for it), off by
 * default for new ones. A confidential application also proves its secret.
 */
export async function requirePasswordClient(
  deps: { db: Database; clientSecrets: ClientSecretGuard },
  input: {
    tenantId: string;
    clientId: string | undefined;
    clientSecret: string | undefined;
    /** The client's address: wrong secrets are throttled per address and client. */
    source: string | undefined;
  },
): Promise<void> {
  if (!input.clientId) throw invalidClient();
  const result = (await deps.db.execute(sql`
    select type, secret_hash as "secretHash", 'password' = any(grant_types) as "allowed"
    from clients where tenant_id = ${input.tenantId} and client_id = ${input.clientId}`)) as unknown as {
    rows: Array<{
      type: string;
      secretHash: string | null;
      allowed: boolean;
    }>;
  };
  const client = result.rows[0];
  if (!client) throw invalidClient();
  if (client.type === 'confidential') {
    if (input.clientSecret === undefined) throw invalidClient();
    const check = await deps.clientSecrets.check({
      tenantId: input.tenantId,
      clientId: input.clientId,
      storedDigest: client.secretHash ?? undefined,
      presented: input.clientSecret,
      source: input.source,
    });
    if (check.outcome === 'throttled') {
      const seconds = check.retryAfterSeconds;
      throw new OAuthError(429, 'slow_down', throttledDescription(seconds), seconds);
    }
    if (check.outcome !== 'right') throw invalidClient();
  }
  if (!client.allowed) {
    throw new OAuthError(400, 'unauthorized_client', 'Client not allowed for direct access grants');
  }
}
