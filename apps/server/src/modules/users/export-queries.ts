import { and, asc, desc, eq, type SQL } from 'drizzle-orm';
import type { UserPageRequest } from '@tc/contract/users';
import type { Database } from '../../db/database';
import { roles, users } from '../../db/schema/identity';
import {
  afterCursor,
  cursorColumns,
  cursorOf,
  keysetBatches,
  type Cursor,
  type KeysetKey,
} from '../../http/keyset';
import { kept, orderKeys } from './page-sql';
import { selectRows, type SelectedRow } from './rows';
import { testedSearch } from './search-queries';

/** What an export reads of a user: the list's row. */
export type ExportedUser = SelectedRow;

/** The list's filter and search, without paging: what an export of the users list is asked. */
export type UserExportRequest = Pick<UserPageRequest, 'filter' | 'listSort'>;

/**
 * The users the list would show for `request`, batch by batch in the list's order (the page's
 * ORDER BY: the sort's keys, then the id), each batch starting after the last row of the one
 * before along the sort's index, so an export of a million users reads each once and holds one
 * batch. The filter and the search are the page's own (`kept`, `testedSearch`: the test the
 * page applies user by user along the sort's index). By role is role by role in the roles'
 * name order, each role's users by id along users_tenant_role_idx: one index holds no order
 * by another table's column.
 */
export async function* userExportBatches(
  db: Database,
  tenantId: string,
  request: UserExportRequest,
  batchSize: number,
): AsyncGenerator<ExportedUser[]> {
  const descending = request.listSort.direction === 1;
  const direction = descending ? desc : asc;
  const search = request.filter.search;
  const read = (keys: KeysetKey[], narrow: SQL | undefined) => {
    const cursors = cursorColumns(keys);
    return keysetBatches(
      async (after: Cursor | undefined, size: number) =>
        selectRows(db, cursors)
          .where(
            and(
              kept(tenantId, request.filter),
              search ? testedSearch(search, users) : undefined,
              narrow,
              after ? afterCursor(keys, after, descending) : undefined,
            ),
          )
          .orderBy(...keys.map(({ key }) => direction(key)))
          .limit(size),
      (row) => cursorOf(row, keys),
      batchSize,
    );
  };
  if (request.listSort.field !== 'role') {
    const keys = [...orderKeys[request.listSort.field], users.id].map((key) => ({ key }));
    yield* read(keys, undefined);
    return;
  }
  const tenantRoles = await db
    .select({ id: roles.id })
    .from(roles)
    .where(
      and(
        eq(roles.tenantId, tenantId),
        request.filter.roleId ? eq(roles.id, request.filter.roleId) : undefined,
      ),
    )
    .orderBy(direction(roles.name), direction(roles.id));
  for (const role of tenantRoles) yield* read([{ key: users.id }], eq(users.roleId, role.id));
}
