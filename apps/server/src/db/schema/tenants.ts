import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** A tenant is an identity realm; the master realm (super administrators) is a row too. */
export const tenants = pgTable(
  'tenants',
  {
    id: id(),
    name: text().notNull(),
    // The master realm has no domain of its own: it answers on the PUBLIC_URL host.
    domain: text(),
    isMaster: boolean().notNull().default(false),
    enabled: boolean().notNull().default(true),
    allowSignup: boolean().notNull().default(false),
    logoFileId: uuid(),
    onboarding: jsonb().$type<Record<string, unknown>>(),
    /** Who must have a second factor: 'optional', 'admins' or 'everyone'. */
    mfaPolicy: text().notNull().default('optional'),
    passwordMinLength: integer().notNull().default(8),
    passwordRequireSpecial: boolean().notNull().default(true),
    /** Refuse passwords of the common-password list and ones made of the user's e-mail or name. */
    passwordRefuseCommon: boolean().notNull().default(true),
    /** Users a SCIM client creates: 'invite' (invitation mail) or 'activate' (no mail). */
    scimNewUsers: text().notNull().default('invite'),
    /** What a SCIM DELETE does to a user: 'deactivate' or 'delete'. */
    scimDelete: text().notNull().default('deactivate'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('tenants_name_lower_key').on(sql`lower(${t.name})`),
    uniqueIndex('tenants_domain_lower_key').on(sql`lower(${t.domain})`),
    index('tenants_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('tenants_domain_trgm_idx').using('gin', t.domain.op('gin_trgm_ops')),
    // The tenant list's sort orders (modules/tenants/queries.ts), of the managed tenants only.
    index('tenants_list_name_idx')
      .on(sql`lower(${t.name})`, t.id)
      .where(sql`not ${t.isMaster}`),
    index('tenants_list_domain_idx')
      .on(t.domain, t.id)
      .where(sql`not ${t.isMaster}`),
    index('tenants_list_created_at_idx')
      .on(t.createdAt, t.id)
      .where(sql`not ${t.isMaster}`),
    check('tenants_scim_new_users_check', sql`${t.scimNewUsers} in ('invite', 'activate')`),
    check('tenants_scim_delete_check', sql`${t.scimDelete} in ('deactivate', 'delete')`),
    uniqueIndex('tenants_master_key')
      .on(t.isMaster)
      .where(sql`${t.isMaster}`),
  ],
);

/**
 * How many managed tenants there are (the master realm not counted): the sum of `n` over the
 * slots, kept by the tenants table's triggers (migration 0017), one slot per connection or so,
 * so that concurrent creations do not queue on one row.
 */
export const tenantCounts = pgTable('tenant_counts', {
  slot: smallint().primaryKey(),
  n: bigint({ mode: 'number' }).notNull(),
});

/** Uploaded images (tenant and project logos), kept in the database so a process is stateless. */
export const files = pgTable(
  'files',
  {
    id: id(),
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    contentType: text().notNull(),
    content: bytea().notNull(),
    sha256: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('files_tenant_idx').on(t.tenantId)],
);
