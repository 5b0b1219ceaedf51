import { and, count, eq, or, type SQL } from 'drizzle-orm';
import type { Page } from '@tc/contract/paging';
import type { Project, ProjectPageRequest } from '@tc/contract/projects';
import { projects } from '../../db/schema/projects';
import type { ServiceContext } from '../../http/crud-routes';
import { containsText, pageWindow, toPage } from '../../http/paging';
import { ownerName, selectProjects, toRows } from './rows';

const sortColumns = {
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
