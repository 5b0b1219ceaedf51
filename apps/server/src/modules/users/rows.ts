import { eq, sql, type SQL } from 'drizzle-orm';
import type { User } from '@tc/contract/users';
import type { Database } from '../../db/database';
import { roles, users } from '../../db/schema/identity';

/** The columns of a user row; never the password hash, only whether one is set. */
export const rowColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  roleId: users.roleId,
  role: roles.name,
  status: users.status,
  invited: sql<boolean>`${users.passwordHash} is null`,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
};

/** The rows of users, with any columns a statement adds beside them (a total). */
export function selectRows<Extra extends Record<string, SQL>>(
  db: Database,
  extra: Extra = {} as Extra,
) {
  return db
    .select({ ...rowColumns, ...extra })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId));
}

export type SelectedRow = Awaited<ReturnType<typeof selectRows>>[number];

/** The user of a row; columns a statement adds beside the row's (a total) are left out. */
export function toUser(row: SelectedRow): User {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    roleId: row.roleId,
    role: row.role,
    invited: row.invited,
    status: row.status === 'inactive' ? 'inactive' : 'active',
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
