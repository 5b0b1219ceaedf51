import type { FastifyBaseLogger } from 'fastify';
import { loggableError } from '../../http/logging';
import type Provider from 'oidc-provider';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { hostedSignInPath } from '@tc/contract/links';
import { loadOidcProvider, type OidcProviderLibrary } from './library';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { sharedReads } from '../../db/batched-reads';
import type { Realm, RealmLookup } from '../realms';
import { issuerFor } from '../realms';
import type { SigningKeys } from '../signing-keys';
import {
  accountFinder,
  accessTokenClaims,
  claimSources,
  sessionLacksRequiredFactor,
  sessionOfGrant,
  type ClaimSources,
} from './claims';
import { findClientRow, type ConsoleOrigins } from './client-metadata';
import { grantFor } from './grants';
import { audienceOf, resourceOf } from './audience';
import { logoutPage, errorPage, signedOutPage } from './pages';
import { ClientStore, PayloadStore, type ReplayHandler } from './payload-store';
import { providerSigningKeys } from './signing';
import { throttledDescription, type ClientSecretGuard } from './client-secret';
import { handedOffRequests } from './handed-off';

/** Keycloak's paths under each realm, so Keycloak's clients and libraries find everything. */
export const OPENID_ROUTES = {
  authorization: '/protocol/openid-connect/auth',
  token: '/protocol/openid-connect/token',
  userinfo: '/protocol/openid-connect/userinfo',
  revocation: '/protocol/openid-connect/revoke',
  introspection: '/protocol/openid-connect/token/introspect',
  end_session: '/protocol/openid-connect/logout',
  jwks: '/protocol/openid-connect/certs',
} as const;

/**
 * The provider's prompts, less the consent it asks of every native application on every
 * request: consent is asked once per application and what it asks for, and remembered
 * (identity/consent); the tenant's own applications are never asked.
 */
function signInPolicy({ interactionPolicy }: OidcProviderLibrary, sources: ClaimSources) {
  const policy = interactionPolicy.base();
  policy.get('consent')?.checks.remove('native_client_prompt');
  // The browser session's account must meet the tenant's second-factor policy as it is now,
  // as a refresh must (claims.ts): else the sign-in page is shown, which asks for enrolment.
  const { Check } = interactionPolicy;
  policy
    .get('login')
    ?.checks.add(
      new Check(
        'second_factor_required',
        'The tenant now requires a second factor this account has not set up',
        async (ctx) =>
          (await sessionLacksRequiredFactor(sources, ctx))
            ? Check.REQUEST_PROMPT
            : Check.NO_NEED_TO_PROMPT,
      ),
    );
  return policy;
}

export const SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const;

export interface ProviderDeps {
  db: Database;
  config: Config;
  keys: SigningKeys;
  /** Checks client secrets, throttling wrong ones per client address and client. */
  clientSecrets: ClientSecretGuard;
  findRealm: RealmLookup;
  /** Where the provider's own failures are told; they never reach Fastify's handler. */
  log: FastifyBaseLogger;
}

/**
 * One OpenID provider per realm (panva's oidc-provider): the authorization endpoint, hosted
 * sign-in interactions, the browser session, codes, the code and client-credentials grants,
 * refresh of the tokens it issued, ID tokens, revocation and end of session. What stays ours
 * and why: docs/decisions/0010-openid-provider.md.
 */
