import type { TokenResponse } from '@tc/contract/identity';
import { CLIENT_ID } from '@tc/contract/permissions';
import type { Config } from '../config';
import type { Database } from '../db/database';
import { batchedReads } from '../db/batched-reads';
import { failLoginAttempt, passLoginAttempt, withdrawLoginAttempt } from './brute-force';
import { invalidRefreshToken, NotOurRefreshToken, OAuthError, realmNotFound } from './oauth-error';
import { principalsForSessions, userTokenClaims, type Principal } from './principal';
import { issuerFor, type Realm, type RealmLookup } from './realms';
import type { ClientSecretGuard } from './openid/client-secret';
import type { SessionOrigin } from './openid/browser-id';
import { rotateRefreshToken } from './rotation';
import { apiAudience } from './openid/audience';
import { requirePasswordGrantFactor } from './second-factor/password-grant';
import type { SecretBox } from './second-factor/secret-box';
import { refreshAllowedByPolicy, SECOND_FACTOR_NOW_REQUIRED } from './second-factor/status';
import { noticeNewBrowser, signInFacts } from './second-factor/sign-in-facts';
import { findSessionByRefreshToken, revokeSession, startSession } from './sessions';
import type { SigningKeys } from './signing-keys';
import { verifiedTokenClaims } from './verified-token-claims';
import { accountRefusal, passwordCheck } from './password-check';

export { accountRefusal };

export interface TokenServiceDeps {
  db: Database;
  keys: SigningKeys;
  config: Config;
  findRealm: RealmLookup;
  /** Opens the authenticator-app secrets the password grant checks codes against. */
  mfaSecrets: SecretBox;
  /** Checks a confidential application's secret, throttling wrong ones per source. */
  clientSecrets: ClientSecretGuard;
}

/** The authenticated caller of an API request. */
export interface Caller extends Principal {
  sessionId: string;
}

export type TokenService = ReturnType<typeof createTokenService>;

