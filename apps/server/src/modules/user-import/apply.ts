import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { UserImportJob, UserImportRowProblem } from '@tc/contract/user-import';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { users } from '../../db/schema/identity';
import { userImportRows, userImports } from '../../db/schema/user-import';
import { conflict } from '../../http/problem';
import type { Caller } from '../../identity/token-service';
import { sendInvitation } from '../../mail/account-mail';
import { recordChanges, type Change } from '../audit';
import type { RoleChoice } from './check-row';
import { requireJob, toJob, updateRows } from './queries';
import { roleChoices } from './service';

/** Rows per transaction: each batch commits its users, audit entries and row outcomes together. */
export const APPLY_BATCH = 1000;

export interface ApplyOptions {
  batchSize?: number;
  /** Stops after this many batches, as a crash would (tests of resuming). */
  maxBatches?: number;
}

interface Outcome {
  line: number;
  outcome: 'created' | 'skipped' | 'failed';
  userId: string | null;
  problems: UserImportRowProblem[] | null;
}

type PendingRow = Awaited<ReturnType<typeof pendingRows>>[number];

function pendingRows(tx: Database, importId: string, limit: number) {
  return tx
    .select({
      line: userImportRows.line,
      firstName: userImportRows.firstName,
      lastName: userImportRows.lastName,
      email: userImportRows.email,
      roleName: userImportRows.roleName,
      status: userImportRows.status,
      problems: userImportRows.problems,
    })
    .from(userImportRows)
    .where(and(eq(userImportRows.importId, importId), isNull(userImportRows.outcome)))
    .orderBy(asc(userImportRows.line))
    .limit(limit);
}

/** The role a row gets now: the importer's permissions at apply time decide, not the preview's. */
function roleProblem(row: PendingRow, roles: ReadonlyMap<string, RoleChoice>) {
  const role = row.roleName ? roles.get(row.roleName.toLowerCase()) : undefined;
  if (!role) {
    return {
      problem: {
        field: 'role',
        code: 'user_import.role_unknown',
        params: { role: row.roleName ?? '' },
      },
    };
  }
  if (role.refusal) return { problem: { field: 'role', ...role.refusal } };
  return { role };
}

/**
 * One batch in one transaction, the job row locked so that two applies of one job (a double
 * click, two processes) take turns and never see the same pending row: rows with problems
 * fail, the others are inserted at once with ON CONFLICT DO NOTHING, so an address that exists
 * (created meanwhile, or by an earlier run of the same file) is skipped, never doubled. Every
 * created user gets its audit entry (recordChanges: one change event per batch) and, when
 * chosen, its invitation in the outbox; the rows' outcomes and the job's counters are written
 * in the same transaction.
 */
