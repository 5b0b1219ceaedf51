import type { Database } from '../../db/database';
import { unauthorized } from '../../http/problem';
import type { Caller, TokenService } from '../../identity/token-service';
import type { ChangeNotice } from './hub';
import { eventsAfter, findEventPosition, newestEventPublicId } from './queries';

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

/** The tenant's newest event as a resume point. */
export async function newestOf(db: Database, tenantId: string): Promise<string> {
  const publicId = await newestEventPublicId(db, tenantId);
  return publicId ? clientEventId(publicId) : BEFORE_FIRST_EVENT;
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
    const last = publicId ? await findEventPosition(db, tenantId, publicId) : undefined;
    if (last === undefined) return { kind: 'reload', id: await newestOf(db, tenantId) };
    after = last;
  }
  const notices = await eventsAfter(db, tenantId, after, REPLAY_LIMIT + 1);
  if (notices.length > REPLAY_LIMIT) return { kind: 'reload', id: await newestOf(db, tenantId) };
  return { kind: 'replay', notices };
}

/**
 * The caller a stream is for: it sees its own tenant's changes only, and only with a valid
 * access token.
 */
export async function authenticateStreamCaller(
  tokens: TokenService,
  token: string | undefined,
): Promise<Caller> {
  const caller = token ? await tokens.authenticate(token) : undefined;
  if (!caller) throw unauthorized('auth.session_invalid');
  return caller;
}

/**
 * An open stream outlives its access token; checked again on every heartbeat, so a signed-out
 * or disabled user stops receiving changes. The client reconnects with a fresh token.
 */
export async function stillMayReceive(
  tokens: TokenService,
  token: string,
  caller: Caller,
): Promise<boolean> {
  const again = await tokens.authenticate(token).catch(() => undefined);
  return again?.tenantId === caller.tenantId;
}
