import { and, asc, count, eq, gt, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@tc/contract/paging';
import type {
  UserImportJob,
  UserImportMapping,
  UserImportRowProblem,
  UserImportRowStatus,
} from '@tc/contract/user-import';
import type { Database } from '../../db/database';
import { roles, users } from '../../db/schema/identity';
import { userImportRows, userImports } from '../../db/schema/user-import';
import { notFound } from '../../http/problem';
import { suggestMapping } from './check-row';

export type JobRow = typeof userImports.$inferSelect;

/** The import `id` of this tenant, locked for the transaction when `lock`; 404 otherwise. */
export async function requireJob(
  db: Database,
  tenantId: string,
  id: string,
  lock = false,
): Promise<JobRow> {
  const query = db
    .select()
    .from(userImports)
    .where(and(eq(userImports.tenantId, tenantId), eq(userImports.id, id)));
  const [job] = lock ? await query.for('update') : await query;
  // An upload still being received is nobody's to map or apply yet.
  if (!job || job.state === 'receiving') throw notFound('user_import.not_found');
  return job;
}

export function toJob(job: JobRow): UserImportJob {
  const mapping = job.mapping as UserImportMapping | null;
  return {
    id: job.id,
    state: job.state as UserImportJob['state'],
    columns: job.columns,
    suggestedMapping: suggestMapping(job.columns),
    mapping,
    sendInvitations: job.sendInvitations,
    rowCount: job.rowCount,
    totals: { valid: job.validCount, withErrors: job.errorCount, existing: job.existingCount },
    progress: {
      done: job.createdCount + job.skippedCount + job.failedCount,
      created: job.createdCount,
      skipped: job.skippedCount,
      failed: job.failedCount,
    },
    createdAt: job.createdAt.toISOString(),
  };
}

/** Every role of the tenant, to find a row's role by name (names are unique, case ignored). */
export function tenantRoles(db: Database, tenantId: string) {
  return db
    .select({ id: roles.id, name: roles.name })
    .from(roles)
    .where(eq(roles.tenantId, tenantId));
}

/** Rows of the job after `afterLine`, in file order: the check reads the file in batches. */
export function rowCellsAfter(db: Database, importId: string, afterLine: number, limit: number) {
  return db
    .select({ line: userImportRows.line, cells: userImportRows.cells })
    .from(userImportRows)
    .where(and(eq(userImportRows.importId, importId), gt(userImportRows.line, afterLine)))
    .orderBy(asc(userImportRows.line))
    .limit(limit);
}

/**
 * A batch of uploaded rows in one statement with one JSON parameter: much cheaper than a
 * parameter per cell, which is what makes staging 200,000 rows take seconds, not minutes.
 */
export async function insertStagedRows(
  db: Database,
  importId: string,
  rows: readonly { line: number; cells: string[] }[],
): Promise<void> {
  await db.execute(sql`
    insert into user_import_rows (import_id, line, cells)
    select ${importId}, v.line, v.cells
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(line int, cells text[])`);
}

/** One statement for a batch of row updates: the values travel as one JSON parameter. */
export async function updateRows(
  db: Database,
  importId: string,
  columns: string,
  setList: SQL,
  values: readonly object[],
): Promise<void> {
  if (values.length === 0) return;
  await db.execute(sql`
    update user_import_rows r set ${setList}
    from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(${sql.raw(columns)})
    where r.import_id = ${importId} and r.line = v.line`);
}

/**
 * After every row is checked: a repeated e-mail address is refused after its first line, and
 * rows whose address is a user of the tenant already are flagged (skipped when applied).
 */
export async function markDuplicatesAndExisting(
  db: Database,
  tenantId: string,
  importId: string,
): Promise<void> {
  await db.execute(sql`
    update user_import_rows r
    set problems = coalesce(r.problems, '[]'::jsonb) || jsonb_build_array(jsonb_build_object(
      'field', 'email', 'code', 'user_import.email_duplicate',
      'params', jsonb_build_object('line', d.first_line)))
    from (
      select line, min(line) over (partition by email) as first_line
      from user_import_rows where import_id = ${importId} and email is not null
    ) d
    where r.import_id = ${importId} and r.line = d.line and d.line <> d.first_line`);
  await db.execute(sql`
    update user_import_rows r set existing = true
    where r.import_id = ${importId} and r.email is not null and exists (
      select 1 from ${users} u where u.tenant_id = ${tenantId} and lower(u.email) = r.email)`);
}

/** The row statuses as conditions: before apply from the check, after from the outcome. */
const STATUS_CONDITIONS: Record<UserImportRowStatus, SQL | undefined> = {
  valid: and(
    isNull(userImportRows.outcome),
    isNull(userImportRows.problems),
    eq(userImportRows.existing, false),
  ),
  error: and(isNull(userImportRows.outcome), isNotNull(userImportRows.problems)),
  existing: and(
    isNull(userImportRows.outcome),
    isNull(userImportRows.problems),
    eq(userImportRows.existing, true),
  ),
  created: eq(userImportRows.outcome, 'created'),
  skipped: eq(userImportRows.outcome, 'skipped'),
  failed: eq(userImportRows.outcome, 'failed'),
};

/** The check's totals, kept on the job so that reading its progress counts nothing. */
export async function storeTotals(db: Database, importId: string): Promise<void> {
  const total = (status: UserImportRowStatus) =>
    sql<number>`(count(*) filter (where ${STATUS_CONDITIONS[status]}))::int`;
  const [totals] = await db
    .select({ valid: total('valid'), error: total('error'), existing: total('existing') })
    .from(userImportRows)
    .where(eq(userImportRows.importId, importId));
  await db
    .update(userImports)
    .set({
      validCount: totals?.valid ?? 0,
      errorCount: totals?.error ?? 0,
      existingCount: totals?.existing ?? 0,
      state: 'checked',
      updatedAt: sql`now()`,
    })
    .where(and(eq(userImports.id, importId), eq(userImports.state, 'uploaded')));
}

export const rowStatus = sql<UserImportRowStatus>`case
  when ${userImportRows.outcome} is not null then ${userImportRows.outcome}
  when ${userImportRows.problems} is not null then 'error'
  when ${userImportRows.existing} then 'existing' else 'valid' end`;

const rowColumns = {
  line: userImportRows.line,
  cells: userImportRows.cells,
  problems: userImportRows.problems,
  status: rowStatus,
};
export interface StagedRow {
  line: number;
  cells: string[];
  problems: UserImportRowProblem[] | null;
  status: UserImportRowStatus;
}

/** A page of the job's rows in file order, optionally of one status. */
export async function pageRows(
  db: Database,
  importId: string,
  request: { pageIndex: number; pageSize: number; status?: UserImportRowStatus },
): Promise<Page<StagedRow>> {
  const where = and(
    eq(userImportRows.importId, importId),
    request.status ? STATUS_CONDITIONS[request.status] : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select(rowColumns)
      .from(userImportRows)
      .where(where)
      .orderBy(asc(userImportRows.line))
      .limit(request.pageSize)
      .offset((request.pageIndex - 1) * request.pageSize),
    db.select({ value: count() }).from(userImportRows).where(where),
  ]);
  return {
    data: rows as StagedRow[],
    pageIndex: request.pageIndex,
    pageSize: request.pageSize,
    totalCount: total?.value ?? 0,
  };
}

/** The rows after `afterLine` with their outcome: the result file is written in batches. */
export async function resultRowsAfter(
  db: Database,
  importId: string,
  afterLine: number,
  limit = 1000,
): Promise<StagedRow[]> {
  const rows = await db
    .select(rowColumns)
    .from(userImportRows)
    .where(and(eq(userImportRows.importId, importId), gt(userImportRows.line, afterLine)))
    .orderBy(asc(userImportRows.line))
    .limit(limit);
  return rows as StagedRow[];
}
