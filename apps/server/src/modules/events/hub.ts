import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/database';
import { loggableError } from '../../http/logging';
import { EVENTS_CHANNEL } from '../audit';

/** The NOTIFY payload recordChange sends (audit/record.ts). */
export interface ChangeNotice {
  /** The order of all tenants' changes: used here, never shown to a client. */
  id: number;
  /** The id a client sees (service.ts, clientEventId). */
  publicId: string;
  tenantId: string;
  entity: string;
  action: string;
  entityId: string;
}

export type Subscriber = (notice: ChangeNotice) => void;

/**
 * One LISTEN per process, fanned out in-process to the connected clients of each tenant
 * (several processes may share one PostgreSQL; PGlite delivers NOTIFY the same way).
 * The listener starts with the first subscriber and stops when the app closes.
 */
export class EventHub {
  readonly #subscribers = new Map<string, Set<Subscriber>>();
  #listening: Promise<() => Promise<void>> | undefined;
  #closed = false;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Resolves once the process is listening, so nothing committed afterwards is missed. */
  async subscribe(tenantId: string, subscriber: Subscriber): Promise<() => void> {
    if (this.#closed) throw new Error('The event hub is closed.');
    await this.#listen();
    let set = this.#subscribers.get(tenantId);
    if (!set) this.#subscribers.set(tenantId, (set = new Set()));
    set.add(subscriber);
    return () => {
      set.delete(subscriber);
      if (set.size === 0 && this.#subscribers.get(tenantId) === set) {
        this.#subscribers.delete(tenantId);
      }
    };
  }

  /** Connected clients, for tests and diagnostics. */
  get size(): number {
    let size = 0;
    for (const set of this.#subscribers.values()) size += set.size;
    return size;
  }

  /** Whether this process hears change notices: before the first subscriber it does not yet. */
  get state(): 'idle' | 'listening' {
    return this.#listening ? 'listening' : 'idle';
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#subscribers.clear();
    const listening = this.#listening;
    this.#listening = undefined;
    const stop = await listening?.catch(() => undefined);
    await stop?.().catch(() => undefined);
  }

  #listen(): Promise<() => Promise<void>> {
    this.#listening ??= this.database
      .listen(EVENTS_CHANNEL, (payload) => this.#dispatch(payload))
      .catch((error: unknown) => {
        // Let the next subscriber try again (e.g. the pool was exhausted for a moment).
        this.#listening = undefined;
        throw error;
      });
    return this.#listening;
  }

  #dispatch(payload: string): void {
    const notice = parseNotice(payload);
    if (!notice) {
      this.log.warn({ payload: payload.slice(0, 200) }, 'ignored a malformed change notice');
      return;
    }
    for (const subscriber of this.#subscribers.get(notice.tenantId) ?? []) {
      try {
        subscriber(notice);
      } catch (error) {
        this.log.error({ err: loggableError(error) }, 'a change event subscriber failed');
      }
    }
  }
}

function parseNotice(payload: string): ChangeNotice | undefined {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { id, publicId, tenantId, entity, action, entityId } = value as Record<string, unknown>;
  const strings = [publicId, tenantId, entity, action, entityId];
  if (!Number.isSafeInteger(id) || !strings.every((s) => typeof s === 'string')) return undefined;
  return value as ChangeNotice;
}
