import { and, eq } from 'drizzle-orm';
import type { Page } from '@tc/contract/paging';
import type { User, UserPageRequest } from '@tc/contract/users';
import type { Database } from '../../db/database';
import { users } from '../../db/schema/identity';
import type { ServiceContext } from '../../http/crud-routes';
import { hashPassword } from '../../identity/passwords';
import { readUserPage } from './page-queries';
import { selectRows, toUser } from './rows';

/** The user `id` of this tenant as a row, or undefined (also for another tenant's id). */
export async function findUserRow(
  db: Database,
  tenantId: string,
  id: string,
): Promise<User | undefined> {
  const [row] = await selectRows(db).where(and(eq(users.tenantId, tenantId), eq(users.id, id)));
  return row ? toUser(row) : undefined;
}

/**
 * A page of the caller's tenant's users: every sort, filter and search read along an index
 * (page-queries.ts), the total exact, or capped for a search matching more than 10,000.
 */
export function pageUsers({
  db,
  caller,
  request,
}: ServiceContext & { request: UserPageRequest }): Promise<Page<User>> {
  return readUserPage(db, caller.tenantId, request);
}

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
