import { and, count, eq, or, sql } from 'drizzle-orm';
import type { Tenant, TenantPageRequest } from '@tc/contract/tenants';
import type { Database } from '../../db/database';
import { tenants } from '../../db/schema/tenants';
import type { ServiceContext } from '../../http/crud-routes';
import { containsText, pageWindow, toPage } from '../../http/paging';
import { notFound } from '../../http/problem';
import { fileUrl } from '../files';

export async function findMasterRealm(db: Database) {
  const [row] = await db.select().from(tenants).where(eq(tenants.isMaster, true)).limit(1);
  return row;
}

export type TenantRow = typeof tenants.$inferSelect;

export function toTenant(row: TenantRow): Tenant {
  return {
    id: row.id,
    name: row.name,
    domain: row.domain ?? '',
    logoUrl: row.logoFileId ? fileUrl(row.logoFileId) : null,
    allowSignup: row.allowSignup,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Tenant management never sees the master realm: it answers 404 like an unknown id. */
export const managed = (id: string) => and(eq(tenants.id, id), eq(tenants.isMaster, false));

/** The tenant row, locked for the rest of the transaction when `lock` is set. */
export async function requireTenant(db: Database, id: string, lock = false): Promise<TenantRow> {
  const query = db.select().from(tenants).where(managed(id)).limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('tenant.not_found');
  return row;
}

export async function pageTenants({
  db,
  request,
}: ServiceContext & { request: TenantPageRequest }) {
  const search = request.filter.search;
  const where = and(
    eq(tenants.isMaster, false),
    search
      ? or(containsText(tenants.name, search), containsText(tenants.domain, search))
      : undefined,
  );
  const window = pageWindow(
    request,
    { name: sql`lower(${tenants.name})`, domain: tenants.domain, createdAt: tenants.createdAt },
    tenants.id,
  );
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(tenants)
      .where(where)
      .orderBy(...window.orderBy)
      .limit(window.limit)
      .offset(window.offset),
    db.select({ n: count() }).from(tenants).where(where),
  ]);
  return toPage(request, rows.map(toTenant), totals[0]?.n ?? 0);
}
