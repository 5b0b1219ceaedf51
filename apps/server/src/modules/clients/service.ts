import { eq } from 'drizzle-orm';
import type {
  Client,
  ClientCreate,
  ClientPageRequest,
  ClientSecret,
  ClientUpdate,
  ClientWithSecret,
} from '@tc/contract/clients';
import type { Database } from '../../db/database';
import { clients } from '../../db/schema/clients';
import type { CrudService, ServiceContext } from '../../http/crud-routes';
import { conflict } from '../../http/problem';
import { withUniqueFields } from '../../http/unique-conflict';
import { digestClientSecret } from '../../identity/openid/client-secret';
import { newOpaqueToken } from '../../identity/sessions';
import { recordChange, type ChangeAction } from '../audit';
import { requireMayGiveRole, requireRolesInTenant } from '../roles';
import { columnsOf, findClient, pageClients, setSecretHash, setServiceRoles } from './queries';
import { checkTrustOnCreate, checkTrustOnRotation, checkTrustOnUpdate } from './trust';

export const ENTITY = 'clients';

/** A client ID already used in the tenant is a 409 on the field, never a 500. */
function translateErrors<T>(work: () => Promise<T>): Promise<T> {
  return withUniqueFields(work, {
    clients_tenant_id_client_id_key: { field: 'clientId', code: 'client.id_taken' },
  });
}

/**
 * A new client secret: 32 random bytes in base64url. Only the base64url SHA-256 of its text is
 * stored, and the identity provider compares digests. A fast digest is right here, unlike for
 * passwords (argon2): a 256-bit random secret cannot be found by guessing however cheap each
 * guess is, and the token endpoint stays fast.
 */
function newSecret(): { clientSecret: string; secretHash: string } {
  const clientSecret = newOpaqueToken();
  return { clientSecret, secretHash: digestClientSecret(clientSecret) };
}

/**
 * Writes the audit entry and the change event in the same transaction, so neither exists
 * without the change nor the change without them. Rows never hold the secret or its digest.
 */
function audit(
  tx: Database,
  { caller }: ServiceContext,
  action: ChangeAction,
  entityId: string,
  change: { before?: Client; after?: Client & { secretRotated?: true } },
) {
  return recordChange(tx, {
    tenantId: caller.tenantId,
    actorId: caller.userId,
    entity: ENTITY,
    action,
    entityId,
    ...change,
  });
}

/**
 * Service roles must be roles of the tenant, and nobody grants what they do not hold: whoever
 * has the client's secret gets tokens with its service roles' permissions, so the caller must
 * hold every permission of each role it adds (the Admin role: be an administrator).
 */
async function checkServiceRoles(
  tx: Database,
  { caller }: ServiceContext,
  roleIds: string[],
  current: string[] = [],
) {
  await requireRolesInTenant(tx, caller.tenantId, roleIds, 'serviceRoleIds');
  for (const roleId of roleIds) {
    if (!current.includes(roleId)) await requireMayGiveRole(tx, caller, roleId);
  }
}

export async function getClient({ db, caller, id }: ServiceContext & { id: string }) {
  return findClient(db, caller.tenantId, id);
}

export async function createClient(
  context: ServiceContext & { data: ClientCreate },
): Promise<ClientWithSecret> {
  const { db, caller, data } = context;
  const tenantId = caller.tenantId;
  return translateErrors(() =>
    db.transaction(async (tx) => {
      await checkTrustOnCreate(tx, caller, data);
      await checkServiceRoles(tx, context, data.serviceRoleIds);
      const secret = data.type === 'confidential' ? newSecret() : undefined;
      const [created] = await tx
        .insert(clients)
        .values({ tenantId, ...columnsOf(data), secretHash: secret?.secretHash ?? null })
        .returning({ id: clients.id });
      await setServiceRoles(tx, created!.id, data.serviceRoleIds);
      const row = await findClient(tx, tenantId, created!.id);
      await audit(tx, context, 'create', row.id, { after: row });
      return secret ? { ...row, clientSecret: secret.clientSecret } : row;
    }),
  );
}

/**
 * Replaces the client's fields. The built-in client changes its name only: the console signs
 * in through it and its tokens carry everything their user holds (trust.ts). Turning a client confidential makes its first secret, answered here
 * once; turning it public drops its secret.
 */
export async function updateClient(
  context: ServiceContext & { data: ClientUpdate },
): Promise<ClientWithSecret> {
  const { db, caller, data } = context;
  const tenantId = caller.tenantId;
  return translateErrors(() =>
    db.transaction(async (tx) => {
      const before = await findClient(tx, tenantId, data.id, true);
      await checkTrustOnUpdate(tx, caller, before, data);
      await checkServiceRoles(tx, context, data.serviceRoleIds, before.serviceRoleIds);
      await tx
        .update(clients)
        .set({ ...columnsOf(data), updatedAt: new Date() })
        .where(eq(clients.id, data.id));
      let secret: ReturnType<typeof newSecret> | undefined;
      if (data.type !== before.type) {
        secret = data.type === 'confidential' ? newSecret() : undefined;
        await setSecretHash(tx, data.id, secret?.secretHash ?? null);
      }
      await setServiceRoles(tx, data.id, data.serviceRoleIds);
      const row = await findClient(tx, tenantId, data.id);
      await audit(tx, context, 'update', row.id, { before, after: row });
      return secret ? { ...row, clientSecret: secret.clientSecret } : row;
    }),
  );
}

export async function removeClient(context: ServiceContext & { id: string }): Promise<void> {
  const { db, caller, id } = context;
  await db.transaction(async (tx) => {
    const before = await findClient(tx, caller.tenantId, id, true);
    if (before.builtIn) throw conflict('client.built_in_deleted', { clientId: before.clientId });
    // Its service roles go with it (on delete cascade).
    await tx.delete(clients).where(eq(clients.id, id));
    await audit(tx, context, 'delete', id, { before });
  });
}

/**
 * A new secret for a confidential client; the previous one stops working at once. The new
 * secret carries the client's service roles, so the caller must hold all of them, as if
 * giving them anew.
 */
export async function rotateClientSecret(
  context: ServiceContext & { id: string },
): Promise<ClientSecret> {
  const { db, caller, id } = context;
  return db.transaction(async (tx) => {
    const before = await findClient(tx, caller.tenantId, id, true);
    await checkTrustOnRotation(tx, caller, before);
    if (before.type !== 'confidential') throw conflict('client.secret_public');
    await checkServiceRoles(tx, context, before.serviceRoleIds);
    const { clientSecret, secretHash } = newSecret();
    await setSecretHash(tx, id, secretHash);
    const row = await findClient(tx, caller.tenantId, id);
    await audit(tx, context, 'update', id, { before, after: { ...row, secretRotated: true } });
    return { clientSecret };
  });
}

export const clientsService: CrudService<Client, ClientPageRequest, ClientCreate, ClientUpdate> = {
  page: pageClients,
  get: getClient,
  create: createClient,
  update: updateClient,
  remove: removeClient,
};
