import { and, asc, desc, eq, gt } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { events } from '../../db/schema/audit';
import type { ChangeNotice } from './hub';

const noticeColumns = {
  id: events.id,
  publicId: events.publicId,
  tenantId: events.tenantId,
  entity: events.entity,
  action: events.action,
  entityId: events.entityId,
};

/** The public id of the tenant's newest kept event, if it has one. */
export async function newestEventPublicId(
  db: Database,
  tenantId: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ publicId: events.publicId })
    .from(events)
    .where(eq(events.tenantId, tenantId))
    .orderBy(desc(events.id))
    .limit(1);
  return row?.publicId;
}

/** The position (in the order of all tenants' changes) of one of this tenant's kept events. */
export async function findEventPosition(
  db: Database,
  tenantId: string,
  publicId: string,
): Promise<number | undefined> {
  const [row] = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.tenantId, tenantId), eq(events.publicId, publicId)));
  return row?.id;
}

/** At most `limit` of the tenant's events after position `after`, oldest first. */
export async function eventsAfter(
  db: Database,
  tenantId: string,
  after: number,
  limit: number,
): Promise<ChangeNotice[]> {
  const rows = await db
    .select(noticeColumns)
    .from(events)
    .where(and(eq(events.tenantId, tenantId), gt(events.id, after)))
    .orderBy(asc(events.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}