/** Keycloak's direct-grant and refresh flows and access-token verification (docs/identity-provider.md). */
export function createTokenService(deps: TokenServiceDeps) {
  const { db, keys, config } = deps;
  const verifiedClaims = verifiedTokenClaims(keys);
  const api = apiAudience(config.publicUrl);
  // Who a token speaks for is read on every request (a session ended, a user deactivated or
  // a role changed shows at the very next request, in every process); the requests of one
  // turn of the event loop share one statement.
  const openSessions = batchedReads((sessionIds: string[]) =>
    principalsForSessions(db, sessionIds),
  );
  const lifetimes = {
    absoluteSeconds: config.refreshTokenTtl,
    idleSeconds: config.refreshTokenIdleTtl,
  };

  async function requireRealm(name: string): Promise<Realm> {
    const realm = await deps.findRealm(name);
    if (!realm) throw realmNotFound();
    return realm;
  }

  async function respond(
    principal: Principal,
    session: { id: string; clientId: string },
    refreshToken: string,
    refreshExpiresIn: number,
  ): Promise<TokenResponse> {
    const sessionId = session.id;
    const accessToken = await keys.sign(
      {
        iss: issuerFor(config.publicUrl, principal.realm),
        sub: principal.userId,
        ...userTokenClaims(principal, sessionId, session.clientId),
      },
      config.accessTokenTtl,
    );
    return {
      access_token: accessToken,
      expires_in: config.accessTokenTtl,
      refresh_token: refreshToken,
      refresh_expires_in: refreshExpiresIn,
      token_type: 'Bearer',
      tenantId: principal.tenantId,
      'not-before-policy': 0,
      session_state: sessionId,
      scope: 'openid profile email',
    };
  }

  const checkPassword = passwordCheck({
    db,
    config,
    clientSecrets: deps.clientSecrets,
    realmId: async (name) => (await requireRealm(name)).id,
  });

  /**
   * Keycloak's direct grant: the password, then the authenticator app's code in `totp` when
   * the account has one. One request counts one attempt; only a complete sign-in clears the
   * failures, so a right password with a wrong code stays counted.
   */
  async function passwordGrant(input: {
    realm: string;
    clientId: string | undefined;
    clientSecret?: string | undefined;
    username: string | undefined;
    password: string | undefined;
    totp?: string | undefined;
    origin?: SessionOrigin;
    acceptLanguage?: string | undefined;
  }): Promise<TokenResponse> {
    const origin = input.origin ?? { userAgent: null, ipAddress: null, browserHash: null };
    const { principal, attempt } = await checkPassword({
      ...input,
      source: origin.ipAddress ?? undefined,
    });
    const facts = await secondFactorOf(principal, origin, input).catch(async (error: unknown) => {
      // A refused code (or none) is a failure, as in Keycloak's direct grant; our own
      // failure is nobody's guess.
      if (error instanceof OAuthError) await failLoginAttempt(db, config.bruteForce, attempt);
      else await withdrawLoginAttempt(db, attempt);
      throw error;
    });
    await passLoginAttempt(db, attempt);
    const tokens = await issueTokens(principal, input.clientId ?? CLIENT_ID, origin);
    await noticeNewBrowser(db, config.publicUrl, {
      userId: principal.userId,
      facts,
      origin,
      acceptLanguage: input.acceptLanguage,
    });
    return tokens;
  }

  /** The password grant's second factor, when the account has one: the code in `totp`. */
  async function secondFactorOf(
    principal: Principal,
    origin: SessionOrigin,
    input: { totp?: string | undefined; acceptLanguage?: string | undefined },
  ) {
    const facts = await signInFacts(db, principal.userId, origin.browserHash);
    await requirePasswordGrantFactor(
      { db, box: deps.mfaSecrets, publicUrl: config.publicUrl },
      principal,
      facts,
      { totp: input.totp, acceptLanguage: input.acceptLanguage },
    );
    return facts;
  }

  /**
   * Opens a session for a principal the caller has already authenticated (password grant,
   * Google sign-in) and answers with the token endpoint's response.
   */
  async function issueTokens(
    principal: Principal,
    clientId = CLIENT_ID,
    origin?: SessionOrigin,
  ): Promise<TokenResponse> {
    const session = await startSession(db, principal, lifetimes, clientId, origin);
    return respond(
      principal,
      { id: session.sessionId, clientId },
      session.refreshToken,
      session.refreshExpiresIn,
    );
  }

  /** Refreshes a password-grant session, for the client that opened it only. */
  async function refreshGrant(input: {
    realm: string;
    clientId: string | undefined;
    refreshToken: string | undefined;
  }): Promise<TokenResponse> {
    const realm = await requireRealm(input.realm);
    if (!input.refreshToken) throw invalidRefreshToken();
    const clientId = input.clientId ?? '';
    const rotation = await rotateRefreshToken(db, {
      tenantId: realm.id,
      clientId,
      token: input.refreshToken,
      idleSeconds: lifetimes.idleSeconds,
    });
    if (rotation.outcome === 'reused') {
      // OAuth 2.0 Security BCP §4.14.2: a replayed refresh token ends the whole family.
      await revokeSession(db, rotation.sessionId);
      throw new OAuthError(400, 'invalid_grant', 'Maximum allowed refresh token reuse exceeded');
    }
    // Not one of ours: the OpenID provider may have issued it (the code flow).
    if (rotation.outcome === 'unknown') throw new NotOurRefreshToken();
    if (rotation.outcome === 'other-client') {
      throw new OAuthError(401, 'invalid_client', 'Invalid client or Invalid client credentials');
    }
    if (rotation.outcome !== 'rotated') throw invalidRefreshToken();
    const { principal } = rotation;
    // An unverified account has no session to refresh; should one exist, it refreshes nothing.
    if (!principal.userActive || !principal.tenantEnabled || !principal.emailVerified) {
      throw invalidRefreshToken();
    }
    if (!refreshAllowedByPolicy(rotation.secondFactor, principal.permissions)) {
      // The session ends with its refresh: its access token stops too, and the console sends
      // the user to sign in, where the enrolment is asked for.
      await revokeSession(db, rotation.sessionId);
      throw new OAuthError(400, 'invalid_grant', SECOND_FACTOR_NOW_REQUIRED);
    }
    const absoluteLeft = Math.floor((rotation.expiresAt.getTime() - Date.now()) / 1000);
    const refreshExpiresIn = Math.max(0, Math.min(lifetimes.idleSeconds, absoluteLeft));
    return respond(
      principal,
      { id: rotation.sessionId, clientId },
      rotation.refreshToken,
      refreshExpiresIn,
    );
  }

  async function logout(input: {
    realm: string;
    clientId: string | undefined;
    refreshToken: string | undefined;
  }): Promise<void> {
    const realm = await requireRealm(input.realm);
    const session = input.refreshToken
      ? await findSessionByRefreshToken(db, input.refreshToken)
      : undefined;
    if (!session || session.tenantId !== realm.id) throw invalidRefreshToken();
    if (session.clientId !== input.clientId) {
      throw new OAuthError(400, 'invalid_grant', 'Session not issued to this client');
    }
    await revokeSession(db, session.sessionId);
  }

  /**
   * Verifies a user's access token of any application of its realm (userinfo, introspection):
   * signature, expiry, realm and a live session; undefined for any token that must answer 401.
   */
  async function authenticateUser(
    token: string,
  ): Promise<(Caller & { consoleApiAccess: boolean }) | undefined> {
    const claims = await verifiedClaims(token);
    if (!claims) return undefined;
    const principal = await openSessions(claims.sessionId);
    if (
      !principal ||
      principal.userId !== claims.userId ||
      principal.tenantId !== claims.tenantId
    ) {
      return undefined;
    }
    if (!principal.userActive || !principal.tenantEnabled) return undefined;
    // The issuer must name the realm the user belongs to: a token of realm A is no good in B.
    if (claims.issuer !== issuerFor(config.publicUrl, principal.realm)) return undefined;
    const consoleApiAccess =
      principal.consoleApiAccess && (claims.audience === undefined || claims.audience === api);
    return { ...principal, sessionId: claims.sessionId, consoleApiAccess };
  }

  /**
   * Verifies an access token for the console API: a user's token issued to the console itself
   * or to an application an administrator allowed to call it, for the API as audience (the
   * password grant's tokens name none). Whether the application is allowed is read with the
   * session on every request, so withdrawing it stops its tokens at once. Any other token,
   * and a service's (client credentials, which speaks for no user), must answer 401.
   */
  async function authenticate(token: string): Promise<Caller | undefined> {
    const found = await authenticateUser(token);
    return found?.consoleApiAccess ? found : undefined;
  }

  return {
    checkPassword,
    passwordGrant,
    refreshGrant,
    issueTokens,
    logout,
    authenticate,
    authenticateUser,
  };
}
