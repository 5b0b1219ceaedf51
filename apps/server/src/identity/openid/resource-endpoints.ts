import type { FastifyReply, FastifyRequest } from 'fastify';
import type { JWTPayload } from 'jose';
import type { Database } from '../../db/database';
import { OAuthError } from '../oauth-error';
import { principalById } from '../principal';
import type { Realm } from '../realms';
import type { SigningKeys } from '../signing-keys';
import type { TokenService } from '../token-service';
import type { ProviderRegistry } from './registry';

const bearerOf = (request: FastifyRequest): string | undefined => {
  const header = request.headers.authorization;
  if (header?.toLowerCase().startsWith('bearer ')) return header.slice(7).trim();
  const body = request.body as { access_token?: unknown } | undefined;
  return typeof body?.access_token === 'string' ? body.access_token : undefined;
};

function invalidToken(reply: FastifyReply) {
  reply
    .code(401)
    .header('www-authenticate', 'Bearer error="invalid_token"')
    .header('cache-control', 'no-store');
  return { error: 'invalid_token', error_description: 'The access token is not valid' };
}

/** Scopes of an access token; the password grant's tokens name none and carry all three. */
const scopesOf = (payload: JWTPayload) =>
  new Set(typeof payload.scope === 'string' ? payload.scope.split(' ') : ['profile', 'email']);

/**
 * Userinfo (OpenID Connect Core §5.3) for our access tokens: the provider keeps no JWT access
 * token, so it cannot answer for them. The same checks as the API's: signature, expiry, the
 * realm of the issuer and a live session; claims by the token's scopes.
 */
export async function userinfo(
  deps: { db: Database; tokens: TokenService; keys: SigningKeys },
  realm: Realm,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const token = bearerOf(request);
  // Every application's user tokens, not only those the console API takes.
  const caller = token ? await deps.tokens.authenticateUser(token) : undefined;
  if (!token || !caller || caller.tenantId !== realm.id) return invalidToken(reply);
  const payload = await deps.keys.verify(token);
  const scopes = scopesOf(payload);
  // The language is no claim of the API's callers: read only when the profile is asked for.
  const locale = scopes.has('profile')
    ? (await principalById(deps.db, realm.id, caller.userId))?.locale
    : undefined;
  reply.header('cache-control', 'no-store');
  return {
    sub: caller.userId,
    ...(scopes.has('profile')
      ? {
          name: `${caller.firstName} ${caller.lastName}`.trim(),
          given_name: caller.firstName,
          family_name: caller.lastName,
          preferred_username: caller.email,
          ...(locale ? { locale } : {}),
        }
      : {}),
    ...(scopes.has('email') ? { email: caller.email, email_verified: caller.emailVerified } : {}),
  };
}

/** RFC 6749 §2.3.1: client_id and secret, each form-encoded, inside HTTP Basic. */
export function basicCredentials(request: FastifyRequest) {
  const header = request.headers.authorization;
  if (header?.toLowerCase().startsWith('basic ')) {
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return undefined;
    try {
      const form = (part: string) => decodeURIComponent(part.replaceAll('+', ' '));
      const credentials = {
        id: form(decoded.slice(0, colon)),
        secret: form(decoded.slice(colon + 1)),
      };
      // No client's ID or secret holds a NUL, and PostgreSQL could not compare one: no client.
      return `${credentials.id}${credentials.secret}`.includes('\u0000') ? undefined : credentials;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** A client's credentials: in HTTP Basic, or in the form body. */
function clientCredentials(request: FastifyRequest) {
  const basic = basicCredentials(request);
  if (basic) return basic;
  const body = (request.body ?? {}) as Record<string, unknown>;
  if (typeof body.client_id === 'string' && typeof body.client_secret === 'string') {
    return { id: body.client_id, secret: body.client_secret };
  }
  return undefined;
}

type RealmProvider = Awaited<ReturnType<ProviderRegistry['forRealm']>>['provider'];
type RealmClient = NonNullable<Awaited<ReturnType<RealmProvider['Client']['find']>>>;

/**
 * The client's secret, compared by the provider's comparison (provider.ts), which takes the
 * client's address as a second argument outside the provider's own requests; its refusal of
 * a source that sent too many wrong secrets becomes our 429.
 */
async function secretMatches(client: RealmClient, secret: string, source: string) {
  const compare = client.compareClientSecret as (
    this: RealmClient,
    presented: string,
    source: string,
  ) => Promise<boolean>;
  try {
    return await compare.call(client, secret, source);
  } catch (error) {
    const {
      statusCode,
      error_description: description,
      retryAfterSeconds,
    } = error as {
      statusCode?: number;
      error_description?: string;
      retryAfterSeconds?: number;
    };
    if (statusCode !== 429) throw error;
    throw new OAuthError(429, 'slow_down', description ?? 'Too many requests', retryAfterSeconds);
  }
}

/** A user's access token, by its live session; a client's (client credentials), by its client. */
async function describeAccessToken(
  deps: { tokens: TokenService; keys: SigningKeys },
  provider: RealmProvider,
  realm: Realm,
  token: string,
) {
  const payload = await deps.keys.verify(token).catch(() => undefined);
  if (!payload || payload.tenant_id !== realm.id) return undefined;
  const described = { active: true, token_type: 'Bearer', ...payload };
  if (typeof payload.sid !== 'string') {
    const clientId = payload.client_id;
    const client = typeof clientId === 'string' ? await provider.Client.find(clientId) : undefined;
    return client ? described : undefined;
  }
  const caller = await deps.tokens.authenticateUser(token);
  if (!caller || caller.tenantId !== realm.id) return undefined;
  return { ...described, client_id: payload.azp ?? payload.client_id, username: caller.email };
}

/** A refresh token the provider issued (the code flow's), while it and its grant live. */
async function describeRefreshToken(provider: RealmProvider, token: string) {
  const refresh = await provider.RefreshToken.find(token).catch(() => undefined);
  if (!refresh || refresh.isExpired || refresh.consumed || !refresh.grantId) return undefined;
  if (!(await provider.Grant.find(refresh.grantId))) return undefined;
  return {
    active: true,
    token_type: 'refresh_token',
    client_id: refresh.clientId,
    sub: refresh.accountId,
    scope: refresh.scope,
    iat: refresh.iat,
    exp: refresh.exp,
  };
}

/**
 * Token introspection (RFC 7662) for confidential clients of the realm: our JWT access tokens
 * are described from their signature, claims and session (or client), the provider's refresh
 * tokens from its store; anything else is inactive.
 */
export async function introspect(
  deps: { tokens: TokenService; keys: SigningKeys; registry: ProviderRegistry },
  realm: Realm,
  request: FastifyRequest,
) {
  const credentials = clientCredentials(request);
  const { provider } = await deps.registry.forRealm(realm);
  const client = credentials ? await provider.Client.find(credentials.id) : undefined;
  const authenticated =
    client &&
    client.clientAuthMethod !== 'none' &&
    (await secretMatches(client, credentials!.secret, request.ip));
  if (!authenticated) {
    throw new OAuthError(401, 'invalid_client', 'Client authentication failed');
  }
  const token = (request.body as { token?: unknown } | undefined)?.token;
  if (typeof token !== 'string' || token.length === 0) {
    throw new OAuthError(400, 'invalid_request', 'The token parameter is missing');
  }
  return (
    (await describeAccessToken(deps, provider, realm, token)) ??
    (await describeRefreshToken(provider, token)) ?? { active: false }
  );
}
