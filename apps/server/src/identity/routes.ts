import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { logoutRequestSchema, tokenRequestSchema } from '@tc/contract/identity';
import type { Config } from '../config';
import type { HitCounter } from '../http/hit-counter';
import { NotOurRefreshToken, OAuthError } from './oauth-error';
import { clientOrigin } from './openid/browser-id';
import { discoveryDocument } from './openid/discovery';
import type { RealmGoogleSignIn } from './openid/hosted-google';
import type { ProviderRegistry } from './openid/registry';
import { basicCredentials, introspect, userinfo } from './openid/resource-endpoints';
import { realmParams } from './openid/interaction';
import { registerOpenIdRoutes } from './openid/routes';
import { passwordGrantLimits } from './token-rate-limit';
import { issuerFor } from './realms';
import type { Database } from '../db/database';
import type { SecretBox } from './second-factor/secret-box';
import type { SigningKeys } from './signing-keys';
import type { TokenService } from './token-service';

interface RealmRoutesOptions {
  config: Config;
  db: Database;
  keys: SigningKeys;
  tokens: TokenService;
  limits: HitCounter;
  registry: ProviderRegistry;
  /** Google sign-in on the hosted sign-in page; undefined when Google is not configured. */
  googleSignIn: RealmGoogleSignIn | undefined;
  /** Decrypts the authenticator-app secrets the sign-in steps check codes against. */
  mfaSecrets: SecretBox;
}

/** The length of our opaque tokens: 32 random bytes in base64url. */
const OUR_TOKEN_LENGTH = 43;

const FORM_ONLY = 'The body must be a form (application/x-www-form-urlencoded).';

/** An OAuth error answer (RFC 6749 §5.2), never cached. */
export function sendOAuthError(
  reply: FastifyReply,
  status: number,
  error: string,
  description: string,
) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .type('application/json; charset=utf-8')
    .send({ error, error_description: description });
}

/** What is wrong with a refused request, in words for the client's developer. */
function describeBadRequest(error: FastifyError): string {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issue = error.validation[0];
    const field = (issue?.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
    if (!field && error.validationContext === 'body') return FORM_ONLY;
    return `Invalid parameter ${field || error.validationContext}: ${issue?.message ?? 'not valid'}`;
  }
  if (error.statusCode === 415) return FORM_ONLY;
  if (error.statusCode === 413) return 'The request body is too large.';
  return error.message;
}

/**
 * Any refused request gets the OAuth error shape (RFC 6749 §5.2), never problem+json: a
 * field's value, the body's type or size alike. A rate limit keeps its 429 so that clients
 * back off; failures of our own (5xx) are left to the app's handler, which logs them.
 */
function answerInOAuthShape(error: FastifyError, _request: unknown, reply: FastifyReply) {
  if (error instanceof OAuthError) {
    if (error.retryAfterSeconds) reply.header('retry-after', String(error.retryAfterSeconds));
    return sendOAuthError(reply, error.status, error.error, error.description);
  }
  const status = error.statusCode ?? 500;
  if (status >= 500 || status < 400) throw error;
  const description = describeBadRequest(error);
  return sendOAuthError(reply, status === 429 ? 429 : 400, 'invalid_request', description);
}

/** OAuth answers are never cached (RFC 6749 §5.1) and errors use the OAuth shape. */
async function oauth(reply: FastifyReply, run: () => Promise<unknown>) {
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  try {
    const body = await run();
    return body === undefined ? reply.code(204).send() : reply.send(body);
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    if (error.retryAfterSeconds) reply.header('retry-after', String(error.retryAfterSeconds));
    return reply.code(error.status).send({
      error: error.error,
      error_description: error.description,
    });
  }
}

