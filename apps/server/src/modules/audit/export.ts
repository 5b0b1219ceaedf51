import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { AuditExportRequest } from '@tc/contract/audit';
import type { Database } from '../../db/database';
import { auditLog } from '../../db/schema/audit';
import { users } from '../../db/schema/identity';
import type { CsvColumn } from '../../http/csv';
import { actorsMatching, orderOf, pageWhere, type Actors } from './queries';

/** Entries read per statement: memory holds one batch, whatever the log's length. */
export const EXPORT_BATCH_SIZE = 1_000;

/** An exported entry, with the sort keys of its place in the order (the next batch's start). */
export interface ExportedEntry {
  actorEmail: string | null;
  action: string;
  entity: string;
  entityId: string;
  before: unknown;
  after: unknown;
  createdAt: Date;
  cursor: Cursor;
}

/**
 * The sort keys of the last entry a batch read, as text: the time to the microsecond as the
 * database keeps it (a JavaScript date has milliseconds only, and would skip or repeat the
 * entries of one millisecond), the entity or action, and the id.
 */
type Cursor = string[];

/** What the file holds of an entry: the list's row but its ids. */
const exportedColumns = {
  actorEmail: users.email,
  action: auditLog.action,
  entity: auditLog.entity,
  entityId: auditLog.entityId,
  before: auditLog.before,
  after: auditLog.after,
  createdAt: auditLog.createdAt,
};

/** Each sort key's text in the cursor, and how the text turns back into the key's type. */
function keyText(key: PgColumn): { text: SQL; value: (text: string) => SQL } {
  if (key === auditLog.createdAt) {
    return {
      text: sql`to_char(${key} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
      value: (text) => sql`${text}::timestamptz`,
    };
  }
  if (key === auditLog.id) return { text: sql`${key}::text`, value: (text) => sql`${text}::uuid` };
  return { text: sql`${key}`, value: (text) => sql`${text}` };
}

/**
 * One batch in the list's order, after the entry `cursor` names: a row comparison on the
 * sort's keys, which the sort's index reads as where to start (never an OFFSET, which would
 * skip again every entry before it, batch after batch).
 */
export function exportBatchQuery(
  db: Database,
  tenantId: string,
  request: AuditExportRequest,
  actors: Actors,
  cursor: Cursor | null,
) {
  const keys = orderOf(request);
  const descending = request.listSort.direction === 1;
  const texts = keys.map(keyText);
  const after = cursor
    ? sql`(${sql.join(keys, sql`, `)}) ${descending ? sql`<` : sql`>`} (${sql.join(
        texts.map((text, i) => text.value(cursor[i]!)),
        sql`, `,
      )})`
    : undefined;
  const keysAsText = sql<Cursor>`array[${sql.join(
    texts.map((text) => text.text),
    sql`, `,
  )}]`;
  return db
    .select({ ...exportedColumns, cursor: keysAsText })
    .from(auditLog)
    .leftJoin(users, and(eq(users.id, auditLog.actorId), eq(users.tenantId, auditLog.tenantId)))
    .where(and(pageWhere(tenantId, { filter: request.filter, actors }), after))
    .orderBy(...keys.map((key) => (descending ? desc(key) : asc(key))))
    .limit(EXPORT_BATCH_SIZE);
}

/** Every entry the request matches, batch after batch, in the list's order. */
export async function* exportBatches(
  db: Database,
  tenantId: string,
  request: AuditExportRequest,
): AsyncGenerator<ExportedEntry[]> {
  const { search } = request.filter;
  const actors = search ? await actorsMatching(db, tenantId, search) : [];
  let cursor: Cursor | null = null;
  for (;;) {
    const batch: ExportedEntry[] = await exportBatchQuery(db, tenantId, request, actors, cursor);
    if (batch.length > 0) yield batch;
    if (batch.length < EXPORT_BATCH_SIZE) return;
    cursor = batch.at(-1)!.cursor;
  }
}

const json = (value: unknown) =>
  value === null || value === undefined ? '' : JSON.stringify(value);

/** The file's columns: the time (ISO 8601, UTC), who, what, and the entity before and after. */
export const AUDIT_CSV_COLUMNS: CsvColumn<ExportedEntry>[] = [
  { header: 'time', value: (row) => row.createdAt.toISOString() },
  { header: 'actor_email', value: (row) => row.actorEmail },
  { header: 'entity', value: (row) => row.entity },
  { header: 'action', value: (row) => row.action },
  { header: 'entity_id', value: (row) => row.entityId },
  { header: 'before', value: (row) => json(row.before) },
  { header: 'after', value: (row) => json(row.after) },
];
