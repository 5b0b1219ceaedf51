import type { FastifyReply } from 'fastify';

/**
 * Takes over a reply to write server-sent events (text/event-stream) as they come. Headers
 * set so far (helmet's security headers, the rate limit's) are kept; hijack bypasses
 * Fastify's serialisation, so the caller writes `reply.raw` and ends it.
 */
export function startEventStream(reply: FastifyReply): void {
  reply.hijack();
  const headers = Object.entries(reply.getHeaders()).filter(([, value]) => value !== undefined);
  reply.raw.writeHead(200, {
    ...(Object.fromEntries(headers) as Record<string, string | number | string[]>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // Proxies such as nginx would otherwise hold the events back in a buffer.
    'x-accel-buffering': 'no',
  });
}
