import type { z } from 'zod';
import { deletedSchema, idParamsSchema } from '../paging';
import { envelope } from '../problem';
import { defineRoute, type RoutePermission } from '../route';

export interface CrudSchemas<
  Row extends z.ZodType,
  PageRequest extends z.ZodType,
  PageResponse extends z.ZodType,
  Create extends z.ZodType,
  Update extends z.ZodType,
> {
  row: Row;
  page: PageRequest;
  pageResponse: PageResponse;
  create: Create;
  update: Update;
}

/**
 * The five routes of a managed entity, alike for every entity: POST page, POST create,
 * PUT update, POST|DELETE delete/:id, GET :id. `entity` is the path segment, the same name
 * as in change events and the console's query keys.
 */
export function crudRoutes<
  const Entity extends string,
  Row extends z.ZodType,
  PageRequest extends z.ZodType,
  PageResponse extends z.ZodType,
  Create extends z.ZodType,
  Update extends z.ZodType,
>(
  entity: Entity,
  schemas: CrudSchemas<Row, PageRequest, PageResponse, Create, Update>,
  permissions: { read: RoutePermission; write: RoutePermission },
  // Tenants are deleted with DELETE, every other entity with POST.
  deleteMethod: 'POST' | 'DELETE' = 'POST',
) {
  const one = envelope(schemas.row);
  const { read, write } = permissions;
  return {
    page: defineRoute({
      method: 'POST',
      path: `/${entity}/page`,
      body: schemas.page,
      response: schemas.pageResponse,
      permission: read,
      problems: [404],
    }),
    create: defineRoute({
      method: 'POST',
      path: `/${entity}/create`,
      body: schemas.create,
      response: one,
      status: 201,
      permission: write,
      problems: [404, 409],
    }),
    update: defineRoute({
      method: 'PUT',
      path: `/${entity}/update`,
      body: schemas.update,
      response: one,
      permission: write,
      problems: [404, 409],
    }),
    remove: defineRoute({
      method: deleteMethod,
      path: `/${entity}/delete/:id`,
      params: idParamsSchema,
      response: deletedSchema,
      permission: write,
      problems: [404, 409],
    }),
    get: defineRoute({
      method: 'GET',
      path: `/${entity}/:id`,
      params: idParamsSchema,
      response: one,
      permission: read,
      problems: [404],
    }),
  };
}

/** The route table of one managed entity, whichever it is. */
export type CrudRoutes = ReturnType<
  typeof crudRoutes<
    string,
    z.ZodType,
    z.ZodType,
    z.ZodType<{ data: unknown }>,
    z.ZodType,
    z.ZodType
  >
>;
