import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { API_BASE_PATH } from '@tc/contract/route';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { AppContext } from './app-context';
import type { Config } from './config';
import type { DatabaseHandle } from './db/database';
import { registerAuthGuard } from './http/auth-guard';
import { registerDocs } from './http/docs';
import { answerFrameworkError } from './http/framework-errors';
import { healthRoutes } from './http/health';
import { echoRequestId, loggerOptions, requestIdOf } from './http/logging';
import { registerProblemHandlers } from './http/problem';
import { registerSecurityHeaders } from './http/security';
import { serializerFromSchema } from './http/serialization';
import { findWebDist, registerStaticWeb } from './http/static-web';
import { createProviderRegistry } from './identity/openid/registry';
import { realmRoutes } from './identity/routes';
import { SecretBox } from './identity/second-factor/secret-box';
import { SigningKeys } from './identity/signing-keys';
import { sharedRealmLookup } from './identity/realms';
import { createTokenService } from './identity/token-service';
import { databaseHitCounter, redisHitCounter } from './http/hit-counter';
import { clientSecretGuard } from './identity/openid/client-secret';
import { createMailService } from './mail/worker';
import { takeQueuedHint } from './webhooks/outbox';
import { createWebhookWorker, type WebhookWorkerTuning } from './webhooks/worker';
import { registerMetrics } from './http/metrics';
import { EventHub } from './modules/events';
import { createRetentionJob } from './modules/retention';
import { accountRoutes } from './modules/auth';
import { accountPageRoutes } from './modules/account';
import { createGoogleSignIn, googleRoutes } from './modules/auth';
import { authRoutes } from './modules/auth';
import { tenantRoutes } from './modules/tenants';
import { usersRoutes } from './modules/users';
import { rolesRoutes } from './modules/roles';
import { permissionsRoutes } from './modules/permissions';
import { projectsRoutes } from './modules/projects';
import { clientsRoutes } from './modules/clients';
import { auditRoutes } from './modules/audit';
import { mailQueueRoutes } from './modules/mail-queue';
import { eventsRoutes } from './modules/events';
import { filesRoutes } from './modules/files';
import { dashboardRoutes } from './modules/dashboard';
import { onboardingRoutes } from './modules/onboarding';
import { assistantRoutes } from './modules/assistant';
import { settingsRoutes } from './modules/settings';
import { scimRoutes } from './modules/scim';
import { webhooksRoutes } from './modules/webhooks';
import { userImportRoutes } from './modules/user-import';
import { csvExportRoutes } from './modules/csv-export';
import { authPageRoutes } from './modules/auth-pages';

export interface BuildAppOptions {
  config: Config;
  database: DatabaseHandle;
  /** Where log lines go instead of standard output (tests capture them here). */
  logStream?: NodeJS.WritableStream;
  /** Told of every route as it is added (tests derive the route table from it). */
  onRoute?: (route: RouteOptions) => void;
  /** The webhook worker's poll, concurrency and retry window (tests shorten them). */
  webhookWorker?: WebhookWorkerTuning;
  /** The built web console; defaults to the one beside the server (tests give a fake one). */
  webDist?: string | null;
}

