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

/** One connected client. */
export interface Subscriber {
  /** A change of its tenant, as it was committed. */
  change(notice: ChangeNotice): void;
  /** The listener was away: changes may have been missed, so the client must reload. */
  reload(): void;
}

export type HubState = 'idle' | 'listening' | 'reconnecting';

/** Back-off between attempts to listen again: doubling from the first to the last, jittered. */
const RETRY_FIRST_MS = 250;
const RETRY_MOST_MS = 15_000;

/**
 * One LISTEN per process, fanned out in-process to the connected clients of each tenant
 * (several processes may share one PostgreSQL; PGlite delivers NOTIFY the same way).
 * The listener starts with the first subscriber and stops when the app closes. When its
 * connection is lost (a database restart, a terminated backend), the hub listens again with
 * back-off and then tells every client to reload, since notices sent meanwhile are gone.
 */
export class EventHub {
  readonly #subscribers = new Map<string, Set<Subscriber>>();
  #listening: Promise<() => Promise<void>> | undefined;
  #reconnecting = false;
  #retryTimer: NodeJS.Timeout | undefined;
  /** Tells the current listener from a lost one, whose late signals are ignored. */
  #generation = 0;
  #closed = false;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Resolves once the process is listening, so nothing committed afterwards is missed.
   * While the hub reconnects it resolves at once instead: the subscriber joins the others
   * that wait for the listener and gets a reload when it is back, which covers whatever was
   * committed meanwhile. Waiting instead would hold the request for up to the back-off;
   * refusing it would send every console into its own retry loop during an outage that the
   * reload already covers.
   */
  async subscribe(tenantId: string, subscriber: Subscriber): Promise<() => void> {
    if (this.#closed) throw new Error('The event hub is closed.');
    if (!this.#reconnecting) await this.#listen();
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

  /**
   * Whether this process hears change notices: not yet before the first subscriber, and not
   * while it reconnects after losing its listening connection.
   */
  get state(): HubState {
    if (this.#reconnecting) return 'reconnecting';
    return this.#listening ? 'listening' : 'idle';
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#reconnecting = false;
    clearTimeout(this.#retryTimer);
    this.#subscribers.clear();
    const listening = this.#listening;
    this.#listening = undefined;
    const stop = await listening?.catch(() => undefined);
    await stop?.().catch(() => undefined);
  }

  #listen(): Promise<() => Promise<void>> {
    if (!this.#listening) {
      const generation = ++this.#generation;
      this.#listening = this.database
        .listen(
          EVENTS_CHANNEL,
          (payload) => this.#dispatch(payload),
          () => this.#lost(generation),
        )
        .catch((error: unknown) => {
          // Let the next subscriber try again (e.g. the pool was exhausted for a moment).
          if (this.#generation === generation) this.#listening = undefined;
          throw error;
        });
    }
    return this.#listening;
  }

  #lost(generation: number): void {
    if (this.#closed || generation !== this.#generation) return;
    // This listener is done: its later signals are ignored, and an attempt under way sees it.
    this.#generation++;
    // The lost client goes back to the pool, which discards it since it is broken.
    const lost = this.#listening;
    this.#listening = undefined;
    void lost?.then((stop) => stop()).catch(() => undefined);
    if (this.#reconnecting) return;
    this.log.warn('lost the connection that listens for change notices; reconnecting');
    this.#reconnecting = true;
    this.#retry(0);
  }

  #retry(attempt: number): void {
    if (this.#closed) return;
    const ceiling = Math.min(RETRY_MOST_MS, RETRY_FIRST_MS * 2 ** attempt);
    // Half fixed, half random: processes that lost the database together do not return together.
    const delay = ceiling / 2 + Math.random() * (ceiling / 2);
    this.#retryTimer = setTimeout(() => void this.#reconnect(attempt), delay);
    this.#retryTimer.unref();
  }

  async #reconnect(attempt: number): Promise<void> {
    if (this.#closed) return;
    // #listen starts the next generation; a loss while it connects moves past it.
    const generation = this.#generation + 1;
    try {
      await this.#listen();
      if (this.#generation !== generation) throw new Error('the new connection was lost at once');
    } catch (error) {
      this.log.warn(
        { err: loggableError(error), attempt: attempt + 1 },
        'cannot listen for change notices yet; trying again',
      );
      this.#retry(attempt + 1);
      return;
    }
    if (this.#closed) return;
    this.#reconnecting = false;
    this.log.info(
      { attempts: attempt + 1, clients: this.size },
      'listening for change notices again; connected clients reload',
    );
    for (const set of this.#subscribers.values()) {
      for (const subscriber of [...set]) this.#tell(() => subscriber.reload());
    }
  }

  #dispatch(payload: string): void {
    const notice = parseNotice(payload);
    if (!notice) {
      this.log.warn({ payload: payload.slice(0, 200) }, 'ignored a malformed change notice');
      return;
    }
    for (const subscriber of this.#subscribers.get(notice.tenantId) ?? []) {
      this.#tell(() => subscriber.change(notice));
    }
  }

  #tell(call: () => void): void {
    try {
      call();
    } catch (error) {
      this.log.error({ err: loggableError(error) }, 'a change event subscriber failed');
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
