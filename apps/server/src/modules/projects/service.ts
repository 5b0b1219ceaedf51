import { eq } from 'drizzle-orm';
import type {
  Project,
  ProjectCreate,
  ProjectPageRequest,
  ProjectUpdate,
} from '@tc/contract/projects';
import type { Database } from '../../db/database';
import { projects } from '../../db/schema/projects';
import type { CrudService, ServiceContext } from '../../http/crud-routes';
import { withUniqueFields } from '../../http/unique-conflict';
import { recordChange, type ChangeAction } from '../audit';
import { deleteFile } from '../files';
import { requireUsersInTenant } from '../users';
import { columnsOf, findProject, pageProjects, setPeople } from './queries';

export const ENTITY = 'projects';

/** A duplicate project number of the tenant is a 409 on the field, never a 500. */
export function translateErrors<T>(work: () => Promise<T>): Promise<T> {
  return withUniqueFields(work, {
    projects_tenant_number_key: {
      field: 'projectNumber',
      code: 'project.number_taken',
      fieldCode: 'project.number_used',
    },
  });
}

/**
 * Writes the audit entry and the change event in the same transaction, so neither exists
 * without the change nor the change without them.
 */
export function audit(
  tx: Database,
  { caller }: ServiceContext,
  action: ChangeAction,
  entityId: string,
  change: { before?: Project; after?: Project },
) {
  return recordChange(tx, {
    tenantId: caller.tenantId,
    actorId: caller.userId,
    entity: ENTITY,
    action,
    entityId,
    ...change,
  });
}

/** Owner and people must be users of the caller's tenant (400 on the field otherwise). */
async function checkPeople(tx: Database, tenantId: string, data: ProjectCreate) {
  if (data.ownerId) await requireUsersInTenant(tx, tenantId, [data.ownerId], 'ownerId');
  await requireUsersInTenant(tx, tenantId, data.peopleIds, 'peopleIds');
}

export async function getProject({ db, caller, id }: ServiceContext & { id: string }) {
  return (await findProject(db, caller.tenantId, id)).row;
}

export async function createProject(
  context: ServiceContext & { data: ProjectCreate },
): Promise<Project> {
  const { db, caller, data } = context;
  const tenantId = caller.tenantId;
  return translateErrors(() =>
    db.transaction(async (tx) => {
      await checkPeople(tx, tenantId, data);
      const [created] = await tx
        .insert(projects)
        .values({ tenantId, ...columnsOf(data) })
        .returning({ id: projects.id });
      await setPeople(tx, tenantId, created!.id, data.peopleIds);
      const { row } = await findProject(tx, tenantId, created!.id);
      await audit(tx, context, 'create', row.id, { after: row });
      return row;
    }),
  );
}

export async function updateProject(
  context: ServiceContext & { data: ProjectUpdate },
): Promise<Project> {
  const { db, caller, data } = context;
  const tenantId = caller.tenantId;
  return translateErrors(() =>
    db.transaction(async (tx) => {
      const before = (await findProject(tx, tenantId, data.id, true)).row;
      await checkPeople(tx, tenantId, data);
      await tx
        .update(projects)
        .set({ ...columnsOf(data), updatedAt: new Date() })
        .where(eq(projects.id, data.id));
      await setPeople(tx, tenantId, data.id, data.peopleIds);
      const { row } = await findProject(tx, tenantId, data.id);
      await audit(tx, context, 'update', row.id, { before, after: row });
      return row;
    }),
  );
}

export async function removeProject(context: ServiceContext & { id: string }): Promise<void> {
  const { db, caller, id } = context;
  await db.transaction(async (tx) => {
    const { row, logoFileId } = await findProject(tx, caller.tenantId, id, true);
    await tx.delete(projects).where(eq(projects.id, id));
    if (logoFileId) await deleteFile(tx, logoFileId);
    await audit(tx, context, 'delete', id, { before: row });
  });
}

export const projectsService: CrudService<
  Project,
  ProjectPageRequest,
  ProjectCreate,
  ProjectUpdate
> = {
  page: pageProjects,
  get: getProject,
  create: createProject,
  update: updateProject,
  remove: removeProject,
};
