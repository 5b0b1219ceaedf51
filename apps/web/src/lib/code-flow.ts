import * as oauth from 'oauth4webapi';
import type { ConsoleSignInCookie } from '@tc/contract/auth-page';
import { CONSOLE_CLIENT_PATHS } from '@tc/contract/links';
import { CLIENT_ID, OAuthRequestError } from './oidc';

/**
 * The console signs in as a public client of its own realm, with the authorization code flow
 * and PKCE (oauth4webapi does the protocol). The spec's sign-in screen stays where it is: the
 * screen drives the same requests a redirecting browser would make — authorization request,
 * the hosted sign-in's steps (password, second factor, passkey: lib/sign-in-steps.ts), the
 * redirect back with the code — with same-origin fetches, so the form, its errors and
 * "Remember me" behave as before, and the identity provider's browser session (single
 * sign-on) is set as for any other application.
 */

const endpoints = (realm: string) => {
  const base = `${window.location.origin}/realms/${encodeURIComponent(realm)}/protocol/openid-connect`;
  return {
    authorization_endpoint: `${base}/auth`,
    token_endpoint: `${base}/token`,
    revocation_endpoint: `${base}/revoke`,
    end_session_endpoint: `${base}/logout`,
  };
};

/**
 * The realm's issuer comes from its discovery document; the endpoints are this origin's, so a
 * console served on the tenant's own domain talks to its own host.
 */
async function authorizationServer(realm: string): Promise<oauth.AuthorizationServer> {
  const response = await fetch(
    `/realms/${encodeURIComponent(realm)}/.well-known/openid-configuration`,
  );
  if (!response.ok) throw new OAuthRequestError('invalid_request', 'Realm does not exist');
  const { issuer } = (await response.json()) as { issuer: string };
  return { issuer, ...endpoints(realm) };
}

// The built-in client's ID tokens are ES256, the cheaper signature.
const client: oauth.Client = { client_id: CLIENT_ID, id_token_signed_response_alg: 'ES256' };
const redirectUri = () => `${window.location.origin}${CONSOLE_CLIENT_PATHS.callback}`;
// The console may be served over plain http on a developer's machine.
const transport = () =>
  window.location.protocol === 'http:' ? { [oauth.allowInsecureRequests]: true } : {};

export interface CodeFlowTokens {
  access_token: string;
  refresh_token: string;
  id_token?: string;
}

/**
 * An authorization request the console has made and not finished: what the code exchange
 * needs (PKCE verifier, state, nonce) and where the hosted sign-in's steps of this request are
 * (`/login-actions/{realm}/{uid}`).
 */
export interface PendingAuthorization {
  realm: string;
  /** The realm's authorization server; read from its discovery at finish when not yet known. */
  as?: oauth.AuthorizationServer;
  verifier: string;
  state: string;
  nonce: string;
  stepsPath: string;
}

/**
 * Makes the authorization request as a redirecting browser would and answers where its sign-in
 * steps are. `loginHint` is the e-mail typed for a password; a passkey sign-in has none.
 */
export async function beginAuthorization(input: {
  realm: string;
  loginHint?: string;
  language?: string;
}): Promise<PendingAuthorization> {
  const as = await authorizationServer(input.realm);
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: CLIENT_ID,
    redirect_uri: redirectUri(),
    scope: 'openid profile email',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    // The user is signing in on this screen: the steps run even when a browser session exists.
    prompt: 'login',
    ...(input.loginHint ? { login_hint: input.loginHint } : {}),
    ...(input.language ? { ui_locales: input.language } : {}),
  }).toString();

  const hosted = await fetch(url, { credentials: 'same-origin' });
  const signInPage = new URL(hosted.url);
  if (!signInPage.pathname.startsWith('/login-actions/')) {
    const error = signInPage.searchParams.get('error');
    throw new OAuthRequestError(
      error ?? 'server_error',
      signInPage.searchParams.get('error_description') ?? '',
    );
  }
  return { realm: input.realm, as, verifier, state, nonce, stepsPath: signInPage.pathname };
}

/**
 * An authorization request begun by the server for a sign-in form posted without script (its
 * verifier, state and nonce kept in a cookie for the page): continued here as if the console
 * had made it; the realm's authorization server is read when the code is exchanged.
 */
export function resumeAuthorization(saved: {
  realm: string;
  verifier: string;
  state: string;
  nonce: string;
  stepsPath: string;
}): PendingAuthorization {
  const { realm, verifier, state, nonce, stepsPath } = saved;
  return { realm, verifier, state, nonce, stepsPath };
}

/**
 * The last step answered `done`: follows its address back into the authorization request,
 * which redirects to the console's callback with the code, and exchanges the code.
 */
export async function finishAuthorization(
  pending: PendingAuthorization,
  redirectTo: string,
): Promise<CodeFlowTokens> {
  const back = await fetch(redirectTo, { credentials: 'same-origin' });
  const as = pending.as ?? (await authorizationServer(pending.realm));
  return exchangeCode(as, new URL(back.url), pending);
}

/** Checks the callback's state and exchanges its code for the tokens (nonce checked). */
async function exchangeCode(
  as: oauth.AuthorizationServer,
  callback: URL,
  request: { state: string; verifier: string; nonce: string },
): Promise<CodeFlowTokens> {
  const params = oauth.validateAuthResponse(as, client, callback, request.state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.None(),
    params,
    redirectUri(),
    request.verifier,
    transport(),
  );
  const result = await oauth.processAuthorizationCodeResponse(as, client, response, {
    expectedNonce: request.nonce,
    requireIdToken: true,
  });
  if (!result.refresh_token) throw new OAuthRequestError('server_error', 'No refresh token');
  return {
    access_token: result.access_token,
    refresh_token: result.refresh_token,
    id_token: result.id_token,
  };
}

/**
 * The identity provider sent the browser back to the callback (`callback`: its address, with
 * the code and state) for a sign-in the server began (what it kept in the console's sign-in
 * cookie): the state is checked and the code exchanged for the tokens.
 */
export async function finishConsoleSignIn(
  signIn: ConsoleSignInCookie,
  callback: URL,
): Promise<CodeFlowTokens> {
  return exchangeCode(await authorizationServer(signIn.realm), callback, signIn);
}

/** Revokes a refresh token (RFC 7009); its grant, and so its session, ends with it. */
export async function revokeRefreshToken(realm: string, refreshToken: string): Promise<void> {
  const as = await authorizationServer(realm);
  const response = await oauth.revocationRequest(as, client, oauth.None(), refreshToken, {
    ...transport(),
    additionalParameters: { token_type_hint: 'refresh_token' },
  });
  await oauth.processRevocationResponse(response).catch(() => undefined);
}

/**
 * Where the browser goes to end its session at the identity provider (RP-initiated logout):
 * back to the sign-in screen afterwards.
 */
export function endSessionUrl(realm: string, idToken: string): string {
  const url = new URL(endpoints(realm).end_session_endpoint);
  url.search = new URLSearchParams({
    id_token_hint: idToken,
    client_id: CLIENT_ID,
    post_logout_redirect_uri: `${window.location.origin}${CONSOLE_CLIENT_PATHS.signedOut}`,
  }).toString();
  return url.toString();
}