export async function createRealmProvider(
  deps: ProviderDeps,
  realm: Realm,
  console: ConsoleOrigins,
): Promise<Provider> {
  const library = await loadOidcProvider();
  const { errors } = library;
  const { db, config, keys } = deps;
  const issuer = issuerFor(config.publicUrl, realm.name);
  const realmPath = new URL(issuer).pathname;
  const secure = config.publicUrl.startsWith('https:');
  const cookie = { httpOnly: true, sameSite: 'lax' as const, secure, signed: true };
  // Every provider request reads its client, some twice: the reads of one turn of the event
  // loop for the same client share one statement (batched-reads.ts).
  const clientRows = sharedReads((clientId: string) => findClientRow(db, realm.id, clientId));
  const sources = claimSources(db, realm.id);
  // A code or refresh token presented twice at once: what its grant issued ends, as when the
  // provider meets a second use itself, and the request is refused.
  const replayed: ReplayHandler = async (model, grantId) => {
    if (grantId) {
      await Promise.all([
        new PayloadStore(db, realm.id, model).revokeByGrantId(grantId),
        sessionOfGrant.revoke(db, grantId),
      ]);
    }
    throw new errors.InvalidGrant(
      model === 'AuthorizationCode'
        ? 'authorization code already consumed'
        : 'refresh token already used',
    );
  };

  const configuration: Configuration = {
    adapter: (model: string) =>
      model === 'Client'
        ? new ClientStore(db, realm.id, model, clientRows, console)
        : new PayloadStore(db, realm.id, model, replayed),
    jwks: { keys: providerSigningKeys(library, keys.privateKeySet().keys) },
    routes: OPENID_ROUTES,
    scopes: [...SCOPES],
    claims: {
      openid: ['sub'],
      profile: ['name', 'given_name', 'family_name', 'locale'],
      email: ['email', 'email_verified'],
    },
    // An ID token from the token endpoint carries the claims its scopes ask for.
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    // 33 random bytes: its opaque tokens are 44 characters, ours 43, so the token endpoint
    // sends a refresh token to the right one without a lookup.
    formats: { bitsOfOpaqueRandomness: 264 },
    // Every code request carries PKCE, a confidential client's too: its secret does not stop
    // an injected or stolen code from being redeemed (OAuth 2.1 §4.1.1, RFC 9700 §2.1.1).
    pkce: { required: () => true },
    // A request without redirect_uri is refused, even for a client with a single one.
    allowOmittingSingleRegisteredRedirectUri: false,
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    enabledJWA: { idTokenSigningAlgValues: ['RS256', 'ES256'] },
    clientDefaults: {
      grant_types: ['authorization_code'],
      id_token_signed_response_alg: 'RS256',
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    extraClientMetadata: {
      properties: [
        'web_origins',
        'client_row_id',
        'service_grants',
        'first_party',
        'console_api_access',
      ],
    },
    clientBasedCORS: (_ctx, origin, client) =>
      ((client['web_origins'] as string[] | undefined) ?? []).includes(origin),
    cookies: {
      keys: [keys.derivedSecret(`cookies:${realm.id}`)],
      long: { ...cookie, path: realmPath },
      short: cookie,
    },
    findAccount: accountFinder(sources),
    extraTokenClaims: (ctx, token) => accessTokenClaims({ db, realm, config, sources }, ctx, token),
    loadExistingGrant: (ctx) =>
      grantFor(ctx, (client) => resourceOf(config.publicUrl, client), {
        db,
        tenantId: realm.id,
        ttl: config.refreshTokenTtl,
      }),
    // Any application with the refresh grant gets a refresh token; without offline_access it
    // ends with the browser session it came from.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: config.accessTokenTtl,
      ClientCredentials: config.accessTokenTtl,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
      RefreshToken: config.refreshTokenTtl,
      Session: config.refreshTokenTtl,
      Grant: config.refreshTokenTtl,
    },
    interactions: {
      policy: signInPolicy(library, sources),
      url: (_ctx, interaction) => hostedSignInPath(realm.name, interaction.uid),
    },
    renderError: (ctx, out) => errorPage(ctx, out),
    features: {
      devInteractions: { enabled: false },
      // Signatures made by Node's crypto (signing.ts); the acknowledgement names the version
      // of this experimental interface that the code was written for.
      externalSigningSupport: { enabled: true, ack: 'experimental-01' },
      clientCredentials: { enabled: true },
      revocation: { enabled: true },
      // Userinfo and introspection read our JWT access tokens, which the provider does not
      // keep: both are ours (identity/openid/userinfo.ts, introspection.ts).
      userinfo: { enabled: false },
      introspection: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => logoutPage(ctx, form),
        postLogoutSuccessSource: (ctx) => signedOutPage(ctx),
      },
      resourceIndicators: {
        enabled: true,
        // One resource per application: the console API for the console and the applications
        // allowed to call it, the application itself for every other (audience.ts).
        defaultResource: (_ctx, client) => resourceOf(config.publicUrl, client),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource, client) => {
          const audience = audienceOf(config.publicUrl, client, resource);
          if (!audience) throw new errors.InvalidTarget();
          return {
            scope: SCOPES.join(' '),
            audience,
            accessTokenTTL: config.accessTokenTtl,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
  };

  const provider = new library.default(issuer, configuration);
  // Stored secrets are SHA-256 digests. A right one always passes; wrong ones are throttled
  // per client address and client. The address is the one Fastify read (TRUST_PROXY) of the
  // request being answered, or the one a caller of ours passes (introspection).
  provider.Client.prototype.compareClientSecret = async function (
    this: { clientId: string; clientSecret?: string },
    presented: string,
    source?: string,
  ) {
    const ctx = library.default.ctx;
    const check = await deps.clientSecrets.check({
      tenantId: realm.id,
      clientId: this.clientId,
      storedDigest: this.clientSecret,
      presented,
      source: source ?? (ctx ? (handedOffRequests.get(ctx.req)?.ip ?? ctx.ip) : undefined),
    });
    if (check.outcome !== 'throttled') return check.outcome === 'right';
    const seconds = check.retryAfterSeconds;
    ctx?.set('retry-after', String(seconds));
    throw Object.assign(new errors.OIDCProviderError(429, 'slow_down'), {
      error_description: throttledDescription(seconds),
      retryAfterSeconds: seconds,
    });
  };
  // A grant the provider ends (a replayed code, a revoked refresh token, a logout) ends our
  // session of it too, so its access tokens stop at the API at once: the provider's answer
  // waits for it, and then this process's cached view of callers is counted as changed, as
  // our own routes do when they answer (the provider's answers bypass Fastify's hooks), so
  // whoever is told the grant ended never finds its access tokens still good.
  const revocations = new WeakMap<KoaContextWithOIDC, Array<Promise<void>>>();
  provider.on('server_error', (ctx: KoaContextWithOIDC, error: unknown) => {
    const log = handedOffRequests.get(ctx.req)?.log ?? deps.log;
    log.error({ err: loggableError(error), realm: realm.name }, 'openid provider failed');
  });
  provider.on('grant.revoked', (ctx: KoaContextWithOIDC, grantId: string) => {
    const revoked = sessionOfGrant.revoke(db, grantId);
    // Awaited below, after the provider's work; marked handled meanwhile so that a failure
    // fails the answer instead of the process.
    revoked.catch(() => undefined);
    const pending = revocations.get(ctx);
    if (pending) pending.push(revoked);
    else revocations.set(ctx, [revoked]);
  });
  provider.use(async (ctx, next) => {
    await next();
    const pending = revocations.get(ctx as KoaContextWithOIDC);
    if (!pending) return;
    await Promise.all(pending);
  });
  return provider;
}
