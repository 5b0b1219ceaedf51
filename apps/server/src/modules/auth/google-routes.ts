import type { FastifyInstance } from 'fastify';
import { authRoutes as routes } from '@tc/contract/routes/auth';
import type { AppContext } from '../../app-context';
import { notFound } from '../../http/problem';
import { registerRoute } from '../../http/register-route';
import { identifyTenant } from '../tenants';
import { createGoogleVerifier, signInWithGoogle } from './google';

/**
 * POST /auth/google: a Google ID token in, our token response out; a server never hands a
 * browser a password to sign in with (docs/identity-provider.md).
 */
export async function googleRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { googleClientId, googleJwksUrl, publicUrl } = ctx.config;
  // One verifier per app, so the JWKS is fetched once and cached across requests.
  const verify = googleClientId
    ? createGoogleVerifier({ clientId: googleClientId, jwksUrl: googleJwksUrl })
    : undefined;
  const publicHost = new URL(publicUrl).hostname.toLowerCase();

  registerRoute(
    app,
    routes.google,
    async (request, reply) => {
      if (!verify) throw notFound('google.not_configured');
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
    {
      // Before body validation: an unconfigured server answers 404 whatever is sent.
      onRequest: async () => {
        if (!verify) throw notFound('google.not_configured');
      },
    },
  );
}
