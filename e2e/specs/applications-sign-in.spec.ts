import * as oidc from 'openid-client';
import { expect, test } from '../fixtures';
import { signIn, signInScreen } from '../pages';
import { consentPage, registerApp, startApplications, startSignIn } from '../relying-party';

let stopApplications: () => Promise<void>;
test.beforeAll(async () => {
  stopApplications = await startApplications();
});
test.afterAll(() => stopApplications());

test.describe('applications sign in through the hosted page (openid-client)', () => {
  test('code flow: hosted sign-in, code exchange, ID token, userinfo, refresh, revocation', async ({
    page,
    env,
  }) => {
    const app = await registerApp(env);
    const request = await startSignIn(page, app);
    await expect(page.getByTestId('tenant-name')).toHaveText('demo');
    await signIn(page, env.demoAdmin);
    // A third party: the user allows it first (its consent is the subject of consent.spec.ts).
    await consentPage(page).allow.click();
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
    // The tenant's own applications: single sign-on without a consent page between.
    const first = await registerApp(env, { firstParty: true });
    const second = await registerApp(env, { firstParty: true });
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
