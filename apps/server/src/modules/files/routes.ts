import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { problemSchema } from '@tc/contract/problem';
import { singleLineText } from '@tc/contract/text';
import type { AppContext } from '../../app-context';
import { notFound } from '../../http/problem';
import { readFile } from './queries';
import { isUuid } from '@tc/contract/text';

/**
 * Stored files by id, without a token so that an <img> can load them: the id is unguessable
 * and a file never changes, so it may be cached for a year (RFC 8246 `immutable`).
 */
export async function filesRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  // No type provider here: the answer is raw bytes or a 304, not a schema'd JSON body.
  app.get<{ Params: { id: string } }>(
    '/files/:id',
    {
      config: { public: true },
      schema: {
        tags: ['files'],
        summary: 'A stored image (tenant or project logo)',
        params: z.object({ id: singleLineText() }),
        response: { 404: problemSchema },
      },
    },
    async (request, reply) => {
      const file = isUuid(request.params.id)
        ? await readFile(ctx.db, request.params.id)
        : undefined;
      if (!file) throw notFound('file.not_found');
      const etag = `"${file.sha256}"`;
      reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply.type(file.contentType).send(file.content);
    },
  );
}
