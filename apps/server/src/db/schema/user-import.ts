import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import type { UserImportRowProblem } from '@tc/contract/user-import';
import { createdAt, id, updatedAt } from './columns';
import { users } from './identity';
import { tenants } from './tenants';

/**
 * A CSV import of users: the uploaded file is staged here row by row (never whole in memory),
 * checked against a column mapping, then applied in batches. A row's `outcome` is written in
 * the transaction that creates its user, so an interrupted apply continues with exactly the
 * rows that have none.
 */
export const userImports = pgTable('user_imports', {
  id: id(),
  tenantId: uuid()
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
  // receiving (upload under way) → uploaded → checked → applying → done
  state: text().notNull().default('receiving'),
  columns: jsonb().$type<string[]>().notNull().default([]),
  mapping: jsonb().$type<Record<string, number | null>>(),
  sendInvitations: boolean().notNull().default(false),
  rowCount: integer().notNull().default(0),
  // The check's totals: rows to create, rows refused, rows whose user exists already.
  validCount: integer().notNull().default(0),
  errorCount: integer().notNull().default(0),
  existingCount: integer().notNull().default(0),
  createdCount: integer().notNull().default(0),
  skippedCount: integer().notNull().default(0),
  failedCount: integer().notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** One data row of the file: its raw cells, then the checked fields and, once applied, its outcome. */
export const userImportRows = pgTable(
  'user_import_rows',
  {
    importId: uuid()
      .notNull()
      .references(() => userImports.id, { onDelete: 'cascade' }),
    /** The row's line in the file, the header being line 1. */
    line: integer().notNull(),
    cells: text().array().notNull(),
    firstName: text(),
    lastName: text(),
    /** Trimmed and lower-case, set only when valid: what duplicates are found by. */
    email: text(),
    roleName: text(),
    roleId: uuid(),
    status: text(),
    /** `[{ field, code, params }]` found by the check; null: none. */
    problems: jsonb().$type<UserImportRowProblem[]>(),
    /** A user with this e-mail address existed when the rows were checked. */
    existing: boolean().notNull().default(false),
    /** null until applied: created, skipped (already exists) or failed. */
    outcome: text(),
    userId: uuid(),
  },
  (t) => [
    primaryKey({ columns: [t.importId, t.line] }),
    index('user_import_rows_email_idx').on(t.importId, t.email),
    index('user_import_rows_pending_idx')
      .on(t.importId, t.line)
      .where(sql`${t.outcome} is null`),
  ],
);
