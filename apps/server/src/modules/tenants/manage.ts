import { and, count, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@tc/contract/paging';
import type { Tenant, TenantCreate, TenantPageRequest, TenantUpdate } from '@tc/contract/tenants';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { tenants } from '../../db/schema/tenants';
import type { CrudService } from '../../http/crud-routes';
import { containsText, pageWindow, toPage } from '../../http/paging';
import { badRequest, conflict, notFound, type FieldProblems } from '../../http/problem';
import { withUniqueFields } from '../../http/unique-conflict';
import { recordChange } from '../audit';
import { fileUrl } from '../files';
import { sendInvitation } from '../../mail/account-mail';
import { insertUser } from '../users';
import { findMasterRealm, provisionTenant } from './service';

type TenantRow = typeof tenants.$inferSelect;

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
const managed = (id: string) => and(eq(tenants.id, id), eq(tenants.isMaster, false));

/** The tenant row, locked for the rest of the transaction when `lock` is set. */
export async function requireTenant(db: Database, id: string, lock = false): Promise<TenantRow> {
  const query = db.select().from(tenants).where(managed(id)).limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('tenant.not_found');
  return row;
}

/**
 * The rules the contract cannot know: the domain is not the console's own host, and name and
 * domain are free regardless of case. Both fields are reported at once; the unique indexes
 * remain the guard against a concurrent insert (see `UNIQUE_NAME_AND_DOMAIN`).
 */
async function requireAvailable(
  db: Database,
  config: Config,
  data: { name: string; domain: string },
  exceptId?: string,
): Promise<void> {
  const publicHost = new URL(config.publicUrl).hostname.toLowerCase();
  if (data.domain === publicHost || data.domain === 'localhost') {
    throw badRequest('request.invalid', {}, { domain: 'tenant.domain_is_console' });
  }
  const clash: SQL | undefined = or(
    eq(sql`lower(${tenants.name})`, data.name.toLowerCase()),
    eq(sql`lower(${tenants.domain})`, data.domain),
  );
  const taken = await db
    .select({ name: tenants.name, domain: tenants.domain })
    .from(tenants)
    .where(exceptId ? and(clash, ne(tenants.id, exceptId)) : clash);
  const errors: FieldProblems = {};
  if (taken.some((t) => t.name.toLowerCase() === data.name.toLowerCase())) {
    errors.name = 'tenant.name_taken';
  }
  if (taken.some((t) => t.domain?.toLowerCase() === data.domain)) {
    errors.domain = 'tenant.domain_taken';
  }
  if (Object.keys(errors).length > 0) throw conflict('tenant.exists', {}, errors);
}

/** A unique-index violation (a concurrent create or rename) as the same 409 as the pre-check. */
const UNIQUE_NAME_AND_DOMAIN = {
  tenants_name_lower_key: { field: 'name', code: 'tenant.exists', fieldCode: 'tenant.name_taken' },
  tenants_domain_lower_key: {
    field: 'domain',
    code: 'tenant.exists',
    fieldCode: 'tenant.domain_taken',
  },
} as const;

/** "jane.doe@…" → Jane Doe: a readable name until the invited administrator edits it. */
export function nameFromEmail(email: string): { firstName: string; lastName: string } {
  const words = email
    .split('@')[0]!
    .split(/[._+-]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return { firstName: words[0] ?? 'Admin', lastName: words.slice(1).join(' ') };
}

type TenantService = CrudService<Tenant, TenantPageRequest, TenantCreate, TenantUpdate>;

export const tenantService: TenantService = {
  async page({ db, request }): Promise<Page<Tenant>> {
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
  },

  async get({ db, id }) {
    return toTenant(await requireTenant(db, id));
  },

  /** Realm, system permissions, Admin role, the invited administrator and the audit entry: all or nothing. */
  async create({ db, config, caller, data }) {
    await requireAvailable(db, config, data);
    return withUniqueFields(
      () =>
        db.transaction(async (tx) => {
          const { tenantId, adminRoleId } = await provisionTenant(tx, data);
          let invitation: { userId: string; email: string } | undefined;
          if (data.adminEmail) {
            const userId = await insertUser(tx, {
              tenantId,
              email: data.adminEmail,
              ...nameFromEmail(data.adminEmail),
              roleId: adminRoleId,
            });
            invitation = { userId, email: data.adminEmail };
            await sendInvitation(tx, config.publicUrl, { userId, inviterId: caller.userId });
          }
          const tenant = toTenant(await requireTenant(tx, tenantId));
          await recordChange(tx, {
            tenantId,
            actorId: caller.userId,
            entity: 'tenants',
            action: 'create',
            entityId: tenantId,
            // Who was invited and to which address; the invitation mail is queued above.
            after: invitation ? { ...tenant, invitation } : tenant,
          });
          return tenant;
        }),
      UNIQUE_NAME_AND_DOMAIN,
    );
  },

  /** The realm is the tenant's name: a rename moves the token endpoint to /realms/{newName}. */
  async update({ db, config, caller, data }) {
    await requireAvailable(db, config, data, data.id);
    return withUniqueFields(
      () =>
        db.transaction(async (tx) => {
          const before = await requireTenant(tx, data.id, true);
          const [row] = await tx
            .update(tenants)
            .set({
              name: data.name,
              domain: data.domain,
              allowSignup: data.allowSignup ?? before.allowSignup,
              updatedAt: new Date(),
            })
            .where(managed(data.id))
            .returning();
          const tenant = toTenant(row!);
          await recordChange(tx, {
            tenantId: data.id,
            actorId: caller.userId,
            entity: 'tenants',
            action: 'update',
            entityId: data.id,
            before: toTenant(before),
            after: tenant,
          });
          return tenant;
        }),
      UNIQUE_NAME_AND_DOMAIN,
    );
  },

  /**
   * Deleting the row removes all the tenant's data by FK cascade, sessions included, so its
   * tokens stop working at once. The tenant's own audit rows go with it, so the deletion is
   * recorded under the master realm.
   */
  async remove({ db, caller, id }) {
    await db.transaction(async (tx) => {
      const before = await requireTenant(tx, id, true);
      const master = await findMasterRealm(tx);
      if (!master) throw new Error('The master realm is missing.');
      await recordChange(tx, {
        tenantId: master.id,
        actorId: caller.userId,
        entity: 'tenants',
        action: 'delete',
        entityId: id,
        before: toTenant(before),
      });
      await tx.delete(tenants).where(managed(id));
    });
  },
};
