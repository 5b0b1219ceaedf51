import { and, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import type { TenantInfo } from '@tc/contract/identity';
import type { Tenant, TenantCreate, TenantPageRequest, TenantUpdate } from '@tc/contract/tenants';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { tenants } from '../../db/schema/tenants';
import type { CrudService, ServiceContext } from '../../http/crud-routes';
import { badRequest, conflict, notFound, type FieldProblems } from '../../http/problem';
import { withUniqueFields } from '../../http/unique-conflict';
import { sendInvitation } from '../../mail/account-mail';
import { recordChange } from '../audit';
import { fileUrl } from '../files';
import { insertUser } from '../users';
import { provisionTenant } from './provisioning';
import {
  findMasterRealm,
  managed,
  masterRealm,
  pageTenants,
  requireTenant,
  toTenant,
} from './queries';
import { isUuid } from '@tc/contract/text';

/**
 * Which tenant a request is for: the Tenant-ID header first, else the host name against the
 * tenants' domains; the public host (and localhost) is the master realm.
 */
export async function identifyTenant(
  db: Database,
  input: {
    tenantIdHeader: string | undefined;
    hostname: string;
    publicHost: string;
    /** The server's Google OAuth client id; undefined when Google sign-in is off. */
    googleClientId: string | undefined;
  },
): Promise<TenantInfo> {
  const host = input.hostname.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  let where;
  if (input.tenantIdHeader !== undefined) {
    if (!isUuid(input.tenantIdHeader)) throw notFound('tenant.not_found');
    where = eq(tenants.id, input.tenantIdHeader);
  } else if (host === input.publicHost || host === 'localhost' || host === '127.0.0.1') {
    where = masterRealm;
  } else {
    where = eq(sql`lower(${tenants.domain})`, host);
  }
  const [tenant] = await db
    .select()
    .from(tenants)
    .where(and(where, eq(tenants.enabled, true)))
    .limit(1);
  if (!tenant) throw notFound('tenant.unknown_address');
  const googleClientId = tenant.isMaster ? null : (input.googleClientId ?? null);
  return {
    id: tenant.id,
    name: tenant.name,
    domain: tenant.isMaster ? input.publicHost : tenant.domain,
    logoUrl: tenant.logoFileId ? fileUrl(tenant.logoFileId) : null,
    signupEnabled: tenant.allowSignup && !tenant.isMaster,
    // Super administrators never sign in with Google (modules/auth/google-sign-in.ts), so no button.
    googleEnabled: googleClientId !== null,
    // The console renders Google's button with it, so the web build needs no client id.
    googleClientId,
    passwordRules: {
      passwordMinLength: tenant.passwordMinLength,
      passwordRequireSpecial: tenant.passwordRequireSpecial,
      passwordRefuseCommon: tenant.passwordRefuseCommon,
    },
  };
}

/**
 * The rules the contract cannot know: the domain is not the console's own host, and name and
 * domain are free regardless of case. Both fields are reported at once; the unique indexes
 * remain the guard against a concurrent insert (see `UNIQUE_NAME_AND_DOMAIN`).
 */
export async function requireAvailable(
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
export const UNIQUE_NAME_AND_DOMAIN = {
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

export async function getTenant({ db, id }: ServiceContext & { id: string }) {
  return toTenant(await requireTenant(db, id));
}

/** Realm, system permissions, Admin role, the invited administrator and the audit entry: all or nothing. */
export async function createTenant({
  db,
  config,
  caller,
  data,
}: ServiceContext & { data: TenantCreate }) {
  await requireAvailable(db, config, data);
  return withUniqueFields(
    () =>
      db.transaction(async (tx) => {
        const { tenantId, tenant: row, adminRoleId } = await provisionTenant(tx, data);
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
        const tenant = toTenant(row);
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
}

/** The realm is the tenant's name: a rename moves the token endpoint to /realms/{newName}. */
export async function updateTenant({
  db,
  config,
  caller,
  data,
}: ServiceContext & { data: TenantUpdate }) {
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
}

/**
 * Deleting the row removes all the tenant's data by FK cascade, sessions included, so its
 * tokens stop working at once. The tenant's own audit rows go with it, so the deletion is
 * recorded under the master realm.
 */
export async function deleteTenant({ db, caller, id }: ServiceContext & { id: string }) {
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
}

export const tenantService: CrudService<Tenant, TenantPageRequest, TenantCreate, TenantUpdate> = {
  page: pageTenants,
  get: getTenant,
  create: createTenant,
  update: updateTenant,
  remove: deleteTenant,
};