/** Keycloak's realm endpoints: /realms/{realm}/… (docs/identity-provider.md). */
export async function realmRoutes(app: FastifyInstance, options: RealmRoutesOptions) {
  const { config, db, keys, tokens, registry } = options;
  const passwordGrants = passwordGrantLimits(options.limits, config);
  registerOpenIdRoutes(app, {
    registry,
    tokens,
    db,
    config,
    mfaSecrets: options.mfaSecrets,
    limitSignIn: (realm, address) => passwordGrants.require(realm, address),
    googleSignIn: options.googleSignIn,
  });
  // The grants the OpenID provider serves get the body as it came, before our schema.
  const keepParsedBody = (request: FastifyRequest, _reply: unknown, done: () => void) => {
    (request.raw as { body?: unknown }).body ??= request.body;
    done();
  };
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['identity provider'];
  // Keycloak's endpoints take forms only; any other body is refused in the OAuth shape.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.setErrorHandler(answerInOAuthShape);

  r.post(
    '/realms/:realm/protocol/openid-connect/token',
    {
      schema: { tags, params: realmParams, body: tokenRequestSchema },
      preValidation: keepParsedBody,
    },
    async (request, reply) => {
      const { realm } = request.params;
      const body = request.body;
      // The password grant and the refresh of its sessions are ours; every other grant, and
      // a refresh token we did not issue, is the OpenID provider's.
      if (body.grant_type === 'password') {
        return oauth(reply, async () => {
          await passwordGrants.require(realm, request.ip);
          return tokens.passwordGrant({
            realm,
            clientId: body.client_id ?? basicCredentials(request)?.id,
            clientSecret: body.client_secret ?? basicCredentials(request)?.secret,
            username: body.username,
            password: body.password,
            totp: body.totp,
            origin: clientOrigin(request.headers, request.ip),
            acceptLanguage: request.headers['accept-language'],
          });
        });
      }
      // A password-grant session's refresh token is ours (43 characters; the provider's are
      // 44, and those issued before they grew are found here as unknown and passed on).
      if (body.grant_type === 'refresh_token' && body.refresh_token?.length === OUR_TOKEN_LENGTH) {
        const refreshed = await tokens
          .refreshGrant({ realm, clientId: body.client_id, refreshToken: body.refresh_token })
          .then(
            (answer) => ({ answer }),
            (error: unknown) => (error instanceof NotOurRefreshToken ? undefined : { error }),
          );
        if (refreshed) {
          return oauth(reply, async () => {
            if ('error' in refreshed) throw refreshed.error;
            return refreshed.answer;
          });
        }
      }
      return registry.handOff(request, reply, realm);
    },
  );

  // Keycloak's logout takes both: a client ending its refresh token's session (ours), and a
  // browser sent by an application to end its session at the provider (RP-initiated logout).
  r.post(
    '/realms/:realm/protocol/openid-connect/logout',
    {
      schema: { tags, params: realmParams, body: logoutRequestSchema.passthrough() },
      preValidation: keepParsedBody,
    },
    (request, reply) => {
      if (!request.body.refresh_token) {
        return registry.handOff(request, reply, request.params.realm);
      }
      return oauth(reply, async () => {
        await tokens.logout({
          realm: request.params.realm,
          clientId: request.body.client_id,
          refreshToken: request.body.refresh_token,
        });
      });
    },
  );

  for (const method of ['GET', 'POST'] as const) {
    r.route({
      method,
      url: '/realms/:realm/protocol/openid-connect/userinfo',
      schema: { tags, params: realmParams },
      handler: async (request, reply) =>
        userinfo(
          { db, tokens, keys },
          await registry.requireRealm(request.params.realm),
          request,
          reply,
        ),
    });
  }

  r.post(
    '/realms/:realm/protocol/openid-connect/token/introspect',
    { schema: { tags, params: realmParams } },
    (request, reply) =>
      oauth(reply, async () =>
        introspect(
          { tokens, keys, registry },
          await registry.requireRealm(request.params.realm),
          request,
        ),
      ),
  );

  r.get(
    '/realms/:realm/protocol/openid-connect/certs',
    { schema: { tags, params: realmParams } },
    (request, reply) =>
      oauth(reply, async () => {
        await registry.requireRealm(request.params.realm);
        return keys.publicKeySet();
      }),
  );

  r.get(
    '/realms/:realm/.well-known/openid-configuration',
    { schema: { tags, params: realmParams } },
    (request, reply) =>
      oauth(reply, async () => {
        const realm = await registry.requireRealm(request.params.realm);
        return discoveryDocument(issuerFor(config.publicUrl, realm.name));
      }),
  );
}
