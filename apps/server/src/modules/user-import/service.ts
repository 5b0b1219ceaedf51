import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Page } from '@tc/contract/paging';
import {
  USER_IMPORT_LIMITS,
  USER_IMPORT_REQUIRED_FIELDS,
  type UserImportJob,
  type UserImportMappingRequest,
  type UserImportRow,
  type UserImportRowPageRequest,
  type UserImportRowProblem,
} from '@tc/contract/user-import';
import type { z } from 'zod';
import type { userImportMappingRequestSchema } from '@tc/contract/user-import';
import type { Database } from '../../db/database';
import { userImports } from '../../db/schema/user-import';
import { AppError, badRequest, conflict } from '../../http/problem';
import type { Caller } from '../../identity/token-service';
import { requireMayGiveRole } from '../roles';
import { checkRow, type RoleChoice } from './check-row';
import { readCsvRecords } from './read-csv';
import {
  markDuplicatesAndExisting,
  pageRows,
  requireJob,
  insertStagedRows,
  rowCellsAfter,
  storeTotals,
  tenantRoles,
  toJob,
  updateRows,
  type StagedRow,
} from './queries';

const STAGE_BATCH = 1000;
const CHECK_BATCH = 2000;
const PREVIEW_CELL_CHARS = 300;

/** Something that looks like a value, not a column name: the file has no header line. */
const looksLikeData = (cell: string) => cell.trim() === '' || cell.includes('@');

/**
 * Stages an uploaded file: the job first, then its rows a thousand at a time as they are read.
 * Any refusal (encoding, size, shape) deletes the job and whatever rows it had, so nothing of a
 * refused file is kept.
 */
export async function stageUpload(
  db: Database,
  caller: Caller,
  body: AsyncIterable<Buffer>,
): Promise<UserImportJob> {
  const [created] = await db
    .insert(userImports)
    .values({ tenantId: caller.tenantId, createdBy: caller.userId })
    .returning({ id: userImports.id });
  const importId = created!.id;
  try {
    let columns: string[] | undefined;
    let line = 1;
    let batch: { line: number; cells: string[] }[] = [];
    for await (const record of readCsvRecords(body)) {
      if (!columns) {
        if (record.some(looksLikeData)) throw badRequest('user_import.header_missing');
        columns = record.map((name) => name.trim());
        continue;
      }
      line += 1;
      if (line - 1 > USER_IMPORT_LIMITS.maxRows) {
        throw new AppError(413, 'user_import.too_many_rows', {
          maximum: USER_IMPORT_LIMITS.maxRows,
        });
      }
      batch.push({ line, cells: record });
      if (batch.length === STAGE_BATCH) {
        await insertStagedRows(db, importId, batch);
        batch = [];
      }
    }
    if (!columns) throw badRequest('user_import.empty_file');
    if (batch.length > 0) await insertStagedRows(db, importId, batch);
    if (line === 1) throw badRequest('user_import.no_rows');
    const [job] = await db
      .update(userImports)
      .set({ state: 'uploaded', columns, rowCount: line - 1 })
      .where(eq(userImports.id, importId))
      .returning();
    return toJob(job!);
  } catch (error) {
    await db.delete(userImports).where(eq(userImports.id, importId));
    throw error;
  }
}

/**
 * The tenant's roles by lower-case name, each with the refusal the caller would get giving it
 * (nobody grants what they do not hold), so a row learns it in the preview, not at apply.
 */
export async function roleChoices(db: Database, caller: Caller) {
  const choices = new Map<string, RoleChoice>();
  for (const role of await tenantRoles(db, caller.tenantId)) {
    let refusal: RoleChoice['refusal'];
    try {
      await requireMayGiveRole(db, caller, role.id);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      refusal = { code: error.code, params: error.params };
    }
    choices.set(role.name.toLowerCase(), { id: role.id, name: role.name, refusal });
  }
  return choices;
}

type MappingRequest = z.output<typeof userImportMappingRequestSchema>;

