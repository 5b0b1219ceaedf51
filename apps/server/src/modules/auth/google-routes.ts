import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { googleSignInSchema } from '@tc/contract/google';
import { tenantIdHeaderSchema } from '@tc/contract/headers';
import { tokenResponseSchema } from '@tc/contract/identity';
import { problemSchema } from '@tc/contract/problem';
import type { AppContext } from '../../app-context';
import { notFound } from '../../http/problem';
import { identifyTenant } from '../tenants/service';
import { createGoogleVerifier, signInWithGoogle } from './google';

/**
 * POST /auth/google: a Google ID token in, our token response out; a server never hands a
 * browser a password to sign in with (docs/identity-provider.md).
 */
export async function googleRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { googleClientId, googleJwksUrl, publicUrl } = ctx.config;
  // One verifier per app, so the JWKS is fetched once and cached across requests.
  const verify = googleClientId
    ? createGoogleVerifier({ clientId: googleClientId, jwksUrl: googleJwksUrl })
    : undefined;
  const publicHost = new URL(publicUrl).hostname.toLowerCase();

  r.post(
    '/auth/google',
    {
      config: { public: true },
      // Before body validation: an unconfigured server answers 404 whatever is sent.
      onRequest: async () => {
        if (!verify) throw notFound('Google sign-in is not configured.');
      },
      schema: {
        tags: ['auth'],
        summary: 'Sign in (or sign up) with a Google ID token; answers with our tokens',
        headers: z.object({ 'tenant-id': tenantIdHeaderSchema }),
        body: googleSignInSchema,
        response: {
          200: tokenResponseSchema,
          400: problemSchema,
          401: problemSchema,
          403: problemSchema,
          404: problemSchema,
        },
      },
    },
    async (request, reply) => {
      if (!verify) throw notFound('Google sign-in is not configured.');
      const tenant = await identifyTenant(ctx.db, {
        tenantIdHeader: request.headers['tenant-id'],
        hostname: request.hostname,
        publicHost,
        googleClientId,
      });
      request.writtenTenantId = tenant.id;
      const identity = await verify(request.body.credential, request.log);
      // Token responses are never cached (RFC 6749 §5.1), as at the token endpoint.
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      return signInWithGoogle({ db: ctx.db, tokens: ctx.tokens }, { tenant, identity });
    },
  );
}
