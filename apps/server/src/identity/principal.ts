import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/database';
import {
  loginFailures,
  permissions,
  rolePermissions,
  roles,
  sessions,
  users,
} from '../db/schema/identity';
import { tenants } from '../db/schema/tenants';

/** Who a token speaks for: everything the claims and the permission checks need. */
export interface Principal {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  userActive: boolean;
  emailVerified: boolean;
  passwordHash: string | null;
  tenantId: string;
  realm: string;
  isMaster: boolean;
  tenantEnabled: boolean;
  /** Empty when the role is inactive: an inactive role grants nothing. */
  roles: string[];
  permissions: string[];
  lockedUntil: Date | null;
  /** Whether failed logins are on record, to be forgotten after a successful one. */
  hasFailures: boolean;
}

// An inactive role grants nothing, so its permissions are left out here, at the source.
const grantedPermissions = sql<string[]>`coalesce((
  select json_agg(${permissions.name} order by ${permissions.name})
  from ${rolePermissions} join ${permissions} on ${permissions.id} = ${rolePermissions.permissionId}
  where ${rolePermissions.roleId} = ${roles.id} and ${roles.status} = 'active'
), '[]'::json)`;

const principalColumns = {
  userId: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  status: users.status,
  emailVerified: users.emailVerified,
  passwordHash: users.passwordHash,
  tenantId: tenants.id,
  realm: tenants.name,
  isMaster: tenants.isMaster,
  tenantEnabled: tenants.enabled,
  roleName: roles.name,
  roleStatus: roles.status,
  permissions: grantedPermissions,
  lockedUntil: loginFailures.notBefore,
  failureUserId: loginFailures.userId,
};

/** The columns a principal is read from; raw queries (rotation) alias theirs to these names. */
export interface PrincipalRow {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  status: string;
  emailVerified: boolean;
  passwordHash: string | null;
  tenantId: string;
  realm: string;
  isMaster: boolean;
  tenantEnabled: boolean;
  roleName: string;
  roleStatus: string;
  permissions: string[];
  lockedUntil: Date | null;
  failureUserId: string | null;
}

export function toPrincipal(row: PrincipalRow): Principal {
  const roleActive = row.roleStatus === 'active';
  return {
    userId: row.userId,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    userActive: row.status === 'active',
    emailVerified: row.emailVerified,
    passwordHash: row.passwordHash,
    tenantId: row.tenantId,
    realm: row.realm,
    isMaster: row.isMaster,
    tenantEnabled: row.tenantEnabled,
    roles: roleActive ? [row.roleName] : [],
    permissions: roleActive ? row.permissions : [],
    lockedUntil: row.lockedUntil,
    hasFailures: row.failureUserId !== null,
  };
}

/** The password grant's lookup, prepared once per database like the guard's. */
function prepareByEmail(db: Database) {
  return db
    .select(principalColumns)
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .innerJoin(roles, eq(roles.id, users.roleId))
    .leftJoin(loginFailures, eq(loginFailures.userId, users.id))
    .where(
      and(
        eq(users.tenantId, sql.placeholder('tenantId')),
        eq(sql`lower(${users.email})`, sql.placeholder('email')),
      ),
    )
    .limit(1)
    .prepare('principal_by_email');
}
const preparedByEmail = new WeakMap<Database, ReturnType<typeof prepareByEmail>>();

export async function principalByEmail(db: Database, tenantId: string, email: string) {
  let prepared = preparedByEmail.get(db);
  if (!prepared) preparedByEmail.set(db, (prepared = prepareByEmail(db)));
  const [row] = await prepared.execute({ tenantId, email: email.trim().toLowerCase() });
  return row ? toPrincipal(row) : undefined;
}

/**
 * The password grant's one lookup: the realm by name and, in it, the user by e-mail, in one
 * round trip (the grant's realm check and user lookup were two). The user's columns are null
 * when the realm exists but the e-mail does not.
 */
