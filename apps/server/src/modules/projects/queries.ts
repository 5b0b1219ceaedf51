import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Project } from '@tc/contract/projects';
import type { Database } from '../../db/database';
import { users } from '../../db/schema/identity';
import { projectPeople, projects } from '../../db/schema/projects';
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
