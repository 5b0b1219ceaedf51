import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ASSISTANT_ERROR_MESSAGE, chatRequestSchema, type ChatChunk } from '@tc/contract/assistant';
import { problemSchema } from '@tc/contract/problem';
import { assistantRoutes as routes } from '@tc/contract/routes/assistant';
import type { AppContext } from '../../app-context';
import { callerOf } from '../../http/auth-guard';
import { registerRoute } from '../../http/register-route';
import { rateLimitStore } from '../../http/hit-counter';
import { loggableError } from '../../http/logging';
import { AppError } from '../../http/problem';
import { ProviderError } from './provider';
import { answerChat, isConfigured, providerSettings } from './service';
import { startEventStream } from '../../http/event-stream';

/**
 * `GET /assistant` (is it configured?) and `POST /assistant/chat`: the server
 * calls the provider, so the key never reaches the browser, and streams the answer as
 * server-sent events (chunk format: @tc/contract/assistant).
 */
export async function assistantRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  // Per signed-in user, not per address: colleagues behind one NAT do not share a budget.
  // After validation (preHandler), so a rejected empty message does not count.
  await app.register(rateLimit, {
    global: false,
    hook: 'preHandler',
    // Counted in the database (or Redis), so several server processes share one budget.
    store: rateLimitStore(ctx.limits),
    keyGenerator: (request) => request.caller?.userId ?? request.ip,
    errorResponseBuilder: (_request, context) =>
      new AppError(429, 'assistant.too_many_messages', {
        count: Math.max(1, Math.ceil(context.ttl / 1000)),
      }),
  });
  // Answers in progress end when the server closes instead of holding it open.
  const running = new Set<AbortController>();
  app.addHook('preClose', async () => {
    for (const controller of running) controller.abort();
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  registerRoute(app, routes.status, async () => ({
    data: { configured: isConfigured(ctx.config) },
  }));

  // The chat streams server-sent events, not a JSON answer: registered by hand.
  r.post(
    '/assistant/chat',
    {
      config: { rateLimit: { max: ctx.config.assistant.rateLimit, timeWindow: 60_000 } },
      schema: {
        tags: ['assistant'],
        summary: "Answers a question about the caller's tenant, streamed (text/event-stream)",
        description:
          'Each event\'s `data:` is JSON: `{"delta":"…"}` pieces of the answer, then ' +
          '`{"done":true}`; on a provider failure `event: error` with ' +
          `\`{"error":"${ASSISTANT_ERROR_MESSAGE}"}\`.`,
        body: chatRequestSchema,
        response: {
          400: problemSchema,
          401: problemSchema,
          403: problemSchema,
          429: problemSchema,
          503: problemSchema,
        },
      },
    },
    async (request, reply) => {
      providerSettings(ctx.config);
      const caller = callerOf(request);
      const log = request.log.child({ module: 'assistant' });
      const controller = new AbortController();
      running.add(controller);
      reply.raw.once('close', () => controller.abort());
      // A provider that has not finished the answer by then has failed, also one that never
      // sent its headers: aborting the fetch closes our connection to it.
      const { timeoutSeconds } = ctx.config.assistant;
      const timeout = AbortSignal.timeout(timeoutSeconds * 1000);
      const signal = AbortSignal.any([controller.signal, timeout]);
      const stream = new ChunkStream(reply);
      stream.start();
      try {
        await answerChat(
          {
            db: ctx.db,
            config: ctx.config,
            caller,
            log,
          },
          request.body.messages,
          (delta) => stream.send({ delta }),
          signal,
        );
        stream.send({ done: true });
      } catch (error) {
        if (!controller.signal.aborted) {
          // The cause goes to the log, field by field (a failed query's message holds its
          // parameters; the provider's words have the key masked); the user sees fixed words.
          if (timeout.aborted)
            log.warn(`assistant provider did not finish the answer within ${timeoutSeconds} s`);
          else if (error instanceof ProviderError)
            log.warn(`assistant provider failed: ${error.message}`);
          else log.error({ err: loggableError(error) }, 'assistant failed');
          stream.send({ error: ASSISTANT_ERROR_MESSAGE }, 'error');
        }
      } finally {
        running.delete(controller);
        stream.end();
      }
      return reply;
    },
  );
}

/** The answer as server-sent events, written as it is generated. */
class ChunkStream {
  constructor(private readonly reply: FastifyReply) {}

  start(): void {
    const { reply } = this;
    startEventStream(reply);
    // Sent at once, so the browser knows the request was accepted before the first word.
    reply.raw.write(': ok\n\n');
  }

  send(chunk: ChatChunk, event?: string): void {
    const raw = this.reply.raw;
    if (raw.writableEnded || raw.destroyed) return;
    raw.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(chunk)}\n\n`);
  }

  end(): void {
    if (!this.reply.raw.writableEnded) this.reply.raw.end();
  }
}