function prepareInRealm(db: Database) {
  return db
    .select(principalColumns)
    .from(tenants)
    .leftJoin(
      users,
      and(eq(users.tenantId, tenants.id), eq(sql`lower(${users.email})`, sql.placeholder('email'))),
    )
    .leftJoin(roles, eq(roles.id, users.roleId))
    .leftJoin(loginFailures, eq(loginFailures.userId, users.id))
    .where(eq(sql`lower(${tenants.name})`, sql.placeholder('realm')))
    .limit(1)
    .prepare('principal_in_realm');
}
const preparedInRealm = new WeakMap<Database, ReturnType<typeof prepareInRealm>>();

/** The user with this e-mail in an enabled realm, if any; undefined when there is no such realm. */
export async function principalInRealm(
  db: Database,
  realmName: string,
  email: string,
): Promise<{ principal: Principal | undefined; tenantId: string } | undefined> {
  let prepared = preparedInRealm.get(db);
  if (!prepared) preparedInRealm.set(db, (prepared = prepareInRealm(db)));
  const [row] = await prepared.execute({
    realm: realmName.toLowerCase(),
    email: email.trim().toLowerCase(),
  });
  if (!row?.tenantEnabled) return undefined;
  const principal = row.userId === null ? undefined : toPrincipal(row as PrincipalRow);
  return { principal, tenantId: row.tenantId };
}

/**
 * The guard's lookup: the principals behind many access tokens' sessions at once, each only
 * while its session is open. Prepared once per database, so PostgreSQL plans it once per
 * connection and Drizzle does not rebuild the SQL on each call. Failed sign-ins are no concern
 * of a signed-in request, so they are not joined.
 */
function prepareForSessions(db: Database) {
  return db
    .select({
      ...principalColumns,
      lockedUntil: sql<Date | null>`null`,
      failureUserId: sql<string | null>`null`,
      sessionId: sessions.id,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(
      and(
        sql`${sessions.id} = any(${sql.placeholder('sessionIds')}::uuid[])`,
        isNull(sessions.revokedAt),
      ),
    )
    .prepare('principals_for_sessions');
}
const preparedForSessions = new WeakMap<Database, ReturnType<typeof prepareForSessions>>();

/** For the API guard: the principal of each open session among `sessionIds`, by session. */
export async function principalsForSessions(
  db: Database,
  sessionIds: string[],
): Promise<Map<string, Principal>> {
  let prepared = preparedForSessions.get(db);
  if (!prepared) preparedForSessions.set(db, (prepared = prepareForSessions(db)));
  const rows = await prepared.execute({ sessionIds });
  return new Map(rows.map((row) => [row.sessionId, toPrincipal(row)]));
}

/** A user of a tenant by id, for the claims of tokens and userinfo. */
export async function principalById(
  db: Database,
  tenantId: string,
  userId: string,
): Promise<(Principal & { locale: string | null }) | undefined> {
  const [row] = await db
    .select({ ...principalColumns, locale: users.locale })
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .innerJoin(roles, eq(roles.id, users.roleId))
    .leftJoin(loginFailures, eq(loginFailures.userId, users.id))
    .where(and(eq(users.id, userId), eq(users.tenantId, tenantId)))
    .limit(1);
  return row ? { ...toPrincipal(row), locale: row.locale } : undefined;
}

/** What our access tokens say about their user, whichever flow issued them. */
export function userTokenClaims(principal: Principal, sessionId: string, clientId: string) {
  return {
    typ: 'Bearer',
    azp: clientId,
    sid: sessionId,
    tenant_id: principal.tenantId,
    email: principal.email,
    preferred_username: principal.email,
    name: `${principal.firstName} ${principal.lastName}`.trim(),
    given_name: principal.firstName,
    family_name: principal.lastName,
    realm_access: { roles: principal.roles },
    permissions: principal.permissions,
  };
}
