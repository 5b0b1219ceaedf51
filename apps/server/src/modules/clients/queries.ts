import { and, eq, or, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import {
  BUILT_IN_CLIENT_ID,
  type CLIENT_SORT_FIELDS,
  type Client,
  type ClientCreate,
  type ClientPageRequest,
} from '@tc/contract/clients';
import type { Page } from '@tc/contract/paging';
import type { Database } from '../../db/database';
import { clients, clientServiceRoles } from '../../db/schema/clients';
import type { ServiceContext } from '../../http/crud-routes';
import {
  cappedCountQuery,
  matchesSearch,
  pageIdsQuery,
  pageOfCountedRows,
} from '../../http/paging';
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
  firstParty: clients.firstParty,
  consoleApiAccess: clients.consoleApiAccess,
  createdAt: clients.createdAt,
  updatedAt: clients.updatedAt,
};

/**
 * The client's service roles, as one JSON array, read in the row's statement. A subquery of its
 * own: it keeps its columns qualified even when the outer query has one table.
 */
const serviceRoleIds = (db: Database) =>
  sql<string[]>`${db
    .select({
      list: sql`coalesce(json_agg(${clientServiceRoles.roleId} order by ${clientServiceRoles.roleId}), '[]'::json)`,
    })
    .from(clientServiceRoles)
    .where(eq(clientServiceRoles.clientRowId, clients.id))}`;

const selectClients = (db: Database) =>
  db.select({ ...columns, serviceRoleIds: serviceRoleIds(db) }).from(clients);

type ClientRecord = Awaited<ReturnType<typeof selectClients>>[number];

/** The row in the contract's shape. */
function toRow({ createdAt, updatedAt, ...record }: ClientRecord): Client {
  return {
    ...record,
    // The table's checks keep these to the contract's values.
    type: record.type as Client['type'],
    grantTypes: record.grantTypes as Client['grantTypes'],
    idTokenSignedResponseAlg: record.idTokenSignedResponseAlg as Client['idTokenSignedResponseAlg'],
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  };
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
  return toRow(record);
}

/**
 * The order of each sort, each that of an index (read backwards for descending): client IDs
 * are unique within a tenant, so they alone order completely; a sort by type goes on by name.
 */
const sortKeys: Record<(typeof CLIENT_SORT_FIELDS)[number], PgColumn[]> = {
  name: [clients.name, clients.id],
  clientId: [clients.clientId],
  type: [clients.type, clients.name, clients.id],
  createdAt: [clients.createdAt, clients.id],
};

function orderOf({ listSort, filter }: ClientPageRequest): PgColumn[] {
  // One type's clients are in name order.
  return sortKeys[listSort.field === 'type' && filter.type ? 'name' : listSort.field];
}

function pageWhere(tenantId: string, filter: ClientPageRequest['filter']) {
  return and(
    eq(clients.tenantId, tenantId),
    // The start of name or client ID, or anywhere in them, by the fragment's length; their
    // trigram indexes serve both.
    filter.search
      ? or(
          matchesSearch(clients.name, filter.search),
          matchesSearch(clients.clientId, filter.search),
        )
      : undefined,
    filter.type ? eq(clients.type, filter.type) : undefined,
  )!;
}

export function clientCountQuery(
  db: Database,
  tenantId: string,
  filter: ClientPageRequest['filter'],
) {
  return cappedCountQuery(db, clients, pageWhere(tenantId, filter));
}

/**
 * A page and the total as one statement: the page's clients are found along the sort's index,
 * then read with their service roles.
 */
export function clientPageQuery(db: Database, tenantId: string, request: ClientPageRequest) {
  const where = pageWhere(tenantId, request.filter);
  const ids = pageIdsQuery(
    db,
    { table: clients, id: clients.id, where },
    orderOf(request),
    request,
  );
  const total = clientCountQuery(db, tenantId, request.filter);
  return db
    .select({
      ...columns,
      serviceRoleIds: serviceRoleIds(db),
      total: sql<number>`(${total})`.mapWith(Number),
    })
    .from(ids.page)
    .innerJoin(clients, eq(clients.id, ids.id))
    .orderBy(...ids.orderBy);
}

/** The list screen: search on name or client ID, an exact type filter. */
export async function pageClients({
  db,
  caller,
  request,
}: ServiceContext & { request: ClientPageRequest }): Promise<Page<Client>> {
  const records = await clientPageQuery(db, caller.tenantId, request);
  return pageOfCountedRows(request, records, toRow, () =>
    clientCountQuery(db, caller.tenantId, request.filter),
  );
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
    firstParty: data.firstParty,
    consoleApiAccess: data.consoleApiAccess,
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
    firstParty: true,
    consoleApiAccess: true,
  });
}
