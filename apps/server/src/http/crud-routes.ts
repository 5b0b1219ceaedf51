import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { deletedSchema, idParamsSchema, type Page } from '@tc/contract/paging';
import { envelope, problemSchema } from '@tc/contract/problem';
import type { AppContext } from '../app-context';
import type { Config } from '../config';
import type { Database } from '../db/database';
import type { Caller } from '../identity/token-service';
import { AnswerCache } from '../db/data-version';
import { callerOf } from './auth-guard';

/** What a service function gets: the database, the configuration and who is asking. */
export interface ServiceContext {
  db: Database;
  config: Config;
  caller: Caller;
}

export interface CrudService<Row, PageRequest, Create, Update> {
  page(options: ServiceContext & { request: PageRequest }): Promise<Page<Row>>;
  get(options: ServiceContext & { id: string }): Promise<Row>;
  create(options: ServiceContext & { data: Create }): Promise<Row>;
  update(options: ServiceContext & { data: Update }): Promise<Row>;
  remove(options: ServiceContext & { id: string }): Promise<void>;
}

export interface CrudSpec<
  Row extends z.ZodType,
  PageRequest extends z.ZodType,
  Create extends z.ZodType,
  Update extends z.ZodType,
> {
  /** Path segment and OpenAPI tag: `users` → /users/page, /users/create, … */
  entity: string;
  read: FastifyContextConfig;
  write: FastifyContextConfig;
  /** Tenants are deleted with DELETE, everything else with POST, as the earlier client sends them. */
  deleteMethod?: 'POST' | 'DELETE';
  schemas: { row: Row; page: PageRequest; create: Create; update: Update; pageResponse: z.ZodType };
  service: CrudService<z.output<Row>, z.output<PageRequest>, z.output<Create>, z.output<Update>>;
}

const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema };

/**
 * The five routes of a managed entity (docs/api-conventions.md), for every entity alike:
 * POST page, POST create, PUT update, POST|DELETE delete/{id}, GET {id}. Handlers only
 * translate HTTP to a service call; rules live in the service.
 */
export function registerCrudRoutes<
  R extends z.ZodType,
  P extends z.ZodType,
  C extends z.ZodType,
  U extends z.ZodType,
>(app: FastifyInstance, ctx: AppContext, spec: CrudSpec<R, P, C, U>) {
  const { entity, schemas, service } = spec;
  const tags = [entity];
  const one = envelope(schemas.row);
  // Fastify has validated each part against its schema before a handler runs.
  const context = (request: FastifyRequest): ServiceContext => ({
    db: ctx.db,
    config: ctx.config,
    caller: callerOf(request),
  });
  const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;
  // Pages are asked for again and again (every screen, every live refresh); one unchanged
  // page is read from the database once. Per caller: what a page shows may depend on who asks.
  const pages = new AnswerCache<Page<z.output<R>>>(ctx.dataVersion, { maxEntries: 200 });

  app.route({
    method: 'POST',
    url: `/${entity}/page`,
    config: { ...spec.read, readOnly: true },
    schema: { tags, body: schemas.page, response: { 200: schemas.pageResponse, ...errors } },
    handler: async (request) => {
      const options = { ...context(request), request: request.body as z.output<P> };
      const { caller } = options;
      const key = `${caller.userId}:${JSON.stringify(options.request)}`;
      // A super administrator's pages show every tenant; anyone else's only their own.
      const tenantId = caller.isMaster ? undefined : caller.tenantId;
      return { data: await pages.get(key, () => service.page(options), tenantId) };
    },
  });

  app.route({
    method: 'POST',
    url: `/${entity}/create`,
    config: spec.write,
    schema: { tags, body: schemas.create, response: { 201: one, 409: problemSchema, ...errors } },
    handler: async (request, reply) => {
      const data = await service.create({ ...context(request), data: request.body as z.output<C> });
      return reply.code(201).send({ data });
    },
  });

  app.route({
    method: 'PUT',
    url: `/${entity}/update`,
    config: spec.write,
    schema: { tags, body: schemas.update, response: { 200: one, 409: problemSchema, ...errors } },
    handler: async (request) => ({
      data: await service.update({ ...context(request), data: request.body as z.output<U> }),
    }),
  });

  app.route({
    method: spec.deleteMethod ?? 'POST',
    url: `/${entity}/delete/:id`,
    config: spec.write,
    schema: {
      tags,
      params: idParamsSchema,
      response: { 200: deletedSchema, 409: problemSchema, ...errors },
    },
    handler: async (request) => {
      await service.remove({ ...context(request), id: idOf(request) });
      return { data: { id: idOf(request) } };
    },
  });

  app.route({
    method: 'GET',
    url: `/${entity}/:id`,
    config: spec.read,
    schema: { tags, params: idParamsSchema, response: { 200: one, ...errors } },
    handler: async (request) => ({
      data: await service.get({ ...context(request), id: idOf(request) }),
    }),
  });
}
