import type { FastifyInstance } from 'fastify';
import { settingsRoutes as routes } from '@tc/contract/routes/settings';
import type { AppContext } from '../../app-context';
import { callerOf } from '../../http/auth-guard';
import { registerRoute } from '../../http/register-route';
import { getProvisioningSettings, updateProvisioningSettings } from './provisioning';
import { getSecurityPolicy, updateSecurityPolicy } from './service';

/** The tenant's own settings: reading needs tenant:read, changing tenant:write. */
export async function settingsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerRoute(app, routes.securityPolicy, async (request) => ({
    data: await getSecurityPolicy({ db: ctx.db, caller: callerOf(request) }),
  }));

  registerRoute(app, routes.updateSecurityPolicy, async (request) => ({
    data: await updateSecurityPolicy({ db: ctx.db, caller: callerOf(request), data: request.body }),
  }));

  registerRoute(app, routes.provisioning, async (request) => ({
    data: await getProvisioningSettings({
      db: ctx.db,
      caller: callerOf(request),
      publicUrl: ctx.config.publicUrl,
    }),
  }));

  registerRoute(app, routes.updateProvisioning, async (request) => ({
    data: await updateProvisioningSettings({
      db: ctx.db,
      caller: callerOf(request),
      data: request.body,
      publicUrl: ctx.config.publicUrl,
    }),
  }));
}
