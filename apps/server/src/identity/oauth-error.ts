/** An OAuth 2.0 error answer (RFC 6749 §5.2) with Keycloak's wording. */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    /** Seconds a rate-limited client should wait, sent as Retry-After. */
    readonly retryAfterSeconds?: number,
  ) {
    super(description);
  }
}

// Keycloak answers an unknown e-mail, a wrong password and a locked account alike.
export const invalidCredentials = () =>
  new OAuthError(401, 'invalid_grant', 'Invalid user credentials');
export const invalidRefreshToken = () =>
  new OAuthError(400, 'invalid_grant', 'Invalid refresh token');
export const realmNotFound = () => new OAuthError(404, 'invalid_request', 'Realm does not exist');

/** A refresh token the password grant's sessions do not know; the OpenID provider may. */
export class NotOurRefreshToken extends OAuthError {
  constructor() {
    super(400, 'invalid_grant', 'Invalid refresh token');
  }
}
