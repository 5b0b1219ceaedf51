import { asc, desc, eq, sql } from 'drizzle-orm';
import type { Database, DatabaseHandle } from '../../db/database';
import { users } from '../../db/schema/identity';
import { EVENTS_CHANNEL } from '../audit';

export interface Bookmark {
  email: string;
  id: string;
}

/**
 * Keyset bookmarks for deep pages of the unfiltered, e-mail-sorted user list. OFFSET n reads
 * n index entries, so page 5,000 would read 50,000 on every request. Every `stride`-th
 * (email, id) of a tenant's list is remembered instead; a deep page starts at the nearest
 * bookmark and skips fewer than `stride` entries. Any change to a tenant's users forgets its
 * bookmarks, in every process, through the change events (LISTEN/NOTIFY).
 */
export class EmailBookmarks {
  readonly #marks = new Map<string, Map<number, Bookmark | null>>();

  constructor(readonly stride = 1000) {}

  /** Starts forgetting on change events; returns the function that stops it. */
  static async listening(database: DatabaseHandle, stride?: number) {
    const bookmarks = new EmailBookmarks(stride);
    const stop = await database.listen(EVENTS_CHANNEL, (payload) => {
      const notice = JSON.parse(payload) as { tenantId: string; entity: string };
      if (notice.entity === 'users' || notice.entity === 'tenants')
        bookmarks.forget(notice.tenantId);
    });
    return { bookmarks, stop };
  }

  forget(tenantId: string): void {
    for (const key of this.#marks.keys()) if (key.startsWith(tenantId)) this.#marks.delete(key);
  }

  /**
   * Where an offset into the tenant's list starts: after a bookmark with a smaller offset,
   * or from the top when the offset is shallow.
   */
  async seek(
    db: Database,
    tenantId: string,
    direction: 0 | 1,
    offset: number,
  ): Promise<{ from: Bookmark | null; offset: number }> {
    const k = Math.floor(offset / this.stride);
    if (k === 0) return { from: null, offset };
    const key = `${tenantId}:${direction}`;
    let marks = this.#marks.get(key);
    if (!marks) this.#marks.set(key, (marks = new Map()));
    let mark = marks.get(k);
    if (mark === undefined) {
      const order = direction === 1 ? desc : asc;
      const [row] = await db
        .select({ email: users.email, id: users.id })
        .from(users)
        .where(eq(users.tenantId, tenantId))
        .orderBy(order(users.email), order(users.id))
        .limit(1)
        .offset(k * this.stride);
      mark = row ?? null;
      marks.set(k, mark);
    }
    // Past the end of the list: nothing to start from, the plain offset answers empty.
    return mark ? { from: mark, offset: offset - k * this.stride } : { from: null, offset };
  }
}

/** The row-wise condition that starts a page at a bookmark, served by (tenant_id, email, id). */
export function fromBookmark(mark: Bookmark, direction: 0 | 1) {
  return direction === 1
    ? sql`(${users.email}, ${users.id}) <= (${mark.email}, ${mark.id})`
    : sql`(${users.email}, ${users.id}) >= (${mark.email}, ${mark.id})`;
}
