import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eventsQuerySchema, RELOAD_EVENT, type ChangeEvent } from '@tc/contract/events';
import { problemSchema } from '@tc/contract/problem';
import type { AppContext } from '../../app-context';
import { loggableError } from '../../http/logging';
import { AppError } from '../../http/problem';
import type { ChangeNotice, EventHub, Subscriber } from './hub';
import {
  authenticateStreamCaller,
  catchUp,
  clientEventId,
  newestOf,
  stillMayReceive,
  type CatchUp,
} from './service';
import { startEventStream } from '../../http/event-stream';

/** Proxies drop idle connections after 30–60 s; a comment line keeps them open. */
export const HEARTBEAT_MS = 20_000;
/** How long EventSource waits before it reconnects (WHATWG HTML, server-sent events). */
const RETRY_MS = 3_000;
/** A client this far behind is cut off; it reconnects with Last-Event-ID and catches up. */
const MAX_PENDING_BYTES = 1024 * 1024;

/**
 * `GET /events`: the caller's tenant's changes as server-sent events, so open
 * consoles refresh live. EventSource cannot send an Authorization header, so the access token
 * may come as `?access_token=`; this route therefore authenticates itself.
 */
export async function eventsRoutes(
  app: FastifyInstance,
  { ctx, hub }: { ctx: AppContext; hub: EventHub },
) {
  const open = new Set<FastifyReply['raw']>();
  // Streams never end by themselves: end them first, or closing the server would wait forever.
  // The last line asks EventSource to come back after a spread-out wait, so the clients of a
  // stopping process reconnect to the others in the fleet over a few seconds, not all at once.
  app.addHook('preClose', async () => {
    for (const raw of open) {
      if (!raw.writableEnded && !raw.destroyed) {
        raw.end(`retry: ${RETRY_MS + Math.floor(Math.random() * RETRY_MS)}\n\n`);
      }
    }
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/events',
    {
      config: { public: true, anyRealm: true },
      schema: {
        tags: ['events'],
        summary: "The caller's tenant's changes, live (text/event-stream)",
        description:
          'Each change: `id:` an opaque event id, `data: {"entity","action","id"}`. ' +
          '`event: reload` when missed changes cannot be replayed. Resume with the ' +
          'Last-Event-ID header or `lastEventId`; the token may be sent as `access_token`.',
        querystring: eventsQuerySchema,
        response: { 401: problemSchema, 503: problemSchema },
      },
    },
    async (request, reply) => {
      const token = bearerToken(request.headers.authorization) ?? request.query.access_token;
      const caller = await authenticateStreamCaller(ctx.tokens, token);
      const lastEventId =
        headerValue(request.headers['last-event-id']) ?? request.query.lastEventId;

      const stream = new ChangeStream(reply, () => newestOf(ctx.db, caller.tenantId));
      const unsubscribe = await hub.subscribe(caller.tenantId, stream).catch((error: unknown) => {
        request.log.error({ err: loggableError(error) }, 'cannot listen for change events');
        throw new AppError(503, 'service.live_updates_unavailable');
      });
      const heartbeat = setInterval(() => {
        stream.write(': ping\n\n');
        void stillMayReceive(ctx.tokens, token!, caller).then((valid) => valid || reply.raw.end());
      }, HEARTBEAT_MS);
      const cleanUp = () => {
        clearInterval(heartbeat);
        unsubscribe();
        open.delete(reply.raw);
      };
      // The client may have gone while we authenticated; then 'close' has already fired.
      if (request.raw.socket.destroyed) {
        cleanUp();
        return reply.hijack();
      }
      reply.raw.once('close', cleanUp);
      open.add(reply.raw);
      stream.start();
      try {
        stream.catchUp(await catchUp(ctx.db, caller.tenantId, lastEventId));
      } catch (error) {
        request.log.error({ err: loggableError(error) }, 'cannot replay change events');
        reply.raw.end();
      }
      return reply;
    },
  );
}

/**
 * One client's stream. Changes that arrive while the missed ones are being read are held
 * back, then sent after them (those already replayed are skipped), so the order holds.
 */
class ChangeStream implements Subscriber {
  #held: ChangeNotice[] | undefined = [];

  constructor(
    private readonly reply: FastifyReply,
    /** The tenant's newest event id, the resume point a reload moves the client to. */
    private readonly newestId: () => Promise<string>,
  ) {}

  start(): void {
    startEventStream(this.reply);
    this.write(`retry: ${RETRY_MS}\n\n`);
  }

  change(notice: ChangeNotice): void {
    if (this.#held) this.#held.push(notice);
    else this.write(changeMessage(notice));
  }

  /**
   * The hub listens again after losing its connection: changes may have been missed. Written
   * as a catch-up's reload is; changes that arrive meanwhile are held back and follow it.
   */
  reload(): void {
    const holding = this.#held !== undefined;
    if (!holding) this.#held = [];
    this.newestId().then(
      (id) => {
        this.write(reloadMessage(id));
        if (!holding) this.#release(new Set());
      },
      // The client reconnects with its Last-Event-ID and catches up there.
      () => this.reply.raw.end(),
    );
  }

  catchUp(result: CatchUp): void {
    const replayed = new Set<number>();
    if (result.kind === 'replay') {
      for (const notice of result.notices) {
        replayed.add(notice.id);
        this.write(changeMessage(notice));
      }
    } else if (result.kind === 'reload') {
      this.write(reloadMessage(result.id));
    } else {
      // An id without data is not dispatched but sets the resume point (WHATWG HTML 9.2.6).
      this.write(`id: ${result.id}\n\n`);
    }
    this.#release(replayed);
  }

  /** Sends the changes held back, except those already sent. */
  #release(sent: Set<number>): void {
    const held = this.#held ?? [];
    this.#held = undefined;
    for (const notice of held) if (!sent.has(notice.id)) this.write(changeMessage(notice));
  }

  write(text: string): void {
    const raw = this.reply.raw;
    if (raw.writableEnded || raw.destroyed) return;
    raw.write(text);
    if (raw.writableLength > MAX_PENDING_BYTES) raw.destroy();
  }
}

/** The id moves the client's resume point past the gap, so it does not reload again. */
function reloadMessage(id: string): string {
  return `event: ${RELOAD_EVENT}\nid: ${id}\ndata: {}\n\n`;
}

function changeMessage(notice: ChangeNotice): string {
  const data: ChangeEvent = {
    entity: notice.entity,
    action: notice.action as ChangeEvent['action'],
    id: notice.entityId,
  };
  return `id: ${clientEventId(notice.publicId)}\ndata: ${JSON.stringify(data)}\n\n`;
}

function bearerToken(header: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