/** Builds the whole server in an explicit order; main.ts only listens, tests build it too. */
export async function buildApp({
  config,
  database,
  logStream,
  onRoute,
  webhookWorker,
  webDist = findWebDist(),
}: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config, logStream),
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy,
    // Request ids for log correlation; the body of an error never carries internals.
    requestIdHeader: false,
    genReqId: requestIdOf,
    // A URL refused before routing (a broken escape) gets problem+json or the OAuth shape;
    // any path parameter Node lets through (16 KB of headers) reaches its route's schema.
    frameworkErrors: answerFrameworkError,
    routerOptions: { maxParamLength: 16 * 1024 },
  });
  if (onRoute) app.addHook('onRoute', onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerFromSchema);
  registerProblemHandlers(app);
  echoRequestId(app);
  await registerSecurityHeaders(app, config);
  await app.register(formbody);
  await registerDocs(app, config.publicUrl);

  const keys = await SigningKeys.open(database.db);
  const limits = config.redis.url
    ? redisHitCounter(config.redis.url, config.redis.keyPrefix)
    : databaseHitCounter(database.db);
  app.addHook('onClose', () => limits.close());
  const findRealm = sharedRealmLookup(database.db);
  const mfaSecrets = await SecretBox.open(config);
  const clientSecrets = clientSecretGuard(limits, config.tokenRateLimit.wrongClientSecrets);
  const ctx: AppContext = {
    limits,
    mfaSecrets,
    config,
    database,
    db: database.db,
    keys,
    tokens: createTokenService({
      db: database.db,
      keys,
      config,
      findRealm,
      mfaSecrets,
      clientSecrets,
    }),
    mail: createMailService({
      database,
      config,
      log: app.log.child({ module: 'mail' }),
    }),
  };
  // One LISTEN per process for the event streams; metrics read its state.
  const events = new EventHub(database, app.log.child({ module: 'events' }));
  // The worker runs while the app does; onClose waits for a message being sent.
  app.addHook('onReady', () => ctx.mail.start());
  app.addHook('onClose', () => ctx.mail.stop());
  const webhooks = createWebhookWorker({
    db: database.db,
    secrets: mfaSecrets,
    allowPrivate: config.webhooks.allowPrivate,
    log: app.log.child({ module: 'webhooks' }),
    tuning: webhookWorker,
  });
  app.addHook('onReady', () => webhooks.start());
  app.addHook('onClose', () => webhooks.stop());
  // Deliveries queued by a request leave right after its answer (its transaction committed).
  app.addHook('onResponse', async () => {
    if (takeQueuedHint()) webhooks.nudge();
  });
  app.addHook('onClose', () => events.close());
  const retention = createRetentionJob(ctx, app.log.child({ module: 'retention' }));
  app.addHook('onReady', () => retention.start());
  app.addHook('onClose', () => retention.stop());
  await registerMetrics(app, ctx, { events });

  await app.register(healthRoutes, { ctx });
  const registry = createProviderRegistry({
    db: ctx.db,
    config,
    keys,
    clientSecrets,
    findRealm,
    log: app.log.child({ module: 'openid' }),
  });
  // The console's Google sign-in and the hosted sign-in page's share one verifier.
  const google = createGoogleSignIn(ctx);
  await app.register(realmRoutes, {
    config,
    db: ctx.db,
    keys,
    tokens: ctx.tokens,
    limits,
    registry,
    googleSignIn: google?.inRealm,
    mfaSecrets,
  });
  await app.register(
    async (api) => {
      registerAuthGuard(api, ctx.tokens);
      await api.register(authRoutes);
      await api.register(accountRoutes, { ctx });
      await api.register(accountPageRoutes, { ctx });
      await api.register(googleRoutes, { ctx, google });
      await api.register(tenantRoutes, { ctx });
      await api.register(usersRoutes, { ctx });
      await api.register(rolesRoutes, { ctx });
      await api.register(permissionsRoutes, { ctx });
      await api.register(projectsRoutes, { ctx });
      await api.register(clientsRoutes, { ctx });
      await api.register(auditRoutes, { ctx });
      await api.register(mailQueueRoutes, { ctx });
      await api.register(eventsRoutes, { ctx, hub: events });
      await api.register(filesRoutes, { ctx });
      await api.register(dashboardRoutes, { ctx });
      await api.register(onboardingRoutes, { ctx });
      await api.register(assistantRoutes, { ctx });
      await api.register(settingsRoutes, { ctx });
      await api.register(webhooksRoutes, { ctx });
      await api.register(userImportRoutes, { ctx });
      await api.register(csvExportRoutes, { ctx });
    },
    { prefix: API_BASE_PATH },
  );
  // SCIM 2.0 (RFC 7644) per tenant, outside the console's API: its own media type, errors and
  // authentication (an application's token holding `scim`).
  await app.register(scimRoutes, { ctx, prefix: '/scim/v2' });
  // The sign-in pages, rendered here so they work before their script; then the console.
  await app.register(authPageRoutes, { ctx, webDist });
  await registerStaticWeb(app, { root: webDist });
  return app;
}
