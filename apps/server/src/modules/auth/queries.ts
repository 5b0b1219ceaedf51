import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { users } from '../../db/schema/identity';
import { tenants } from '../../db/schema/tenants';

/** The user of this tenant with this address (compared in lower case), if any. */
export async function findUserByEmail(
  db: Database,
  tenantId: string,
  email: string,
): Promise<{ id: string; status: string } | undefined> {
  const [user] = await db
    .select({ id: users.id, status: users.status })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(sql`lower(${users.email})`, email)));
  return user;
}

/** The tenant's name, the realm a user signs in to; empty if the tenant is gone. */
export async function realmNameOf(db: Database, tenantId: string): Promise<string> {
  const [row] = await db
    .select({ name: tenants.name })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  return row?.name ?? '';
}

/** Sets the user's password and marks the address verified. */
export async function setVerifiedPassword(
  db: Database,
  userId: string,
  passwordHash: string,
): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash, emailVerified: true, updatedAt: sql`now()` })
    .where(eq(users.id, userId));
}

/** Marks the user's address verified; the address, or undefined if there is no such user. */
export async function markEmailVerified(
  db: Database,
  userId: string,
): Promise<{ email: string } | undefined> {
  const [user] = await db
    .update(users)
    .set({ emailVerified: true, updatedAt: sql`now()` })
    .where(eq(users.id, userId))
    .returning({ email: users.email });
  return user;
}

/** Marks the address of this tenant's user verified. */
export async function markTenantUserEmailVerified(
  db: Database,
  tenantId: string,
  userId: string,
): Promise<void> {
  await db
    .update(users)
    .set({ emailVerified: true, updatedAt: sql`now()` })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
}

/**
 * Drops the password of this tenant's user and marks the address verified, if it was not
 * verified yet; whether it was.
 */
export async function claimUnverifiedUser(
  db: Database,
  tenantId: string,
  userId: string,
): Promise<boolean> {
  const [claimed] = await db
    .update(users)
    .set({ passwordHash: null, emailVerified: true, updatedAt: sql`now()` })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId), eq(users.emailVerified, false)))
    .returning({ id: users.id });
  return claimed !== undefined;
}

/** Inserts a signed-up user whose address is not verified yet; its id. */
export async function insertSignedUpUser(
  db: Database,
  values: {
    tenantId: string;
    email: string;
    firstName: string;
    lastName: string;
    roleId: string;
    passwordHash: string;
    locale: string | null;
  },
): Promise<string> {
  const [user] = await db
    .insert(users)
    .values({ ...values, emailVerified: false })
    .returning({ id: users.id });
  return user!.id;
}
