import { and, asc, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { CLIENT_ID } from '@tc/contract/permissions';
import type { AccountProfile, AccountProfileUpdate, Passkey } from '@tc/contract/security';
import type { Database } from '../../db/database';
import { clients } from '../../db/schema/clients';
import { sessions, users } from '../../db/schema/identity';
import { passkeys, signInSteps } from '../../db/schema/second-factors';
import { tenants } from '../../db/schema/tenants';

const profileColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  locale: users.locale,
  notifyNewBrowser: users.notifyNewBrowser,
};

const ofUser = (tenantId: string, userId: string) =>
  and(eq(users.tenantId, tenantId), eq(users.id, userId));

export async function findProfile(
  db: Database,
  tenantId: string,
  userId: string,
): Promise<AccountProfile | undefined> {
  const [row] = await db.select(profileColumns).from(users).where(ofUser(tenantId, userId));
  return row;
}

export async function writeProfile(
  tx: Database,
  tenantId: string,
  userId: string,
  data: AccountProfileUpdate,
): Promise<void> {
  await tx
    .update(users)
    .set({
      firstName: data.firstName,
      lastName: data.lastName,
      locale: data.locale,
      notifyNewBrowser: data.notifyNewBrowser,
      updatedAt: sql`now()`,
    })
    .where(ofUser(tenantId, userId));
}

/**
 * Locks the user's row for the rest of the transaction: changes to one user's second factors
 * and password then happen one after another, so two removals at once cannot both see the
 * other factor still there and leave none. False when there is no such user.
 */
export async function lockUser(tx: Database, tenantId: string, userId: string): Promise<boolean> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(ofUser(tenantId, userId))
    .for('update');
  return rows.length === 1;
}

export async function passwordHashOf(
  db: Database,
  tenantId: string,
  userId: string,
): Promise<string | null> {
  const [row] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(ofUser(tenantId, userId));
  return row?.passwordHash ?? null;
}

export async function writePasswordHash(
  tx: Database,
  tenantId: string,
  userId: string,
  passwordHash: string,
): Promise<void> {
  await tx
    .update(users)
    .set({ passwordHash, updatedAt: sql`now()` })
    .where(ofUser(tenantId, userId));
}

/** What WebAuthn and the authenticator app name the account by: the tenant and its domain. */
export async function tenantOf(
  db: Database,
  tenantId: string,
): Promise<{ name: string; domain: string | null } | undefined> {
  const [row] = await db
    .select({ name: tenants.name, domain: tenants.domain })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  return row;
}

const passkeyColumns = {
  id: passkeys.id,
  name: passkeys.name,
  createdAt: passkeys.createdAt,
  lastUsedAt: passkeys.lastUsedAt,
};

const toPasskey = (row: {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: new Date(row.createdAt).toISOString(),
  lastUsedAt: row.lastUsedAt ? new Date(row.lastUsedAt).toISOString() : null,
});

export async function listPasskeys(db: Database, userId: string): Promise<Passkey[]> {
  const rows = await db
    .select(passkeyColumns)
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
  return rows.map(toPasskey);
}

/** The user's credentials as WebAuthn's excludeCredentials lists them. */
export async function credentialsOf(
  db: Database,
  userId: string,
): Promise<Array<{ id: string; transports: string[] }>> {
  const rows = await db
    .select({ id: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, userId));
  return rows;
}

export async function insertPasskey(
  tx: Database,
  row: {
    tenantId: string;
    userId: string;
    credentialId: string;
    publicKey: string;
    counter: number;
    transports: string[];
    name: string;
  },
): Promise<Passkey> {
  const [inserted] = await tx.insert(passkeys).values(row).returning(passkeyColumns);
  return toPasskey(inserted!);
}

/** Renames one of the user's own passkeys; undefined when the user has no such passkey. */
export async function renamePasskey(
  tx: Database,
  userId: string,
  id: string,
  name: string,
): Promise<{ before: string; after: Passkey } | undefined> {
  const [before] = await tx
    .select({ name: passkeys.name })
    .from(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)));
  if (!before) return undefined;
  const [row] = await tx
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning(passkeyColumns);
  return { before: before.name, after: toPasskey(row!) };
}

/** Deletes one of the user's own passkeys; its name, or undefined when there was none. */
export async function deletePasskey(
  tx: Database,
  userId: string,
  id: string,
): Promise<string | undefined> {
  const [row] = await tx
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ name: passkeys.name });
  return row?.name;
}

export async function deleteAllPasskeys(tx: Database, userId: string): Promise<number> {
  const rows = await tx
    .delete(passkeys)
    .where(eq(passkeys.userId, userId))
    .returning({ id: passkeys.id });
  return rows.length;
}

/** A single-use step of an enrolment (a WebAuthn challenge), replacing any earlier one. */
export async function saveStep(
  db: Database,
  step: {
    key: string;
    tenantId: string;
    userId: string;
    kind: string;
    data: Record<string, unknown>;
    ttlSeconds: number;
  },
): Promise<void> {
  const expiresAt = new Date(Date.now() + step.ttlSeconds * 1000);
  await db
    .insert(signInSteps)
    .values({
      key: step.key,
      tenantId: step.tenantId,
      userId: step.userId,
      kind: step.kind,
      data: step.data,
      expiresAt,
    })
    .onConflictDoUpdate({
      target: signInSteps.key,
      set: {
        tenantId: step.tenantId,
        userId: step.userId,
        kind: step.kind,
        data: step.data,
        expiresAt,
      },
    });
}

/**
 * Takes a step up in one statement, so it is used at most once even by two requests at once;
 * undefined when there is none, it is another user's or kind's, or it has expired.
 */
export async function takeStep(
  db: Database,
  step: { key: string; userId: string; kind: string },
): Promise<Record<string, unknown> | undefined> {
  const [row] = await db
    .delete(signInSteps)
    .where(
      and(
        eq(signInSteps.key, step.key),
        eq(signInSteps.userId, step.userId),
        eq(signInSteps.kind, step.kind),
      ),
    )
    .returning({ data: signInSteps.data, expiresAt: signInSteps.expiresAt });
  if (!row || new Date(row.expiresAt).getTime() <= Date.now()) return undefined;
  return row.data;
}

export interface SessionRow {
  id: string;
  clientId: string;
  clientName: string | null;
  userAgent: string | null;
  ipAddress: string | null;
  createdAt: Date;
  lastUsedAt: Date;
}

/** A user's open sessions (neither ended nor expired), newest first, with their application. */
export async function openSessions(
  db: Database,
  tenantId: string,
  userId: string,
): Promise<SessionRow[]> {
  // Sessions from before applications were recorded are the console's.
  const clientId = sql<string>`coalesce(${sessions.clientId}, ${CLIENT_ID})`;
  return db
    .select({
      id: sessions.id,
      clientId,
      clientName: clients.name,
      userAgent: sessions.userAgent,
      ipAddress: sessions.ipAddress,
      createdAt: sessions.createdAt,
      lastUsedAt: sessions.lastUsedAt,
    })
    .from(sessions)
    .leftJoin(clients, and(eq(clients.tenantId, sessions.tenantId), eq(clients.clientId, clientId)))
    .where(
      and(
        eq(sessions.tenantId, tenantId),
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
      ),
    )
    .orderBy(desc(sessions.createdAt), desc(sessions.id));
}
