import type { FastifyInstance, FastifyRequest } from 'fastify';
import { idParamsSchema } from '@tc/contract/paging';
import { problemSchema } from '@tc/contract/problem';
import { projectResponseSchema } from '@tc/contract/projects';
import { projectRoutes } from '@tc/contract/routes/projects';
import type { AppContext } from '../../app-context';
import { callerOf } from '../../http/auth-guard';
import { registerCrudRoutes } from '../../http/crud-routes';
import { acceptImageBodies } from '../../http/image-body';
import { AppError } from '../../http/problem';
import { setProjectLogo } from './logo';
import { projectsService } from './service';

const write = { permission: 'projects:write' };
const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema };

/** Projects: the five routes of a managed entity (docs/api-conventions.md) plus the logo upload. */
export async function projectsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  acceptImageBodies(app);
  // The logo routes below stay hand-registered: their body is raw image bytes, not JSON.

  registerCrudRoutes(app, ctx, { routes: projectRoutes, service: projectsService });

  const logo = (request: FastifyRequest, bytes: Buffer | null) =>
    setProjectLogo({
      db: ctx.db,
      config: ctx.config,
      caller: callerOf(request),
      id: (request.params as { id: string }).id,
      bytes,
    });

  app.route({
    method: 'PUT',
    url: '/projects/:id/logo',
    config: write,
    schema: {
      tags: ['projects'],
      summary: 'Upload the project logo as the raw image body (PNG, JPEG, WebP or GIF, 2 MB)',
      params: idParamsSchema,
      response: { 200: projectResponseSchema, 413: problemSchema, 415: problemSchema, ...errors },
    },
    handler: async (request) => {
      if (!Buffer.isBuffer(request.body) || request.body.length === 0) {
        throw new AppError(415, 'image.unsupported_body');
      }
      return { data: await logo(request, request.body) };
    },
  });

  app.route({
    method: 'DELETE',
    url: '/projects/:id/logo',
    config: write,
    schema: {
      tags: ['projects'],
      summary: 'Remove the project logo',
      params: idParamsSchema,
      response: { 200: projectResponseSchema, ...errors },
    },
    handler: async (request) => ({ data: await logo(request, null) }),
  });
}
