import { and, eq, inArray } from 'drizzle-orm';
import { badRequest } from '../../http/problem';
import type { Database } from '../../db/database';
import { users } from '../../db/schema/identity';
import { hashPassword } from '../../identity/passwords';

/** Inserts a user with an optional password (none: an invited user who cannot sign in yet). */
export async function insertUser(
  tx: Database,
  input: {
    tenantId: string;
    email: string;
    firstName: string;
    lastName: string;
    roleId: string;
    password?: string;
    status?: 'active' | 'inactive';
  },
): Promise<string> {
  const [user] = await tx
    .insert(users)
    .values({
      tenantId: input.tenantId,
      email: input.email.trim().toLowerCase(),
      firstName: input.firstName,
      lastName: input.lastName,
      roleId: input.roleId,
      status: input.status ?? 'active',
      passwordHash: input.password ? await hashPassword(input.password) : null,
    })
    .returning({ id: users.id });
  return user!.id;
}

/** Checks that every id is a user of this tenant (project owner and people). */
export async function requireUsersInTenant(
  db: Database,
  tenantId: string,
  userIds: readonly string[],
  field: string,
): Promise<void> {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return;
  const found = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), inArray(users.id, unique)));
  if (found.length !== unique.length) {
    throw badRequest('Choose people of this tenant.', { [field]: 'Unknown user.' });
  }
}
