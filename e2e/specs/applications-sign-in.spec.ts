import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import * as oidc from 'openid-client';
import { apiAs } from '../api-client';
import type { E2eEnv } from '../env';
import { expect, test } from '../fixtures';
import { signIn, signInScreen } from '../pages';

/**
 * A tenant's own applications sign their users in through the identity provider's hosted page,
 * with openid-client as the relying party: a real browser on the sign-in page, real protocol
 * messages on both sides. The applications' pages are one plain local server; the browser's
 * arrival there is what the tests wait for.
 */
let appServer: Server;
let APP_ORIGIN = '';

test.beforeAll(async () => {
  appServer = createServer((_request, response) => response.end('the application'));
  await new Promise<void>((resolve) => appServer.listen(0, '127.0.0.1', resolve));
  APP_ORIGIN = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((resolve) => appServer.close(() => resolve())));

interface RegisteredApp {
  clientId: string;
  config: oidc.Configuration;
  callback: string;
  signedOut: string;
}

async function registerApp(env: E2eEnv): Promise<RegisteredApp> {
  const clientId = `app-${randomBytes(4).toString('hex')}`;
  const callback = `${APP_ORIGIN}/${clientId}/callback`;
  const signedOut = `${APP_ORIGIN}/${clientId}/signed-out`;
  const { api } = apiAs(env, 'demo', env.demoAdmin);
  await api('POST', '/clients/create', {
    clientId,
    name: `Portal ${clientId}`,
    type: 'public',
    redirectUris: [callback],
    postLogoutRedirectUris: [signedOut],
    webOrigins: [],
    grantTypes: ['authorization_code', 'refresh_token'],
    serviceRoleIds: [],
    idTokenSignedResponseAlg: 'RS256',
  });
  const config = await oidc.discovery(
    new URL(`${env.adminUrl}/realms/demo`),
    clientId,
    undefined,
    oidc.None(),
    { execute: [oidc.allowInsecureRequests] },
  );
  return { clientId, config, callback, signedOut };
}

async function startSignIn(page: Page, app: RegisteredApp) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(app.config, {
    redirect_uri: app.callback,
    scope: 'openid profile email',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  await page.goto(url.href);
  // The application's page has loaded: the browser is done with the identity provider.
  const arrival = async () => {
    await page.waitForURL((address) => address.href.startsWith(app.callback));
    return new URL(page.url());
  };
  return { verifier, state, nonce, arrival };
}

test.describe('applications sign in through the hosted page (openid-client)', () => {
  test('code flow: hosted sign-in, code exchange, ID token, userinfo, refresh, revocation', async ({
    page,
    env,
  }) => {
    const app = await registerApp(env);
    const request = await startSignIn(page, app);
    await expect(page.getByTestId('tenant-name')).toHaveText('demo');
    await signIn(page, env.demoAdmin);
    const callback = await request.arrival();

    const tokens = await oidc.authorizationCodeGrant(app.config, callback, {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ aud: app.clientId, email: env.demoAdmin.email });
    const info = await oidc.fetchUserInfo(app.config, tokens.access_token, claims.sub);
    expect(info.email).toBe(env.demoAdmin.email);
    const refreshed = await oidc.refreshTokenGrant(app.config, tokens.refresh_token!);
    await oidc.tokenRevocation(app.config, refreshed.refresh_token!);
    await expect(oidc.refreshTokenGrant(app.config, refreshed.refresh_token!)).rejects.toThrow();
  });

  test('a second application signs in without the password; not after logout', async ({
    page,
    env,
  }) => {
    const first = await registerApp(env);
    const second = await registerApp(env);
    const firstRequest = await startSignIn(page, first);
    await signIn(page, env.demoAdmin);
    const tokens = await oidc.authorizationCodeGrant(first.config, await firstRequest.arrival(), {
      pkceCodeVerifier: firstRequest.verifier,
      expectedState: firstRequest.state,
      expectedNonce: firstRequest.nonce,
    });

    // Single sign-on: straight back to the second application, no sign-in page.
    const secondRequest = await startSignIn(page, second);
    expect((await secondRequest.arrival()).searchParams.get('code')).toBeTruthy();

    // The first application ends the browser session (RP-initiated logout).
    const signedOut = page.waitForRequest((request) => request.url().startsWith(first.signedOut));
    const logout = oidc.buildEndSessionUrl(first.config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: first.signedOut,
      state: 'bye',
    });
    await page.goto(logout.href);
    expect(new URL((await signedOut).url()).searchParams.get('state')).toBe('bye');

    await startSignIn(page, second);
    await expect(signInScreen(page).submit).toBeVisible();
  });
});
