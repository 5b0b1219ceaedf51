import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Page } from '@tc/contract/paging';
import type { RouteBody, RouteResult, RouteSpec } from '@tc/contract/route';
import type { AppContext } from '../app-context';
import type { Config } from '../config';
import type { Database } from '../db/database';
import type { Caller } from '../identity/token-service';
import { sharedReads } from '../db/batched-reads';
import { callerOf } from './auth-guard';
import { registerRoute, type RouteRequest } from './register-route';

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

/** An entity's five routes from the contract (crudRoutes) and the service that answers them. */
export interface CrudSpec<T extends CrudRouteTable> {
  routes: T;
  service: CrudService<
    DataOf<RouteResult<T['get']>>,
    RouteBody<T['page']>,
    RouteBody<T['create']>,
    RouteBody<T['update']>
  >;
}

type DataOf<Answer> = Answer extends { data: infer Data } ? Data : never;
type CrudRouteTable = Record<'page' | 'create' | 'update' | 'remove' | 'get', RouteSpec>;

/**
 * Registers the five routes of a managed entity from its contract table. Handlers only
 * translate HTTP to a service call; rules live in the service.
 */
export function registerCrudRoutes<T extends CrudRouteTable>(
  app: FastifyInstance,
  ctx: AppContext,
  { routes, service }: CrudSpec<T>,
) {
  // Fastify has validated each part against its schema before a handler runs.
  const context = (request: FastifyRequest | RouteRequest<RouteSpec>): ServiceContext => ({
    db: ctx.db,
    config: ctx.config,
    caller: callerOf(request as FastifyRequest),
  });
  const idOf = (request: { params: unknown }) => (request.params as { id: string }).id;
  // A page shows its tenant's rows whoever of the tenant asks (the guard has checked that they
  // may); a super administrator's pages show every tenant. After a change event every open
  // console of the tenant asks for the same page at once: equal requests of one turn of the
  // event loop are answered by one reading, made after all of them arrived (batched-reads.ts).
  type PageOptions = ServiceContext & { request: RouteBody<T['page']> };
  const asked = new Map<string, PageOptions>();
  const pages = sharedReads((key: string) => {
    const options = asked.get(key)!;
    asked.delete(key);
    return service.page(options);
  });

  registerRoute(app, routes.page, async (request) => {
    const options = { ...context(request), request: request.body as RouteBody<T['page']> };
    const { caller } = options;
    const key = `${caller.isMaster ? '' : caller.tenantId}\n${JSON.stringify(options.request)}`;
    if (!asked.has(key)) asked.set(key, options);
    return { data: await pages(key) };
  });

  registerRoute(app, routes.create, async (request) => ({
    data: await service.create({
      ...context(request),
      data: request.body as RouteBody<T['create']>,
    }),
  }));

  registerRoute(app, routes.update, async (request) => ({
    data: await service.update({
      ...context(request),
      data: request.body as RouteBody<T['update']>,
    }),
  }));

  registerRoute(app, routes.remove, async (request) => {
    await service.remove({ ...context(request), id: idOf(request) });
    return { data: { id: idOf(request) } };
  });

  registerRoute(app, routes.get, async (request) => ({
    data: await service.get({ ...context(request), id: idOf(request) }),
  }));
}
