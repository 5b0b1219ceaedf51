import { and, asc, eq, exists, gt, sql } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { roles, userCounts } from '../../db/schema/identity';
import { projects } from '../../db/schema/projects';
import { containsText } from '../../http/paging';
import { owner, ownerName } from '../projects';

export interface Named {
  id: string;
  name: string;
}

/** Up to 100 of the tenant's roles that some user holds and whose name contains `name`. */
export async function heldRolesNamed(
  db: Database,
  tenantId: string,
  name: string,
): Promise<Named[]> {
  const held = db
    .select({ one: sql`1` })
    .from(userCounts)
    .where(
      and(
        eq(userCounts.tenantId, roles.tenantId),
        eq(userCounts.roleId, roles.id),
        gt(userCounts.n, 0),
      ),
    );
  return db
    .select({ id: roles.id, name: roles.name })
    .from(roles)
    .where(and(eq(roles.tenantId, tenantId), containsText(roles.name, name), exists(held)))
    .orderBy(asc(sql`lower(${roles.name})`), asc(roles.id))
    .limit(100);
}

/** Up to 10 owners of the tenant's projects whose full name contains `name`. */
export async function projectOwnersNamed(
  db: Database,
  tenantId: string,
  name: string,
): Promise<Named[]> {
  return db
    .selectDistinct({ id: owner.id, name: ownerName })
    .from(projects)
    .innerJoin(owner, and(eq(owner.id, projects.ownerId), eq(owner.tenantId, projects.tenantId)))
    .where(and(eq(projects.tenantId, tenantId), containsText(ownerName, name)))
    .orderBy(asc(ownerName), asc(owner.id))
    .limit(10);
}
