import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns';
import { tenants } from './tenants';

/** A tenant's row owns it: deleting the tenant deletes it. */
export const tenantId = () =>
  uuid()
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' });

export const roles = pgTable(
  'roles',
  {
    id: id(),
    tenantId: tenantId(),
    name: text().notNull(),
    description: text(),
    status: text().notNull().default('active'),
    // Built-in roles (Admin, Member, superAdmin) cannot be renamed, deactivated or deleted.
    isSystem: boolean().notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Also the list's order by name (names are unique regardless of case); the others below,
    // for the tenant and for one status, read backwards for descending. The two by name
    // INCLUDE (name, id) in migration 0016 (Drizzle cannot express INCLUDE), so that their
    // pages are found in the index alone.
    uniqueIndex('roles_tenant_name_key').on(t.tenantId, sql`lower(${t.name})`),
    index('roles_tenant_status_idx').on(t.tenantId, t.status, sql`lower(${t.name})`),
    index('roles_tenant_created_idx').on(t.tenantId, t.createdAt, t.id),
    index('roles_status_created_idx').on(t.tenantId, t.status, t.createdAt, t.id),
    index('roles_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    check('roles_status_check', sql`${t.status} in ('active', 'inactive')`),
  ],
);

export const permissions = pgTable(
  'permissions',
  {
    id: id(),
    tenantId: tenantId(),
    name: text().notNull(),
    description: text(),
    isSystem: boolean().notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Also the list's order by name (names are unique regardless of case); it INCLUDEs
    // (name, id) in migration 0016 (Drizzle cannot express INCLUDE).
    uniqueIndex('permissions_tenant_name_key').on(t.tenantId, sql`lower(${t.name})`),
    index('permissions_tenant_created_idx').on(t.tenantId, t.createdAt, t.id),
    index('permissions_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
  ],
);

export const rolePermissions = pgTable(
  'role_permissions',
  {
    tenantId: tenantId(),
    roleId: uuid()
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    permissionId: uuid()
      .notNull()
      .references(() => permissions.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.roleId, t.permissionId] }),
    index('role_permissions_permission_idx').on(t.permissionId),
  ],
);

export const users = pgTable(
  'users',
  {
    id: id(),
    tenantId: tenantId(),
    email: text().notNull(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    // Null until an invited user sets a password: such a user cannot sign in.
    passwordHash: text(),
    roleId: uuid()
      .notNull()
      .references(() => roles.id),
    status: text().notNull().default('active'),
    emailVerified: boolean().notNull().default(true),
    locale: text(),
    /** Whether a sign-in from a browser not seen before is told by mail. */
    notifyNewBrowser: boolean().notNull().default(true),
    /** The user's ID in the identity system that provisions it by SCIM; exact, unique when set. */
    externalId: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_tenant_email_key').on(t.tenantId, sql`lower(${t.email})`),
    uniqueIndex('users_tenant_external_id_key')
      .on(t.tenantId, t.externalId)
      .where(sql`${t.externalId} is not null`),
    // One index per sort of the list, in its order (migration 0015): the text sorts order by
    // the first character, then the column, so each character is one range of the index (the
    // buckets of user_sort_counts). Each also INCLUDEs the columns a filter or a search tests
    // (Drizzle cannot express INCLUDE), so pages are found in the index alone.
    index('users_tenant_email_idx').on(t.tenantId, sql`left(${t.email}, 1)`, t.email, t.id),
    index('users_tenant_first_name_idx').on(
      t.tenantId,
      sql`left(${t.firstName}, 1)`,
      t.firstName,
      t.id,
    ),
    index('users_tenant_last_name_idx').on(
      t.tenantId,
      sql`left(${t.lastName}, 1)`,
      t.lastName,
      t.id,
    ),
    index('users_tenant_created_at_idx').on(t.tenantId, t.createdAt, t.id),
    index('users_tenant_status_idx').on(t.tenantId, t.status, t.id),
    index('users_tenant_role_idx').on(t.tenantId, t.roleId, t.id),
    // Deleting a role checks that no user still has it (the foreign key), by role alone.
    index('users_role_idx').on(t.roleId),
    // Invited users (no password yet) for the dashboard; user_counts has no such column.
    index('users_tenant_invited_idx')
      .on(t.tenantId, t.status)
      .where(sql`${t.passwordHash} is null`),
    index('users_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    index('users_first_name_trgm_idx').using('gin', t.firstName.op('gin_trgm_ops')),
    index('users_last_name_trgm_idx').using('gin', t.lastName.op('gin_trgm_ops')),
    check('users_status_check', sql`${t.status} in ('active', 'inactive')`),
  ],
);

/** A session is one sign-in; its refresh tokens form a rotation family (docs/identity-provider.md). */
export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    tenantId: tenantId(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastUsedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    revokedAt: timestamp({ withTimezone: true }),
    /**
     * When the user last proved themselves again in this session (re-verification before a
     * security change of the account); null: not since the sign-in, at `createdAt`.
     */
    reverifiedAt: timestamp({ withTimezone: true }),
    /** The OpenID provider's grant, for sessions of the code flow. */
    grantId: text(),
    /** The application the session signed in to (null: the password grant of the console). */
    clientId: text(),
    userAgent: text(),
    ipAddress: text(),
    /** SHA-256 of the browser's id cookie: a sign-in from a browser not seen before is told. */
    browserHash: text(),
  },
  (t) => [
    index('sessions_user_idx').on(t.userId),
    index('sessions_user_browser_idx')
      .on(t.userId, t.browserHash)
      .where(sql`${t.browserHash} is not null`),
    uniqueIndex('sessions_grant_key')
      .on(t.grantId)
      .where(sql`${t.grantId} is not null`),
  ],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    // SHA-256 of the opaque token: a database leak yields no usable token.
    tokenHash: text().primaryKey(),
    tenantId: tenantId(),
    sessionId: uuid()
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId)],
);

