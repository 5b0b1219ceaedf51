import { and, asc, desc, eq, gt } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { events } from '../../db/schema/audit';
import type { ChangeNotice } from './hub';

/** More missed changes than this, and the console is better off reloading. */
export const REPLAY_LIMIT = 1000;

/** The resume point of a tenant that has had no change yet: before its first one. */
export const BEFORE_FIRST_EVENT = '0';

/**
 * The id a client sees for an event: its random public id as 32 hex digits. The order of
 * events is kept on the server; the ids a tenant sees say nothing of other tenants' changes.
 */
export const clientEventId = (publicId: string) => publicId.replaceAll('-', '');

function publicIdOf(clientId: string): string | undefined {
  if (!/^[0-9a-f]{32}$/i.test(clientId)) return undefined;
  const hex = clientId.toLowerCase();
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    hex.slice(12, 16),
    hex.slice(16, 20),
    hex.slice(20),
  ].join('-');
}

export type CatchUp =
  /** Nothing to replay; the client's resume point is set to `id`. */
  | { kind: 'start'; id: string }
  | { kind: 'replay'; notices: ChangeNotice[] }
  /** The gap cannot be replayed; the client's resume point is set to `id`. */
  | { kind: 'reload'; id: string };

const noticeColumns = {
  id: events.id,
  publicId: events.publicId,
  tenantId: events.tenantId,
  entity: events.entity,
  action: events.action,
  entityId: events.entityId,
};

/** The tenant's newest event as a resume point. */
async function newestOf(db: Database, tenantId: string): Promise<string> {
  const [row] = await db
    .select({ publicId: events.publicId })
    .from(events)
    .where(eq(events.tenantId, tenantId))
    .orderBy(desc(events.id))
    .limit(1);
  return row ? clientEventId(row.publicId) : BEFORE_FIRST_EVENT;
}

/**
 * What a (re)connecting client missed since `lastEventId` (the SSE Last-Event-ID): the
 * tenant's events after that one. Everything is looked up within the caller's tenant, so an
 * id that is not one of its kept events (pruned, another tenant's, another database's or
 * not an id at all) means only that the client cannot be caught up and must reload.
 */
export async function catchUp(
  db: Database,
  tenantId: string,
  lastEventId: string | undefined,
): Promise<CatchUp> {
  if (lastEventId === undefined || lastEventId === '') {
    return { kind: 'start', id: await newestOf(db, tenantId) };
  }
  let after = 0;
  if (lastEventId !== BEFORE_FIRST_EVENT) {
    const publicId = publicIdOf(lastEventId);
    const [last] = publicId
      ? await db
          .select({ id: events.id })
          .from(events)
          .where(and(eq(events.tenantId, tenantId), eq(events.publicId, publicId)))
      : [];
    if (!last) return { kind: 'reload', id: await newestOf(db, tenantId) };
    after = last.id;
  }
  const rows = await db
    .select(noticeColumns)
    .from(events)
    .where(and(eq(events.tenantId, tenantId), gt(events.id, after)))
    .orderBy(asc(events.id))
    .limit(REPLAY_LIMIT + 1);
  if (rows.length > REPLAY_LIMIT) return { kind: 'reload', id: await newestOf(db, tenantId) };
  return { kind: 'replay', notices: rows.map((row) => ({ ...row, id: Number(row.id) })) };
}
