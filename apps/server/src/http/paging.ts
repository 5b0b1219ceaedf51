import { asc, desc, ilike, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Page, PageRequest } from '@tc/contract/paging';

/**
 * ORDER BY, LIMIT and OFFSET of a paged request: the chosen column in the chosen direction,
 * then the id, so equal values never swap places between pages.
 */
export function pageWindow(
  request: PageRequest,
  sortColumns: Record<string, AnyColumn | SQL>,
  idColumn: AnyColumn,
) {
  const column = sortColumns[request.listSort.field];
  if (!column) throw new Error(`No sort column for ${request.listSort.field}`);
  const direction = request.listSort.direction === 1 ? desc : asc;
  return {
    orderBy: [direction(column), direction(idColumn)] as SQL[],
    limit: request.pageSize,
    offset: (request.pageIndex - 1) * request.pageSize,
  };
}

export function toPage<Row>(request: PageRequest, rows: Row[], totalCount: number): Page<Row> {
  return { data: rows, pageIndex: request.pageIndex, pageSize: request.pageSize, totalCount };
}

/** Case-insensitive "contains", with the LIKE wildcards of the search text escaped. */
export function containsText(column: AnyColumn | SQL, text: string): SQL {
  return ilike(column, `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
}