export const signingKeys = pgTable('signing_keys', {
  kid: text().primaryKey(),
  alg: text().notNull(),
  publicJwk: jsonb().notNull().$type<Record<string, unknown>>(),
  privateJwk: jsonb().notNull().$type<Record<string, unknown>>(),
  createdAt: createdAt(),
});

/**
 * Keycloak's UserLoginFailure, per user, so one tenant's lock never touches another's. An
 * unknown username is counted too, under an id derived from its realm and name (no foreign
 * key for that reason), so that a wrong password costs the same work whether or not the
 * account exists.
 */
export const loginFailures = pgTable('login_failures', {
  userId: uuid().primaryKey(),
  tenantId: tenantId(),
  numFailures: integer().notNull().default(0),
  lastFailure: timestamp({ withTimezone: true }).notNull(),
  notBefore: timestamp({ withTimezone: true }),
  /** Attempts admitted and not yet settled: counted apart, since they may well be right. */
  pending: integer().notNull().default(0),
  /** When the pending attempts stop counting, should their process end before settling them. */
  pendingUntil: timestamp({ withTimezone: true }),
});

/**
 * Users per (tenant, role, status), kept exact by statement-level triggers (migration 0003),
 * so an unfiltered list's totalCount is a sum of a few rows instead of a count of 100,000.
 */
export const userCounts = pgTable(
  'user_counts',
  {
    tenantId: tenantId(),
    roleId: uuid().notNull(),
    status: text().notNull(),
    n: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.roleId, t.status] })],
);

/**
 * Users per stretch of each sort order of the list (`sort`: email, first_name, last_name,
 * created_at, id), by role and status, kept exact by statement-level triggers (migration 0015).
 * The stretch (`bucket`) is the first character of the e-mail or name, the month of creation
 * (UTC, YYYY-MM) or the first hex digit of the id; a deep page is found by adding them up.
 */
export const userSortCounts = pgTable(
  'user_sort_counts',
  {
    tenantId: tenantId(),
    sort: text().notNull(),
    bucket: text().notNull(),
    roleId: uuid().notNull(),
    status: text().notNull(),
    n: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({
      name: 'user_sort_counts_pk',
      columns: [t.tenantId, t.sort, t.bucket, t.roleId, t.status],
    }),
  ],
);

/**
 * Single-use links (password reset, invitation, e-mail verification): only the SHA-256 of
 * the token is stored; a new link of the same purpose replaces the old one.
 */
export const actionTokens = pgTable(
  'action_tokens',
  {
    id: id(),
    tenantId: tenantId(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text().notNull(),
    tokenHash: text().notNull().unique(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('action_tokens_user_purpose_idx').on(t.userId, t.purpose),
    check('action_tokens_purpose_check', sql`${t.purpose} in ('reset', 'invite', 'verify')`),
  ],
);
