import { and, eq, sql, type SQL } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { Page } from '@tc/contract/paging';
import type {
  Project,
  ProjectCreate,
  ProjectPageRequest,
  PROJECT_SORT_FIELDS,
} from '@tc/contract/projects';
import type { Database } from '../../db/database';
import { users } from '../../db/schema/identity';
import { projectCounts, projectPeople, projects } from '../../db/schema/projects';
import type { ServiceContext } from '../../http/crud-routes';
import {
  cappedCountQuery,
  matchesSearchInFields,
  nearerEndSlice,
  pageIdsQuery,
  pageOfCountedRows,
  toPage,
  type PageSlice,
} from '../../http/paging';
import { notFound } from '../../http/problem';
import { fileUrl } from '../files';

/** The owner is a user of the same tenant; the join repeats the tenant so it can never leak. */
export const owner = alias(users, 'owner');
export const ownerName = sql<string>`${owner.firstName} || ' ' || ${owner.lastName}`;

/**
 * The project's people by name, as one JSON array, read in the same statement as the row. A
 * subquery of its own: it keeps its columns qualified even when the outer query has one table.
 */
const people = (db: Database) =>
  sql<{ id: string; name: string }[]>`${db
    .select({
      list: sql`coalesce(json_agg(json_build_object('id', ${users.id},
        'name', ${users.firstName} || ' ' || ${users.lastName})
        order by ${users.firstName}, ${users.lastName}, ${users.id}), '[]'::json)`,
    })
    .from(projectPeople)
    .innerJoin(
      users,
      and(eq(users.id, projectPeople.userId), eq(users.tenantId, projectPeople.tenantId)),
    )
    .where(eq(projectPeople.projectId, projects.id))}`;

export const columns = (db: Database) => ({
  id: projects.id,
  name: projects.name,
  short: projects.short,
  description: projects.description,
  ownerId: projects.ownerId,
  owner: projects.ownerName,
  projectNumber: projects.projectNumber,
  budget: projects.budget,
  country: projects.country,
  city: projects.city,
  address: projects.address,
  postalCode: projects.postalCode,
  logoFileId: projects.logoFileId,
  people: people(db),
  createdAt: projects.createdAt,
  updatedAt: projects.updatedAt,
});

const selectProjects = (db: Database) => db.select(columns(db)).from(projects);
type ProjectRecord = Awaited<ReturnType<typeof selectProjects>>[number];

/** Answers the rows in the contract's shape. */
export function toRow({
  logoFileId,
  createdAt,
  updatedAt,
  people,
  ...record
}: ProjectRecord): Project {
  return {
    ...record,
    peopleIds: people.map((person) => person.id),
    people,
    logoUrl: logoFileId ? fileUrl(logoFileId) : null,
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  };
}

/** One project of the tenant; another tenant's id is answered exactly like a missing one. */
export async function findProject(
  db: Database,
  tenantId: string,
  id: string,
  lock = false,
): Promise<{ row: Project; logoFileId: string | null }> {
  const query = selectProjects(db).where(and(eq(projects.tenantId, tenantId), eq(projects.id, id)));
  const [record] = lock ? await query.for('update') : await query;
  if (!record) throw notFound('project.not_found');
  return { row: toRow(record), logoFileId: record.logoFileId };
}

/**
 * The order of each sort: its columns, then the id so equal values never swap places
 * between pages. Each is the order of one index (migration 0016), for the tenant, one country
 * or one owner, read backwards for descending.
 */
const sortKeys: Record<(typeof PROJECT_SORT_FIELDS)[number], PgColumn[]> = {
  name: [projects.name, projects.id],
  projectNumber: [projects.projectNumber, projects.id],
  // numeric: sorted as a number, not as text.
  budget: [projects.budget, projects.id],
  country: [projects.country, projects.name, projects.id],
  owner: [projects.ownerName, projects.name, projects.id],
  createdAt: [projects.createdAt, projects.id],
};

export function orderOf({ listSort, filter }: ProjectPageRequest): PgColumn[] {
  // A filter that fixes the sort's column leaves the order after it: one owner's projects all
  // carry that owner's name, one country's all that country.
  const fixed =
    (listSort.field === 'owner' && filter.ownerId) ||
    (listSort.field === 'country' && filter.country);
  return sortKeys[fixed ? 'name' : listSort.field];
}