async function applyBatch(
  db: Database,
  config: Config,
  caller: Caller,
  importId: string,
  roles: ReadonlyMap<string, RoleChoice>,
  batchSize: number,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const job = await requireJob(tx, caller.tenantId, importId, true);
    const rows = await pendingRows(tx, importId, batchSize);
    if (rows.length === 0) {
      await tx.update(userImports).set({ state: 'done' }).where(eq(userImports.id, importId));
      return false;
    }
    const outcomes: Outcome[] = [];
    const candidates: (PendingRow & { role: RoleChoice; email: string })[] = [];
    for (const row of rows) {
      const checked = row.problems ? { problem: undefined } : roleProblem(row, roles);
      if (row.problems || checked.problem || !row.email) {
        const problems = row.problems ?? (checked.problem ? [checked.problem] : []);
        outcomes.push({ line: row.line, outcome: 'failed', userId: null, problems });
      } else
        candidates.push({ ...row, email: row.email, role: (checked as { role: RoleChoice }).role });
    }
    const inserted =
      candidates.length === 0
        ? []
        : await tx
            .insert(users)
            .values(
              candidates.map((row) => ({
                tenantId: caller.tenantId,
                email: row.email,
                firstName: row.firstName ?? '',
                lastName: row.lastName ?? '',
                roleId: row.role.id,
                status: row.status ?? 'active',
              })),
            )
            .onConflictDoNothing()
            .returning({
              id: users.id,
              email: users.email,
              createdAt: users.createdAt,
              updatedAt: users.updatedAt,
            });
    const byEmail = new Map(inserted.map((user) => [user.email, user]));
    const created: Change[] = [];
    for (const row of candidates) {
      const user = byEmail.get(row.email);
      if (!user) {
        const problems = [{ field: 'email', code: 'user_import.email_exists' }];
        outcomes.push({ line: row.line, outcome: 'skipped', userId: null, problems });
        continue;
      }
      outcomes.push({ line: row.line, outcome: 'created', userId: user.id, problems: null });
      created.push({
        tenantId: caller.tenantId,
        actorId: caller.userId,
        entity: 'users',
        action: 'create',
        entityId: user.id,
        after: {
          id: user.id,
          firstName: row.firstName,
          lastName: row.lastName,
          email: row.email,
          roleId: row.role.id,
          role: row.role.name,
          status: row.status ?? 'active',
          invited: true,
          createdAt: user.createdAt.toISOString(),
          updatedAt: user.updatedAt.toISOString(),
        },
      });
      if (job.sendInvitations) {
        await sendInvitation(tx, config.publicUrl, { userId: user.id, inviterId: caller.userId });
      }
    }
    // One change event per batch, named by the import: the users lists and the import's
    // progress refresh once per batch.
    await recordChanges(tx, created, {
      tenantId: caller.tenantId,
      entity: 'users',
      action: 'create',
      entityId: importId,
    });
    await updateRows(
      tx,
      importId,
      'line int, outcome text, "userId" uuid, problems jsonb',
      sql`outcome = v.outcome, user_id = v."userId", problems = v.problems`,
      outcomes,
    );
    const tally = (outcome: Outcome['outcome']) =>
      outcomes.filter((row) => row.outcome === outcome).length;
    await tx
      .update(userImports)
      .set({
        state: 'applying',
        createdCount: sql`${userImports.createdCount} + ${tally('created')}`,
        skippedCount: sql`${userImports.skippedCount} + ${tally('skipped')}`,
        failedCount: sql`${userImports.failedCount} + ${tally('failed')}`,
        updatedAt: sql`now()`,
      })
      .where(eq(userImports.id, importId));
    return true;
  });
}

/**
 * Applies a checked import batch by batch until no row is pending. It is resumable and
 * idempotent: a run that stopped (a crash, `maxBatches`) left every finished batch committed
 * with its outcomes, and applying again picks up the rows that have none; a finished import
 * answers as it is.
 */
export async function applyImport(
  input: { db: Database; config: Config; caller: Caller; id: string },
  options: ApplyOptions = {},
): Promise<UserImportJob> {
  const { db, config, caller, id } = input;
  const job = await requireJob(db, caller.tenantId, id);
  if (job.state === 'uploaded') throw conflict('user_import.not_checked');
  if (job.state !== 'done') {
    // From now on the mapping stays: a check sent meanwhile is refused (409).
    const [started] = await db
      .update(userImports)
      .set({ state: 'applying' })
      .where(and(eq(userImports.id, id), inArray(userImports.state, ['checked', 'applying'])))
      .returning({ id: userImports.id });
    if (!started) {
      // Finished by another apply meanwhile: answered as it is; being checked again: refused.
      const now = await requireJob(db, caller.tenantId, id);
      if (now.state !== 'done') throw conflict('user_import.not_checked');
      return toJob(now);
    }
    const roles = await roleChoices(db, caller);
    const batchSize = options.batchSize ?? APPLY_BATCH;
    let batches = 0;
    while (batches < (options.maxBatches ?? Infinity)) {
      batches += 1;
      if (!(await applyBatch(db, config, caller, id, roles, batchSize))) break;
    }
  }
  return toJob(await requireJob(db, caller.tenantId, id));
}
