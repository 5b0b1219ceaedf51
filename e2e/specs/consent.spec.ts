import * as oidc from 'openid-client';
import { expect, test } from '../fixtures';
import { signIn, signInTo } from '../pages';
import { consentPage, registerApp, startApplications, startSignIn } from '../relying-party';

let stopApplications: () => Promise<void>;
test.beforeAll(async () => {
  stopApplications = await startApplications();
});
test.afterAll(() => stopApplications());

/**
 * Consent to a third-party application (openid-client as the application): the page between
 * the sign-in and the code, and the account page's Applications, where it is withdrawn.
 */
test.describe('consent to a third-party application', () => {
  test('the page names the application and what it asks for; Deny sends access_denied', async ({
    page,
    env,
  }) => {
    const app = await registerApp(env);
    const request = await startSignIn(page, app);
    await signIn(page, env.demoAdmin);
    const consent = consentPage(page);
    await expect(consent.heading).toHaveText(`Allow Portal ${app.clientId}?`);
    await expect(page.getByTestId('tenant-name')).toHaveText('demo');
    const asks = page.getByRole('list', { name: /asks to use your demo account/ });
    await expect(asks.getByRole('listitem')).toHaveText([
      "Know who you are (your account's identifier)",
      'See your name and language',
      'See your email address',
    ]);
    await consent.deny.click();
    const callback = await request.arrival();
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('code')).toBeNull();
  });

  test('allowed once it asks no more; withdrawn on the account page, its tokens end and it asks again', async ({
    page,
    env,
  }) => {
    const app = await registerApp(env);
    const first = await startSignIn(page, app);
    await signIn(page, env.demoAdmin);
    await consentPage(page).allow.click();
    const tokens = await oidc.authorizationCodeGrant(app.config, await first.arrival(), {
      pkceCodeVerifier: first.verifier,
      expectedState: first.state,
      expectedNonce: first.nonce,
    });
    // The browser's session and the consent on record: straight back with a code.
    const second = await startSignIn(page, app);
    expect((await second.arrival()).searchParams.get('code')).toBeTruthy();

    await signInTo(page, { url: env.demoUrl, admin: env.demoAdmin });
    await page.goto(`${env.demoUrl}/account`);
    const name = `Portal ${app.clientId}`;
    const entry = page
      .getByRole('list', { name: 'Applications' })
      .getByRole('listitem')
      .filter({ hasText: name });
    await expect(entry).toContainText(
      'May: know who you are, see your name and language, see your email address',
    );
    await entry.getByRole('button', { name: `Withdraw ${name}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Withdraw' }).click();
    await expect(entry).toHaveCount(0);

    await expect(oidc.refreshTokenGrant(app.config, tokens.refresh_token!)).rejects.toThrow();
    await startSignIn(page, app);
    await expect(consentPage(page).allow).toBeVisible();
  });
});
