import {
  clientCreateSchema,
  clientPageRequestSchema,
  clientPageResponseSchema,
  clientSchema,
  clientSecretResponseSchema,
  clientUpdateSchema,
  clientWithSecretResponseSchema,
} from '../clients';
import { idParamsSchema } from '../paging';
import { defineRoute } from '../route';
import { crudRoutes } from './crud';

const crud = crudRoutes(
  'clients',
  {
    row: clientSchema,
    page: clientPageRequestSchema,
    pageResponse: clientPageResponseSchema,
    create: clientCreateSchema,
    update: clientUpdateSchema,
  },
  { read: 'clients:read', write: 'clients:write' },
);

/**
 * The applications (OAuth / OpenID Connect clients) of the caller's tenant. Create and update
 * answer the new secret beside the row when they made one; nothing else ever shows it.
 */
export const clientRoutes = {
  ...crud,
  create: defineRoute({ ...crud.create, response: clientWithSecretResponseSchema }),
  update: defineRoute({ ...crud.update, response: clientWithSecretResponseSchema }),
  /** 409 for a public client, which has no secret. */
  rotateSecret: defineRoute({
    method: 'POST',
    path: '/clients/:id/rotate-secret',
    params: idParamsSchema,
    response: clientSecretResponseSchema,
    permission: 'clients:write',
    problems: [404, 409],
    summary: 'Makes a new client secret, answered once; the previous one stops working',
  }),
};
