import { and, eq, sql } from 'drizzle-orm';
import { CLIENT_ID } from '@tc/contract/permissions';
import type { Database } from '../db/database';
import { prepareRawStatement } from '../db/prepared';
import { loginFailures, permissions, rolePermissions, roles, users } from '../db/schema/identity';
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

/** The statement sizes of the guard's lookup; a larger batch is read in chunks of the largest. */
const SESSION_BATCH_SIZES = [1, 2, 4, 8, 16, 32];
/** Fills a statement's unused places: no session has this id. */
const NO_SESSION = '00000000-0000-0000-0000-000000000000';

/**
 * The guard's lookup of the principals behind `size` sessions, each only while its session is
 * open. A statement per size, each prepared once per connection: with a fixed number of
 * places PostgreSQL keeps one plan for it, and each session is found through its primary key
 * (the lateral subquery, kept as one by its OFFSET), as are the role's permissions, however
 * few rows the tables hold. Failed sign-ins and the password hash are no concern of a
 * signed-in request, so they are not read.
 */
function prepareForSessions(db: Database, size: number) {
  const places = sql.join(
    Array.from({ length: size }, (_, i) => sql`(${sql.placeholder(`s${i}`)}::uuid)`),
    sql`, `,
  );
  const query = sql`
    select principal.* from (values ${places}) as asked(session_id)
    cross join lateral (
      select s.id as "sessionId", u.id as "userId", u.email, u.first_name as "firstName",
        u.last_name as "lastName", u.status, u.email_verified as "emailVerified",
        null as "passwordHash", t.id as "tenantId", t.name as realm, t.is_master as "isMaster",
        t.enabled as "tenantEnabled", r.name as "roleName", r.status as "roleStatus",
        coalesce((
          select json_agg(p.name order by p.name)
          from role_permissions rp
          cross join lateral (select name from permissions where id = rp.permission_id offset 0) p
          where rp.role_id = r.id and r.status = 'active'
        ), '[]'::json) as permissions,
        null as "lockedUntil", null as "failureUserId",
        -- The console's password grant (no client) and the console's own client reach the
        -- console API; another application only while an administrator allows it.
        (s.client_id is null or exists (
          select from clients c
          where c.tenant_id = s.tenant_id and c.client_id = s.client_id
            and (c.console_api_access or (c.built_in and c.client_id = ${CLIENT_ID}))
        )) as "consoleApiAccess"
      from sessions s
      join users u on u.id = s.user_id
      join tenants t on t.id = u.tenant_id
      join roles r on r.id = u.role_id
      where s.id = asked.session_id and s.revoked_at is null
      offset 0
    ) principal`;
  return prepareRawStatement(db, `principals_for_${size}_sessions`, query);
}
const preparedForSessions = new WeakMap<
  Database,
  Map<number, ReturnType<typeof prepareForSessions>>
>();

async function readSessions(db: Database, sessionIds: string[]) {
  const size = SESSION_BATCH_SIZES.find((candidate) => candidate >= sessionIds.length)!;
  let bySize = preparedForSessions.get(db);
  if (!bySize) preparedForSessions.set(db, (bySize = new Map()));
  let prepared = bySize.get(size);
  if (!prepared) bySize.set(size, (prepared = prepareForSessions(db, size)));
  const values = Object.fromEntries(
    Array.from({ length: size }, (_, i) => [`s${i}`, sessionIds[i] ?? NO_SESSION]),
  );
  const result = await prepared.execute(values);
  return (result as { rows: Array<PrincipalRow & SessionFacts> }).rows;
}

/** What the guard reads of a session beside its principal. */
interface SessionFacts {
  sessionId: string;
  /** Whether the application the session signed in to may call the console API. */
  consoleApiAccess: boolean;
}

/** A principal behind an open session, and whether that session's tokens reach the console API. */
export type SessionPrincipal = Principal & { consoleApiAccess: boolean };

/** For the API guard: the principal of each open session among `sessionIds`, by session. */
export async function principalsForSessions(
  db: Database,
  sessionIds: string[],
): Promise<Map<string, SessionPrincipal>> {
  const largest = SESSION_BATCH_SIZES.at(-1)!;
  const chunks: string[][] = [];
  for (let start = 0; start < sessionIds.length; start += largest) {
    chunks.push(sessionIds.slice(start, start + largest));
  }
  const rows = (await Promise.all(chunks.map((chunk) => readSessions(db, chunk)))).flat();
  return new Map(
    rows.map((row) => [
      row.sessionId,
      { ...toPrincipal(row), consoleApiAccess: row.consoleApiAccess },
    ]),
  );
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