function requireUsableMapping(job: { columns: string[] }, { mapping }: MappingRequest) {
  const fields: Record<string, 'user_import.column_required' | 'user_import.column_invalid'> = {};
  for (const field of USER_IMPORT_REQUIRED_FIELDS) {
    if (mapping[field] === null) fields[`mapping.${field}`] = 'user_import.column_required';
  }
  for (const [field, index] of Object.entries(mapping)) {
    if (index !== null && index >= job.columns.length) {
      fields[`mapping.${field}`] = 'user_import.column_invalid';
    }
  }
  if (Object.keys(fields).length > 0) throw badRequest('request.invalid', {}, fields);
  const used = Object.values(mapping).filter((index) => index !== null);
  if (new Set(used).size !== used.length) throw badRequest('user_import.column_twice');
}

/**
 * Maps the columns and checks every row against it, in batches: the preview. Mapping again
 * (another choice of columns) checks anew; once applying has begun the mapping stays.
 */
export async function checkImport(
  db: Database,
  caller: Caller,
  id: string,
  request: MappingRequest,
): Promise<UserImportJob> {
  const job = await requireJob(db, caller.tenantId, id);
  if (job.state === 'applying' || job.state === 'done')
    throw conflict('user_import.already_applied');
  requireUsableMapping(job, request);
  const roles = await roleChoices(db, caller);
  // Back to `uploaded` while checking: an apply sent meanwhile is refused, and an apply that
  // began since the read above leaves this mapping unsaved.
  const [unapplied] = await db
    .update(userImports)
    .set({ mapping: request.mapping, sendInvitations: request.sendInvitations, state: 'uploaded' })
    .where(and(eq(userImports.id, id), inArray(userImports.state, ['uploaded', 'checked'])))
    .returning({ id: userImports.id });
  if (!unapplied) throw conflict('user_import.already_applied');
  let afterLine = 0;
  for (;;) {
    const rows = await rowCellsAfter(db, id, afterLine, CHECK_BATCH);
    if (rows.length === 0) break;
    const checked = rows.map((row) => ({
      line: row.line,
      ...checkRow(row.cells, request.mapping, roles),
    }));
    await updateRows(
      db,
      id,
      'line int, "firstName" text, "lastName" text, email text, "roleName" text, "roleId" uuid, status text, problems jsonb',
      sql`first_name = v."firstName", last_name = v."lastName", email = v.email,
        role_name = v."roleName", role_id = v."roleId", status = v.status,
        problems = v.problems, existing = false`,
      checked,
    );
    afterLine = rows.at(-1)!.line;
  }
  await markDuplicatesAndExisting(db, caller.tenantId, id);
  await storeTotals(db, id);
  return toJob(await requireJob(db, caller.tenantId, id));
}

export async function getImport(db: Database, caller: Caller, id: string) {
  return toJob(await requireJob(db, caller.tenantId, id));
}

/** A staged row as the preview shows it: the mapped cells as they are in the file. */
export function toRow(row: StagedRow, mapping: UserImportMappingRequest['mapping'] | null) {
  const cell = (index: number | null | undefined) =>
    index === null || index === undefined ? null : (row.cells[index] ?? '');
  return {
    line: row.line,
    firstName: cell(mapping?.firstName),
    lastName: cell(mapping?.lastName),
    email: cell(mapping?.email),
    role: cell(mapping?.role),
    status: row.status,
    problems: (row.problems ?? []) as UserImportRowProblem[],
  } satisfies UserImportRow;
}

export async function pageImportRows(
  db: Database,
  caller: Caller,
  id: string,
  request: UserImportRowPageRequest,
): Promise<Page<UserImportRow>> {
  const job = await requireJob(db, caller.tenantId, id);
  const page = await pageRows(db, id, { ...request, status: request.filter.status });
  const mapping = job.mapping as UserImportMappingRequest['mapping'] | null;
  // A cell may be 64 K characters: the preview shows its start (the result file keeps it all).
  const shown = (cell: string | null) =>
    cell !== null && cell.length > PREVIEW_CELL_CHARS
      ? `${cell.slice(0, PREVIEW_CELL_CHARS)}…`
      : cell;
  return {
    ...page,
    data: page.data.map((staged) => {
      const row = toRow(staged, mapping);
      return {
        ...row,
        firstName: shown(row.firstName),
        lastName: shown(row.lastName),
        email: shown(row.email),
        role: shown(row.role),
      };
    }),
  };
}
