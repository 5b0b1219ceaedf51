import { and, asc, desc } from 'drizzle-orm';
import type { Project, ProjectPageRequest } from '@tc/contract/projects';
import type { Database } from '../../db/database';
import { projects } from '../../db/schema/projects';
import {
  afterCursor,
  cursorColumns,
  cursorOf,
  keysetBatches,
  type Cursor,
} from '../../http/keyset';
import { columns, orderOf, pageWhere, toRow } from './queries';

/** The list's filter and search, without paging: what an export of the projects list is asked. */
export type ProjectExportRequest = Pick<ProjectPageRequest, 'filter' | 'listSort'>;

/** Sort keys that a project may leave empty: NULL sorts last ascending, first descending. */
const NULLABLE = new Set<unknown>([projects.country, projects.ownerName]);

/**
 * The projects the list would show for `request`, batch by batch in the list's order (the
 * page's own filter, search and order: `pageWhere`, `orderOf`), each batch starting after the
 * last row of the one before along the sort's index: memory holds one batch of rows.
 */
export async function* projectExportBatches(
  db: Database,
  tenantId: string,
  request: ProjectExportRequest,
  batchSize: number,
): AsyncGenerator<Project[]> {
  const descending = request.listSort.direction === 1;
  const direction = descending ? desc : asc;
  const keys = orderOf({ ...request, pageIndex: 1, pageSize: 1 }).map((key) => ({
    key,
    nullable: NULLABLE.has(key),
  }));
  const where = pageWhere(tenantId, request.filter);
  const batches = keysetBatches(
    (after: Cursor | undefined, size: number) =>
      db
        .select({ ...columns(db), ...cursorColumns(keys) })
        .from(projects)
        .where(and(where, after ? afterCursor(keys, after, descending) : undefined))
        .orderBy(...keys.map(({ key }) => direction(key)))
        .limit(size),
    (row) => cursorOf(row, keys),
    batchSize,
  );
  for await (const batch of batches) yield batch.map(toRow);
}
