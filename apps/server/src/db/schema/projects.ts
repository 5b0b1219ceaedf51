import { sql, type SQL } from 'drizzle-orm';
import {
  bigint,
  char,
  index,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns';
import { users } from './identity';
import { files, tenants } from './tenants';

export const projects = pgTable(
  'projects',
  {
    id: id(),
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    short: text(),
    description: text(),
    ownerId: uuid().references(() => users.id, { onDelete: 'set null' }),
    /**
     * The owner's "first last" name, set by triggers (migration 0016) when the owner is set and
     * when the owner is renamed, so the list sorts by it from an index instead of a join.
     */
    ownerName: text(),
    projectNumber: text().notNull(),
    // Exact decimal: the driver returns it as a string, never a float.
    budget: numeric({ precision: 16, scale: 2 }).notNull().default('0'),
    country: char({ length: 2 }),
    city: text(),
    address: text(),
    postalCode: text(),
    logoFileId: uuid().references(() => files.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** What the list's search looks in: name and number, lower-cased, one trigram index. */
    search: text().generatedAlwaysAs(
      (): SQL => sql`lower(${projects.name} || E'\\n' || ${projects.projectNumber})`,
    ),
  },
  (t) => [
    uniqueIndex('projects_tenant_number_key').on(t.tenantId, sql`lower(${t.projectNumber})`),
    // The owner's deletion (set null) and renaming find the owner's projects by this one.
    index('projects_owner_idx').on(t.ownerId),
    // The dashboard's aggregates read this index alone (index-only scan), not the rows.
    index('projects_tenant_figures_idx').on(t.tenantId, t.country, t.ownerId, t.budget),
    index('projects_search_trgm_idx').using('gin', t.search.op('gin_trgm_ops')),
    // The list: each sort's order, read forwards or backwards, for the tenant, for one country
    // and for one owner (whose indexes carry the country too, for both filters at once). A
    // sort by country goes on by name, and so does one by owner.
    index('projects_tenant_name_idx').on(t.tenantId, t.name, t.id),
    index('projects_tenant_number_idx').on(t.tenantId, t.projectNumber, t.id),
    index('projects_tenant_budget_idx').on(t.tenantId, t.budget, t.id),
    index('projects_tenant_country_idx').on(t.tenantId, t.country, t.name, t.id),
    index('projects_tenant_owner_name_idx').on(t.tenantId, t.ownerName, t.name, t.id),
    index('projects_tenant_created_idx').on(t.tenantId, t.createdAt, t.id),
    index('projects_by_country_number_idx').on(t.tenantId, t.country, t.projectNumber, t.id),
    index('projects_by_country_budget_idx').on(t.tenantId, t.country, t.budget, t.id),
    index('projects_by_country_owner_name_idx').on(
      t.tenantId,
      t.country,
      t.ownerName,
      t.name,
      t.id,
    ),
    index('projects_by_country_created_idx').on(t.tenantId, t.country, t.createdAt, t.id),
    // The country after the (unique) id changes no order; it only lets the index alone answer.
    index('projects_by_owner_name_idx').on(t.tenantId, t.ownerId, t.name, t.id, t.country),
    index('projects_by_owner_number_idx').on(
      t.tenantId,
      t.ownerId,
      t.projectNumber,
      t.id,
      t.country,
    ),
    index('projects_by_owner_budget_idx').on(t.tenantId, t.ownerId, t.budget, t.id, t.country),
    index('projects_by_owner_country_idx').on(t.tenantId, t.ownerId, t.country, t.name, t.id),
    index('projects_by_owner_created_idx').on(t.tenantId, t.ownerId, t.createdAt, t.id, t.country),
  ],
);

export const projectPeople = pgTable(
  'project_people',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    projectId: uuid()
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.userId] }),
    index('project_people_user_idx').on(t.userId),
  ],
);

/**
 * Projects per tenant (owner and country '*'), per owner (country '*') and per country
 * (owner '*'), kept exact by statement-level triggers (migration 0016), so the list's
 * totalCount is one row instead of a count of the tenant's projects.
 */
export const projectCounts = pgTable(
  'project_counts',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    owner: text().notNull(),
    country: text().notNull(),
    n: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'project_counts_pk', columns: [t.tenantId, t.owner, t.country] })],
);
