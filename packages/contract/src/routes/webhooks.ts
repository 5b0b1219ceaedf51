import { z } from 'zod';
import { idParamsSchema } from '../paging';
import { defineRoute } from '../route';
import {
  webhookCreateSchema,
  webhookDeliveryPageRequestSchema,
  webhookDeliveryPageResponseSchema,
  webhookDeliveryResponseSchema,
  webhookPageRequestSchema,
  webhookPageResponseSchema,
  webhookSchema,
  webhookSecretResponseSchema,
  webhookUpdateSchema,
  webhookWithSecretResponseSchema,
} from '../webhooks';
import { crudRoutes } from './crud';

const crud = crudRoutes(
  'webhooks',
  {
    row: webhookSchema,
    page: webhookPageRequestSchema,
    pageResponse: webhookPageResponseSchema,
    create: webhookCreateSchema,
    update: webhookUpdateSchema,
  },
  { read: 'webhooks:read', write: 'webhooks:write' },
);

const deliveryParamsSchema = z.object({
  id: z.uuid('id.invalid'),
  deliveryId: z.uuid('id.invalid'),
});

/**
 * The tenant's webhook endpoints and their deliveries. Create answers the signing secret beside
 * the row, rotation answers the new one; nothing else ever shows it.
 */
export const webhookRoutes = {
  ...crud,
  create: defineRoute({ ...crud.create, response: webhookWithSecretResponseSchema }),
  rotateSecret: defineRoute({
    method: 'POST',
    path: '/webhooks/:id/rotate-secret',
    params: idParamsSchema,
    response: webhookSecretResponseSchema,
    permission: 'webhooks:write',
    problems: [404],
    summary: 'Makes a new signing secret, answered once; the previous one stops signing at once',
  }),
  deliveries: defineRoute({
    method: 'POST',
    path: '/webhooks/:id/deliveries/page',
    params: idParamsSchema,
    body: webhookDeliveryPageRequestSchema,
    response: webhookDeliveryPageResponseSchema,
    permission: 'webhooks:read',
    problems: [404],
    summary: 'A page of the endpoint’s deliveries, newest first',
  }),
  resend: defineRoute({
    method: 'POST',
    path: '/webhooks/:id/deliveries/:deliveryId/resend',
    params: deliveryParamsSchema,
    response: webhookDeliveryResponseSchema,
    status: 202,
    permission: 'webhooks:write',
    problems: [404],
    summary: 'Sends a delivery again, as a new delivery of the same message (same webhook-id)',
  }),
  sendTest: defineRoute({
    method: 'POST',
    path: '/webhooks/:id/test',
    params: idParamsSchema,
    response: webhookDeliveryResponseSchema,
    status: 202,
    permission: 'webhooks:write',
    problems: [404],
    summary: 'Queues a `webhook.test` event for the endpoint, enabled or not',
  }),
};
