import { and, asc, eq, gt, max, min } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { events } from '../../db/schema/audit';
import type { ChangeNotice } from './hub';

/** More missed changes than this, and the console is better off reloading. */
export const REPLAY_LIMIT = 1000;

export type CatchUp =
  /** Nothing to replay; the client's resume point is set to `id`. */
  | { kind: 'start'; id: number }
  | { kind: 'replay'; notices: ChangeNotice[] }
  /** The gap cannot be replayed; the client's resume point is set to `id`. */
  | { kind: 'reload'; id: number };

/**
 * What a (re)connecting client missed since `lastEventId` (the SSE Last-Event-ID). Ids are a
 * global sequence, so an id below the oldest kept row (pruned), above the newest (another
 * database) or not a number at all means the client cannot be caught up and must reload.
 */
export async function catchUp(
  db: Database,
  tenantId: string,
  lastEventId: string | undefined,
): Promise<CatchUp> {
  const [bounds] = await db.select({ oldest: min(events.id), newest: max(events.id) }).from(events);
  const newest = bounds?.newest == null ? 0 : Number(bounds.newest);
  const oldest = bounds?.oldest == null ? newest + 1 : Number(bounds.oldest);
  if (lastEventId === undefined || lastEventId === '') return { kind: 'start', id: newest };
  const last = /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : Number.NaN;
  if (Number.isNaN(last) || last > newest || last < oldest - 1)
    return { kind: 'reload', id: newest };
  const rows = await db
    .select({
      id: events.id,
      tenantId: events.tenantId,
      entity: events.entity,
      action: events.action,
      entityId: events.entityId,
    })
    .from(events)
    .where(and(eq(events.tenantId, tenantId), gt(events.id, last)))
    .orderBy(asc(events.id))
    .limit(REPLAY_LIMIT + 1);
  if (rows.length > REPLAY_LIMIT) return { kind: 'reload', id: newest };
  return { kind: 'replay', notices: rows.map((row) => ({ ...row, id: Number(row.id) })) };
}
