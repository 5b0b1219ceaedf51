import { z } from 'zod';
import { API_BASE_PATH } from './route';
import { singleLineText } from './text';

/**
 * Live change events, `GET /api/v1.0/events` (server-sent events), so open consoles refresh.
 *
 * - A change arrives as an unnamed (`message`) event: `id:` is an opaque event id (random, so
 *   it tells nothing of other tenants' changes; resume from it, never compare it), `data:` is
 *   a {@link ChangeEvent} naming the entity, the action and the entity's id.
 * - `event: reload` means the server cannot tell what was missed (the gap is too large or
 *   older than what is kept): refetch everything shown.
 * - EventSource cannot send an Authorization header, so the access token may be passed as
 *   `?access_token=`. When the token expires the server ends the stream and a reconnect with
 *   the same URL answers 401: open a new EventSource with a fresh token and
 *   `?lastEventId=<last id seen>` to resume without losing changes.
 */
export const EVENTS_PATH = `${API_BASE_PATH}/events`;
export const RELOAD_EVENT = 'reload';

export const changeEventSchema = z
  .object({
    entity: z.string(),
    action: z.enum(['create', 'update', 'delete']),
    id: z.string(),
  })
  .meta({ id: 'ChangeEvent' });
export type ChangeEvent = z.infer<typeof changeEventSchema>;

export const eventsQuerySchema = z.object({
  access_token: singleLineText().max(8192).optional(),
  lastEventId: singleLineText().max(32).optional(),
});
export type EventsQuery = z.infer<typeof eventsQuerySchema>;
