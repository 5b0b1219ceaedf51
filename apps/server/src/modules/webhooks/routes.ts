import type { FastifyInstance } from 'fastify';
import { webhookRoutes as routes } from '@tc/contract/routes/webhooks';
import type { AppContext } from '../../app-context';
import { callerOf } from '../../http/auth-guard';
import { registerRoute } from '../../http/register-route';
import { pageDeliveries, pageWebhooks, findWebhook } from './queries';
import {
  createWebhook,
  removeWebhook,
  resendDelivery,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhook,
} from './service';

/**
 * The tenant's webhook endpoints (the five routes of a managed entity), the rotation of an
 * endpoint's signing secret, its delivery log, a resend and a test event.
 */
export async function webhooksRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const base = (request: Parameters<typeof callerOf>[0]) => ({
    db: ctx.db,
    config: ctx.config,
    caller: callerOf(request),
    secrets: ctx.mfaSecrets,
  });

  registerRoute(app, routes.page, async (request) => ({
    data: await pageWebhooks(ctx.db, callerOf(request).tenantId, request.body),
  }));
  registerRoute(app, routes.get, async (request) => ({
    data: await findWebhook(ctx.db, callerOf(request).tenantId, request.params.id),
  }));
  registerRoute(app, routes.create, async (request) => ({
    data: await createWebhook({ ...base(request), data: request.body }),
  }));
  registerRoute(app, routes.update, async (request) => ({
    data: await updateWebhook({ ...base(request), data: request.body }),
  }));
  registerRoute(app, routes.remove, async (request) => {
    await removeWebhook({ ...base(request), id: request.params.id });
    return { data: { id: request.params.id } };
  });
  registerRoute(app, routes.rotateSecret, async (request) => ({
    data: await rotateWebhookSecret({ ...base(request), id: request.params.id }),
  }));
  registerRoute(app, routes.deliveries, async (request) => {
    const tenantId = callerOf(request).tenantId;
    await findWebhook(ctx.db, tenantId, request.params.id);
    return { data: await pageDeliveries(ctx.db, tenantId, request.params.id, request.body) };
  });
  registerRoute(app, routes.resend, async (request) => ({
    data: await resendDelivery({ ...base(request), ...request.params }),
  }));
  registerRoute(app, routes.sendTest, async (request) => ({
    data: await sendTestEvent({ ...base(request), id: request.params.id }),
  }));
}
