import { and, asc, count, eq, inArray, or, type SQL } from 'drizzle-orm';
import {
  BUILT_IN_CLIENT_ID,
  type Client,
  type ClientCreate,
  type ClientPageRequest,
} from '@tc/contract/clients';
import type { Page } from '@tc/contract/paging';
import type { Database } from '../../db/database';
import { clients, clientServiceRoles } from '../../db/schema/clients';
import type { ServiceContext } from '../../http/crud-routes';
import { containsText, pageWindow, toPage } from '../../http/paging';
import { notFound } from '../../http/problem';

/** Every column but the secret's digest, which never leaves the database through the API. */
const columns = {
  id: clients.id,
  clientId: clients.clientId,
  name: clients.name,
  type: clients.type,
  redirectUris: clients.redirectUris,
  postLogoutRedirectUris: clients.postLogoutRedirectUris,
  webOrigins: clients.webOrigins,
  grantTypes: clients.grantTypes,
  idTokenSignedResponseAlg: clients.idTokenSignedResponseAlg,
  builtIn: clients.builtIn,
  createdAt: clients.createdAt,
  updatedAt: clients.updatedAt,
};

const selectClients = (db: Database) => db.select(columns).from(clients);

type ClientRecord = Awaited<ReturnType<typeof selectClients>>[number];

/** The rows in the contract's shape, with the service roles of all of them in one query. */
async function toRows(db: Database, records: ClientRecord[]): Promise<Client[]> {
  const ids = records.map((record) => record.id);
  const roles =
    ids.length === 0
      ? []
      : await db
          .select({
            clientRowId: clientServiceRoles.clientRowId,
            roleId: clientServiceRoles.roleId,
          })
          .from(clientServiceRoles)
          .where(inArray(clientServiceRoles.clientRowId, ids))
          .orderBy(asc(clientServiceRoles.roleId));
  return records.map(({ createdAt, updatedAt, ...record }) => ({
    ...record,
    // The table's checks keep these to the contract's values.
    type: record.type as Client['type'],
    grantTypes: record.grantTypes as Client['grantTypes'],
    idTokenSignedResponseAlg: record.idTokenSignedResponseAlg as Client['idTokenSignedResponseAlg'],
    serviceRoleIds: roles.filter((role) => role.clientRowId === record.id).map((r) => r.roleId),
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  }));
}

/** One client of the tenant; another tenant's id is answered exactly like a missing one. */
export async function findClient(
  db: Database,
  tenantId: string,
  id: string,
  lock = false,
): Promise<Client> {
  const query = selectClients(db).where(and(eq(clients.tenantId, tenantId), eq(clients.id, id)));
  const [record] = lock ? await query.for('update') : await query;
  if (!record) throw notFound('client.not_found');
  const [row] = await toRows(db, [record]);
  return row!;
}

const sortColumns = {
  name: clients.name,
  clientId: clients.clientId,
  type: clients.type,
  createdAt: clients.createdAt,
};

/** The list screen: search on name or client ID, an exact type filter. */
export async function pageClients({
  db,
  caller,
  request,
}: ServiceContext & { request: ClientPageRequest }): Promise<Page<Client>> {
  const { search, type } = request.filter;
  const conditions: (SQL | undefined)[] = [eq(clients.tenantId, caller.tenantId)];
  if (search) {
    conditions.push(or(containsText(clients.name, search), containsText(clients.clientId, search)));
  }
  if (type) conditions.push(eq(clients.type, type));
  const where = and(...conditions);

  const window = pageWindow(request, sortColumns, clients.id);
  const [records, [total]] = await Promise.all([
    selectClients(db)
      .where(where)
      .orderBy(...window.orderBy)
      .limit(window.limit)
      .offset(window.offset),
    db.select({ value: count() }).from(clients).where(where),
  ]);
  return toPage(request, await toRows(db, records), total?.value ?? 0);
}

/** The columns a create or update writes (the secret's digest is set apart). */
export function columnsOf(data: ClientCreate) {
  return {
    clientId: data.clientId,
    name: data.name,
    type: data.type,
    redirectUris: data.redirectUris,
    postLogoutRedirectUris: data.postLogoutRedirectUris,
    webOrigins: data.webOrigins,
    grantTypes: data.grantTypes,
    idTokenSignedResponseAlg: data.idTokenSignedResponseAlg,
  };
}

/** Replaces the client's service roles with these (already checked to be the tenant's). */
export async function setServiceRoles(tx: Database, clientRowId: string, roleIds: string[]) {
  await tx.delete(clientServiceRoles).where(eq(clientServiceRoles.clientRowId, clientRowId));
  const unique = [...new Set(roleIds)];
  if (unique.length > 0) {
    await tx.insert(clientServiceRoles).values(unique.map((roleId) => ({ clientRowId, roleId })));
  }
}

/** Sets (or, with null, clears) the digest of the client's secret. */
export async function setSecretHash(tx: Database, id: string, secretHash: string | null) {
  await tx.update(clients).set({ secretHash, updatedAt: new Date() }).where(eq(clients.id, id));
}

/**
 * The console's own client, which every tenant (the master realm too) signs in through. Its
 * address lists start empty: the identity provider adds the console's callback at run time.
 * Migration 0011 made the same row for the tenants that existed before it.
 */
export async function insertBuiltInClient(tx: Database, tenantId: string): Promise<void> {
  await tx.insert(clients).values({
    tenantId,
    clientId: BUILT_IN_CLIENT_ID,
    name: 'Tenant Console',
    type: 'public',
    grantTypes: ['authorization_code', 'refresh_token', 'password'],
    idTokenSignedResponseAlg: 'ES256',
    builtIn: true,
  });
}
