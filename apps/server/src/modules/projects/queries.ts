import { and, asc, count, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Page } from '@tc/contract/paging';
import type { Project, ProjectCreate, ProjectPageRequest } from '@tc/contract/projects';
import type { Database } from '../../db/database';
import { users } from '../../db/schema/identity';
import { projectPeople, projects } from '../../db/schema/projects';
import type { ServiceContext } from '../../http/crud-routes';
import { containsText, pageWindow, toPage } from '../../http/paging';
import { notFound } from '../../http/problem';
import { fileUrl } from '../files';

/** The owner is a user of the same tenant; the join repeats the tenant so it can never leak. */
export const owner = alias(users, 'owner');
export const ownerName = sql<string>`${owner.firstName} || ' ' || ${owner.lastName}`;

const fullName = sql<string>`${users.firstName} || ' ' || ${users.lastName}`;

const columns = {
  id: projects.id,
  name: projects.name,
  short: projects.short,
  description: projects.description,
  ownerId: projects.ownerId,
  owner: ownerName,
  projectNumber: projects.projectNumber,
  budget: projects.budget,
  country: projects.country,
  city: projects.city,
  address: projects.address,
  postalCode: projects.postalCode,
  logoFileId: projects.logoFileId,
  createdAt: projects.createdAt,
  updatedAt: projects.updatedAt,
};

/** Projects of one tenant with their owner's name, for the list and for one row. */
export function selectProjects(db: Database) {
  return db
    .select(columns)
    .from(projects)
    .leftJoin(owner, and(eq(owner.id, projects.ownerId), eq(owner.tenantId, projects.tenantId)));
}

type ProjectRecord = Awaited<ReturnType<typeof selectProjects>>[number];

/** Answers the rows in the contract's shape, with the people of each project by name. */
export async function toRows(db: Database, records: ProjectRecord[]): Promise<Project[]> {
  const ids = records.map((record) => record.id);
  const people =
    ids.length === 0
      ? []
      : await db
          .select({ projectId: projectPeople.projectId, id: users.id, name: fullName })
          .from(projectPeople)
          .innerJoin(
            users,
            and(eq(users.id, projectPeople.userId), eq(users.tenantId, projectPeople.tenantId)),
          )
          .where(inArray(projectPeople.projectId, ids))
          .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id));
  return records.map(({ logoFileId, createdAt, updatedAt, ...record }) => {
    const own = people.filter((person) => person.projectId === record.id);
    return {
      ...record,
      owner: record.ownerId ? record.owner : null,
      peopleIds: own.map((person) => person.id),
      people: own.map(({ id, name }) => ({ id, name })),
      logoUrl: logoFileId ? fileUrl(logoFileId) : null,
      createdAt: createdAt.toISOString(),
      updatedAt: updatedAt.toISOString(),
    };
  });
}

/** One project of the tenant; another tenant's id is answered exactly like a missing one. */
export async function findProject(
  db: Database,
  tenantId: string,
  id: string,
  lock = false,
): Promise<{ row: Project; logoFileId: string | null }> {
  const where: SQL = and(eq(projects.tenantId, tenantId), eq(projects.id, id))!;
  const query = selectProjects(db).where(where);
  const [record] = lock ? await query.for('update', { of: projects }) : await query;
  if (!record) throw notFound('project.not_found');
  const [row] = await toRows(db, [record]);
  return { row: row!, logoFileId: record.logoFileId };
}

export const sortColumns = {
  name: projects.name,
  projectNumber: projects.projectNumber,
  // numeric: sorted as a number, not as text.
  budget: projects.budget,
  country: projects.country,
  owner: ownerName,
  createdAt: projects.createdAt,
};

/** The list screen: search on name or number, exact owner and country filters. */
export async function pageProjects({
  db,
  caller,
  request,
}: ServiceContext & { request: ProjectPageRequest }): Promise<Page<Project>> {
  const { search, ownerId, country } = request.filter;
  const conditions: (SQL | undefined)[] = [eq(projects.tenantId, caller.tenantId)];
  if (search) {
    conditions.push(
      or(containsText(projects.name, search), containsText(projects.projectNumber, search)),
    );
  }
  if (ownerId) conditions.push(eq(projects.ownerId, ownerId));
  if (country) conditions.push(eq(projects.country, country));
  const where = and(...conditions);

  const window = pageWindow(request, sortColumns, projects.id);
  const [records, [total]] = await Promise.all([
    selectProjects(db)
      .where(where)
      .orderBy(...window.orderBy)
      .limit(window.limit)
      .offset(window.offset),
    db.select({ value: count() }).from(projects).where(where),
  ]);
  return toPage(request, await toRows(db, records), total?.value ?? 0);
}

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
