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
