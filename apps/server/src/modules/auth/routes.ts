import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SUPER_ADMIN_ROLE } from '@tc/contract/permissions';
import type { RouteSpec } from '@tc/contract/route';
import { authRoutes as routes } from '@tc/contract/routes/auth';
import type { AppContext } from '../../app-context';
import { callerOf } from '../../http/auth-guard';
import { rateLimitStore } from '../../http/hit-counter';
import { loggableError } from '../../http/logging';
import { AppError, notFound } from '../../http/problem';
import { registerRoute, type RouteHandler } from '../../http/register-route';
import { identifyTenant } from '../tenants';
import { browserOrigin, ensureBrowserId } from '../../identity/openid/browser-id';
import { mailBudget } from './anonymous-mail-limit';
import { issueGoogleNonce } from './google-nonce';
import type { GoogleSignIn } from './google';
import {
  forgotPassword,
  requireSignupOpen,
  requireSignupPassword,
  resetPassword,
  signup,
  verifyEmail,
  type AccountContext,
} from './service';

/** GET /auth/me: who the caller is, for the console. */
export async function authRoutes(app: FastifyInstance) {
  registerRoute(app, routes.me, async (request) => {
    const caller = callerOf(request);
    return {
      data: {
        id: caller.userId,
        email: caller.email,
        firstName: caller.firstName,
        lastName: caller.lastName,
        tenantId: caller.tenantId,
        realm: caller.realm,
        roles: caller.roles,
        permissions: caller.permissions,
        superAdmin: caller.isMaster && caller.roles.includes(SUPER_ADMIN_ROLE),
      },
    };
  });
}

const FORGOT_SENT = 'Reset email sent successfully. Please check your inbox.';
const SIGNUP_SENT = 'Check your inbox and confirm your e-mail address to finish signing up.';

/** Sign-up, forgot/reset password and e-mail verification: public routes. */
export async function accountRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  // Per client address; generous for token routes, whose tokens cannot be guessed.
  const PER_ADDRESS = { max: ctx.config.accountRateLimit.perAddress, timeWindow: 60_000 };
  const PER_ADDRESS_TOKENS = {
    max: ctx.config.accountRateLimit.tokensPerAddress,
    timeWindow: 60_000,
  };
  await app.register(rateLimit, {
    global: false,
    store: rateLimitStore(ctx.limits),
    errorResponseBuilder: (_request, context) =>
      new AppError(429, 'request.too_many', { count: Math.max(1, Math.ceil(context.ttl / 1000)) }),
  });
  // At most 3 mails per tenant and address per 15 minutes, counted per request: forgot-password
  // and sign-up share this one budget.
  const requireMailBudget = mailBudget(app);
  // Every account route is limited per client address, besides its own rules.
  const registerLimitedRoute = <R extends RouteSpec>(
    route: R,
    handler: RouteHandler<R>,
    rateLimit: { max: number; timeWindow: number },
  ) => registerRoute(app, route, handler, { config: { rateLimit } });

  async function account(request: FastifyRequest) {
    const tenant = await identifyTenant(ctx.db, {
      tenantIdHeader: request.headers['tenant-id'] as string | undefined,
      hostname: request.hostname,
      publicHost: new URL(ctx.config.publicUrl).hostname.toLowerCase(),
      googleClientId: ctx.config.googleClientId,
    });
    request.identifiedTenantId = tenant.id;
    const context: AccountContext = {
      db: ctx.db,
      config: ctx.config,
      tenantId: tenant.id,
      acceptLanguage: request.headers['accept-language'],
    };
    return { tenant, context };
  }

  registerLimitedRoute(
    routes.forgotPassword,
    async (request, reply) => {
      const { context } = await account(request);
      await requireMailBudget(request, reply);
      // Answered before the address is even looked up: a known address writes a link and a
      // mail, an unknown one nothing, and the answer's timing must not tell them apart.
      forgotPassword({ ...context, email: request.body.email }).then(
        () => ctx.mail.nudge(),
        (error: unknown) =>
          request.log.error({ err: loggableError(error) }, 'forgot-password failed'),
      );
      return { data: { message: FORGOT_SENT } };
    },
    PER_ADDRESS,
  );

  registerLimitedRoute(
    routes.resetPassword,
    async (request) => {
      const { context } = await account(request);
      const done = await resetPassword({ ...context, ...request.body });
      ctx.mail.nudge();
      return { data: done };
    },
    PER_ADDRESS_TOKENS,
  );

  registerLimitedRoute(
    routes.signup,
    async (request, reply) => {
      const { tenant, context } = await account(request);
      // A closed tenant answers 403 without spending the address's budget.
      requireSignupOpen(tenant);
      await requireSignupPassword(context, request.body);
      await requireMailBudget(request, reply);
      await signup({ ...context, tenant, data: request.body });
      ctx.mail.nudge();
      return { data: { message: SIGNUP_SENT } };
    },
    PER_ADDRESS,
  );

  registerLimitedRoute(
    routes.verifyEmail,
    async (request) => {
      const { context } = await account(request);
      return { data: await verifyEmail({ ...context, token: request.body.token }) };
    },
    PER_ADDRESS_TOKENS,
  );
}

/**
 * POST /auth/google: a Google ID token in, our token response out; a server never hands a
 * browser a password to sign in with (docs/identity-provider.md).
 */
export async function googleRoutes(
  app: FastifyInstance,
  { ctx, google }: { ctx: AppContext; google: GoogleSignIn | undefined },
) {
  const { googleClientId, publicUrl } = ctx.config;
  const publicHost = new URL(publicUrl).hostname.toLowerCase();
  const tenantOf = (request: FastifyRequest) =>
    identifyTenant(ctx.db, {
      tenantIdHeader: request.headers['tenant-id'] as string | undefined,
      hostname: request.hostname,
      publicHost,
      googleClientId,
    });
  const notConfigured = async () => {
    if (!google) throw notFound('google.not_configured');
  };
  await app.register(rateLimit, {
    global: false,
    store: rateLimitStore(ctx.limits),
    errorResponseBuilder: (_request, context) =>
      new AppError(429, 'request.too_many', { count: Math.max(1, Math.ceil(context.ttl / 1000)) }),
  });

  registerRoute(
    app,
    routes.googleNonce,
    async (request, reply) => {
      const tenant = await tenantOf(request);
      const browserId = ensureBrowserId(request, reply, publicUrl);
      const { browserHash } = browserOrigin(request.headers, request.ip, browserId);
      reply.header('cache-control', 'no-store');
      return {
        nonce: await issueGoogleNonce(ctx.db, { tenantId: tenant.id, browserHash: browserHash! }),
      };
    },
    {
      onRequest: notConfigured,
      // Each answer stores a nonce: per client address, as the other account routes.
      config: {
        rateLimit: { max: ctx.config.accountRateLimit.tokensPerAddress, timeWindow: 60_000 },
      },
    },
  );

  registerRoute(
    app,
    routes.google,
    async (request, reply) => {
      if (!google) throw notFound('google.not_configured');
      const tenant = await tenantOf(request);
      // Token responses are never cached (RFC 6749 §5.1), as at the token endpoint.
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      const { browserHash } = browserOrigin(request.headers, request.ip);
      return google.tokens(tenant, request.body.credential, request.log, browserHash);
    },
    {
      // Before body validation: an unconfigured server answers 404 whatever is sent.
      onRequest: async () => {
        if (!google) throw notFound('google.not_configured');
      },
    },
  );
}
