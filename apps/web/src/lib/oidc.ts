import type { OAuthError, TokenResponse } from '@tc/contract/identity';

/** The identity client of the console, the earlier client's id. */
export const CLIENT_ID = 'react-client';

export class OAuthRequestError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

const realmPath = (realm: string, endpoint: 'token' | 'logout') =>
  `/realms/${encodeURIComponent(realm)}/protocol/openid-connect/${endpoint}`;

/** POSTs a form to the realm's token endpoint (Keycloak-compatible, docs/identity-provider.md). */
export async function requestToken(
  realm: string,
  form: Record<string, string>,
): Promise<TokenResponse> {
  const response = await fetch(realmPath(realm, 'token'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: CLIENT_ID, ...form }),
  });
  const body = (await response.json().catch(() => ({}))) as Partial<TokenResponse & OAuthError>;
  if (!response.ok || !body.access_token) {
    throw new OAuthRequestError(
      body.error ?? `http_${response.status}`,
      body.error_description ?? body.error ?? response.statusText,
    );
  }
  return body as TokenResponse;
}

/** Revokes the refresh token's session at the identity provider. */
export async function revokeSession(realm: string, refreshToken: string): Promise<void> {
  await fetch(realmPath(realm, 'logout'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: CLIENT_ID, refresh_token: refreshToken }),
  });
}
