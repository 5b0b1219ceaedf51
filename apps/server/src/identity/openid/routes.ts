import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { realmRelyingParty } from '../second-factor/passkey-sign-in';
import { requestOrigin } from '../second-factor/relying-party';
import { registerConsentSteps } from '../consent/consent-steps';
import { registerHostedGoogle, type RealmGoogleSignIn } from './hosted-google';
import { actionParams, loadInteraction, realmParams } from './interaction';
import { refuseCrossSitePosts } from './cross-site-posts';
import { errorPageOf } from './pages';
import { OPENID_ROUTES } from './provider';
import { registerSignInSteps, type SignInStepDeps } from './sign-in-steps-routes';

interface OpenIdRouteDeps extends SignInStepDeps {
  /** Google sign-in on the hosted page; undefined when the server has no Google client id. */
  googleSignIn: RealmGoogleSignIn | undefined;
}

// The provider reads a form body that Fastify already parsed from `req.body`.
function keepParsedBody(request: FastifyRequest, _reply: unknown, done: () => void) {
  const raw = request.raw as { body?: unknown };
  raw.body ??= request.body;
  done();
}

/** Longest value of one authorization request parameter, the default limit of Keycloak's. */
const MAX_PARAMETER_LENGTH = 4000;

/**
 * An authorization request with an oversize parameter (a state or nonce the provider would
 * keep in the interaction, the code and the ID token) is refused on our error page: it is
 * never sent back to the application, whose state would not fit either.
 */
async function refuseOversizeParameters(request: FastifyRequest, reply: FastifyReply) {
  const params = (request.method === 'POST' ? request.body : request.query) ?? {};
  const oversize = Object.entries(params as Record<string, unknown>).find(([, value]) =>
    [value].flat().some((v) => typeof v === 'string' && v.length > MAX_PARAMETER_LENGTH),
  );
  if (!oversize) return;
  const { headers, html } = errorPageOf({
    error: 'invalid_request',
    error_description: `The parameter ${oversize[0].slice(0, 40)} is longer than ${MAX_PARAMETER_LENGTH} characters.`,
  });
  return reply.code(400).headers(headers).type('text/html; charset=utf-8').send(html);
}

/**
 * The provider's endpoints under Keycloak's paths, and the routes the hosted sign-in page
 * calls (`/login-actions/{realm}/{uid}/details`, the sign-in steps and `…/google`).
 */
export function registerOpenIdRoutes(app: FastifyInstance, deps: OpenIdRouteDeps) {
  const { registry } = deps;
  const base = '/realms/:realm';
  const handOff = (request: FastifyRequest, reply: FastifyReply) =>
    registry.handOff(request, reply, (request.params as { realm: string }).realm);
  const options = { preValidation: keepParsedBody, schema: { params: realmParams.passthrough() } };
  const authorization = { ...options, preHandler: refuseOversizeParameters };
  refuseCrossSitePosts(app);

  for (const path of [
    `${OPENID_ROUTES.authorization}/:uid`,
    `${OPENID_ROUTES.end_session}/success`,
  ]) {
    app.get(`${base}${path}`, options, handOff);
  }
  app.get(`${base}${OPENID_ROUTES.authorization}`, authorization, handOff);
  app.post(`${base}${OPENID_ROUTES.authorization}`, authorization, handOff);
  app.get(`${base}${OPENID_ROUTES.end_session}`, options, handOff);
  app.post(`${base}${OPENID_ROUTES.revocation}`, options, handOff);
  app.post(`${base}${OPENID_ROUTES.end_session}/confirm`, options, handOff);

  app.get(
    '/login-actions/:realm/:uid/details',
    { schema: { params: actionParams } },
    async (request, reply) => {
      const { realm, provider, details } = await loadInteraction(registry, request, reply);
      const client = await provider.Client.find(String(details.params.client_id));
      reply.header('cache-control', 'no-store');
      return {
        realm: realm.name,
        tenantId: realm.id,
        prompt: details.prompt.name,
        clientId: client?.clientId ?? null,
        clientName: client?.clientName ?? null,
        loginHint: typeof details.params.login_hint === 'string' ? details.params.login_hint : null,
        uiLocales: typeof details.params.ui_locales === 'string' ? details.params.ui_locales : null,
        /** Whether the page may offer passkeys: only on the tenant's own address. */
        passkeys: Boolean(
          await realmRelyingParty(deps.db, deps.config.publicUrl, realm, requestOrigin(request)),
        ),
      };
    },
  );

  registerSignInSteps(app, deps);
  registerHostedGoogle(app, deps);
  registerConsentSteps(app, deps);
}
