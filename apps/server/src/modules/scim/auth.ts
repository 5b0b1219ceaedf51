import type { FastifyRequest } from 'fastify';
import { TENANT_NAME_PATTERN } from '@tc/contract/tenants';
import type { AppContext } from '../../app-context';
import { findClientRow } from '../../identity/openid/client-metadata';
import { findRealm, issuerFor } from '../../identity/realms';
import { forbidden, unauthorized } from './errors';

/** The permission an application's service roles must hold to provision by SCIM. */
export const SCIM_PERMISSION = 'scim';

/** Who is provisioning: a confidential application of the tenant, by its own token. */
export interface ScimClient {
  tenantId: string;
  realm: string;
  clientId: string;
  /** The permissions of the application's active service roles, read at this request. */
  permissions: ReadonlySet<string>;
}

const bearerOf = (request: FastifyRequest) => {
  const header = request.headers.authorization;
  return header?.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : undefined;
};

/**
 * Only a client-credentials token of this realm will do: signed by us, unexpired, issued by
 * the realm named in the path, for no user (a console user's token has a session). The
 * application is read again on every request, so a deleted application, a removed grant, a
 * service role that lost `scim` or a disabled tenant is refused at once, whatever its token says.
 */
export async function authenticateScimClient(
  ctx: AppContext,
  realmName: string,
  request: FastifyRequest,
): Promise<ScimClient> {
  const token = bearerOf(request);
  if (!token || !TENANT_NAME_PATTERN.test(realmName)) throw unauthorized();
  const payload = await ctx.keys.verify(token).catch(() => undefined);
  if (!payload) throw unauthorized();
  const realm = await findRealm(ctx.db, realmName);
  if (!realm || realm.isMaster) throw unauthorized();
  const clientId = payload.client_id;
  if (
    payload.tenant_id !== realm.id ||
    payload.iss !== issuerFor(ctx.config.publicUrl, realm.name) ||
    payload.sid !== undefined ||
    typeof clientId !== 'string' ||
    payload.sub !== clientId
  ) {
    throw unauthorized();
  }
  const client = await findClientRow(ctx.db, realm.id, clientId);
  if (
    !client ||
    client.type !== 'confidential' ||
    !client.secret_hash ||
    !client.grant_types.includes('client_credentials')
  ) {
    throw unauthorized();
  }
  const permissions = new Set(client.service_permissions);
  if (!permissions.has(SCIM_PERMISSION)) {
    throw forbidden(
      `The application's service roles do not hold the "${SCIM_PERMISSION}" permission`,
    );
  }
  return { tenantId: realm.id, realm: realm.name, clientId, permissions };
}
