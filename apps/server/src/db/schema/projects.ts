import { sql } from 'drizzle-orm';
import {
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
  },
  (t) => [
    uniqueIndex('projects_tenant_number_key').on(t.tenantId, sql`lower(${t.projectNumber})`),
    index('projects_tenant_name_idx').on(t.tenantId, t.name, t.id),
    index('projects_owner_idx').on(t.ownerId),
    // The dashboard's aggregates read this index alone (index-only scan), not the rows.
    index('projects_tenant_figures_idx').on(t.tenantId, t.country, t.ownerId, t.budget),
    index('projects_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
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
