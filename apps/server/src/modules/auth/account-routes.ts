import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  acceptedResponseSchema,
  accountDoneResponseSchema,
  forgotPasswordRequestSchema,
  resetPasswordRequestSchema,
  signupRequestSchema,
  verifyEmailRequestSchema,
} from '@tc/contract/account';
import { accountHeadersSchema } from '@tc/contract/headers';
import { problemSchema } from '@tc/contract/problem';
import type { AppContext } from '../../app-context';
import { loggableError } from '../../http/logging';
import { AppError } from '../../http/problem';
import { identifyTenant } from '../tenants/service';
import { forgotPassword, resetPassword, verifyEmail, type AccountContext } from './account-service';
import { requireSignupOpen, signup } from './account-signup';
import { mailBudget } from './anonymous-mail-limit';
import { rateLimitStore } from '../../http/hit-counter';

const headers = accountHeadersSchema;
const errors = { 400: problemSchema, 404: problemSchema, 429: problemSchema };

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
      new AppError(
        429,
        `Too many requests. Try again in ${Math.max(1, Math.ceil(context.ttl / 1000))} seconds.`,
      ),
  });
  // At most 3 mails per tenant and address per 15 minutes, counted per request: forgot-password
  // and sign-up share this one budget.
  const requireMailBudget = mailBudget(app);
  const r = app.withTypeProvider<ZodTypeProvider>();

  async function account(request: FastifyRequest) {
    const tenant = await identifyTenant(ctx.db, {
      tenantIdHeader: request.headers['tenant-id'] as string | undefined,
      hostname: request.hostname,
      publicHost: new URL(ctx.config.publicUrl).hostname.toLowerCase(),
      googleClientId: ctx.config.googleClientId,
    });
    request.writtenTenantId = tenant.id;
    const context: AccountContext = {
      db: ctx.db,
      config: ctx.config,
      tenantId: tenant.id,
      acceptLanguage: request.headers['accept-language'],
    };
    return { tenant, context };
  }

  r.post(
    '/auth/forgot-password',
    {
      config: { public: true, rateLimit: PER_ADDRESS },
      schema: {
        tags: ['auth'],
        summary: 'Sends a password reset link, if the address has an account',
        headers,
        body: forgotPasswordRequestSchema,
        response: { 202: acceptedResponseSchema, ...errors },
      },
    },
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
      return reply.code(202).send({ data: { message: FORGOT_SENT } });
    },
  );

  r.post(
    '/auth/reset-password',
    {
      config: { public: true, rateLimit: PER_ADDRESS_TOKENS },
      schema: {
        tags: ['auth'],
        summary: 'Sets a password with a reset or invitation link',
        headers,
        body: resetPasswordRequestSchema,
        response: { 200: accountDoneResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { context } = await account(request);
      const done = await resetPassword({ ...context, ...request.body });
      ctx.mail.nudge();
      return { data: done };
    },
  );

  r.post(
    '/auth/signup',
    {
      config: { public: true, rateLimit: PER_ADDRESS },
      schema: {
        tags: ['auth'],
        summary: 'Creates an account that must confirm its e-mail address',
        headers,
        body: signupRequestSchema,
        response: { 202: acceptedResponseSchema, 403: problemSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { tenant, context } = await account(request);
      // A closed tenant answers 403 without spending the address's budget.
      requireSignupOpen(tenant);
      await requireMailBudget(request, reply);
      await signup({ ...context, tenant, data: request.body });
      ctx.mail.nudge();
      return reply.code(202).send({ data: { message: SIGNUP_SENT } });
    },
  );

  r.post(
    '/auth/verify-email',
    {
      config: { public: true, rateLimit: PER_ADDRESS_TOKENS },
      schema: {
        tags: ['auth'],
        summary: 'Confirms an e-mail address with a verification link',
        headers,
        body: verifyEmailRequestSchema,
        response: { 200: accountDoneResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { context } = await account(request);
      return { data: await verifyEmail({ ...context, token: request.body.token }) };
    },
  );
}