export function pageWhere(tenantId: string, filter: ProjectPageRequest['filter']): SQL {
  return and(
    eq(projects.tenantId, tenantId),
    // In the lower-cased name and number: the start of either, or anywhere in them.
    filter.search ? matchesSearchInFields(projects.search, filter.search) : undefined,
    filter.ownerId ? eq(projects.ownerId, filter.ownerId) : undefined,
    filter.country ? eq(projects.country, filter.country) : undefined,
  )!;
}

/** Whether project_counts holds this total: no search, and not both owner and country. */
const isKeptCount = (filter: ProjectPageRequest['filter']) =>
  !filter.search && !(filter.ownerId && filter.country);

/**
 * The total as one statement. The tenant, one owner and one country are read from
 * project_counts; a search, or owner and country together, is counted up to the cap.
 */
export function projectCountQuery(
  db: Database,
  tenantId: string,
  filter: ProjectPageRequest['filter'],
) {
  if (isKeptCount(filter)) {
    return db
      .select({ value: sql<number>`coalesce(sum(${projectCounts.n}), 0)`.mapWith(Number) })
      .from(projectCounts)
      .where(
        and(
          eq(projectCounts.tenantId, tenantId),
          eq(projectCounts.owner, filter.ownerId ?? '*'),
          eq(projectCounts.country, filter.country ?? '*'),
        ),
      );
  }
  return cappedCountQuery(db, projects, pageWhere(tenantId, filter));
}

/**
 * A page and the total as one statement: the ids of the page are found in the sort's index
 * alone (an index-only scan, so skipping to a deep page reads index entries, not rows), then
 * only those rows are read, with their people.
 */
export function projectPageQuery(
  db: Database,
  tenantId: string,
  request: ProjectPageRequest,
  slice?: PageSlice,
) {
  const where = pageWhere(tenantId, request.filter);
  const list = { table: projects, id: projects.id, where };
  const ids = pageIdsQuery(db, list, orderOf(request), request, slice);
  const total = projectCountQuery(db, tenantId, request.filter);
  return db
    .select({ ...columns(db), total: sql<number>`(${total})`.mapWith(Number) })
    .from(ids.page)
    .innerJoin(projects, eq(projects.id, ids.id))
    .orderBy(...ids.orderBy);
}

/** Deeper than this, a list whose total is kept by triggers reads it first (nearerEndSlice). */
const FROM_THE_END_AFTER = 1_000;

/** The list screen: search on name or number, exact owner and country filters. */
export async function pageProjects({
  db,
  caller,
  request,
}: ServiceContext & { request: ProjectPageRequest }): Promise<Page<Project>> {
  const { tenantId } = caller;
  const offset = (request.pageIndex - 1) * request.pageSize;
  if (offset >= FROM_THE_END_AFTER && isKeptCount(request.filter)) {
    const [count] = await projectCountQuery(db, tenantId, request.filter);
    const total = count?.value ?? 0;
    const slice = nearerEndSlice(offset, request.pageSize, total);
    const records = slice.limit > 0 ? await projectPageQuery(db, tenantId, request, slice) : [];
    if (slice.reversed) records.reverse();
    return toPage(request, records.map(withoutTotal), total);
  }
  const records = await projectPageQuery(db, tenantId, request);
  const count = () => projectCountQuery(db, tenantId, request.filter);
  return pageOfCountedRows(request, records, toRow, count, isKeptCount(request.filter));
}

const withoutTotal = ({ total: _, ...record }: ProjectRecord & { total: number }) => toRow(record);

export function columnsOf(data: ProjectCreate) {
  return {
    name: data.name,
    short: data.short,
    description: data.description,
    ownerId: data.ownerId,
    projectNumber: data.projectNumber,
    budget: data.budget,
    country: data.country,
    city: data.city,
    address: data.address,
    postalCode: data.postalCode,
  };
}

export async function setPeople(
  tx: Database,
  tenantId: string,
  projectId: string,
  userIds: string[],
) {
  await tx.delete(projectPeople).where(eq(projectPeople.projectId, projectId));
  const unique = [...new Set(userIds)];
  if (unique.length > 0) {
    await tx
      .insert(projectPeople)
      .values(unique.map((userId) => ({ tenantId, projectId, userId })));
  }
}
