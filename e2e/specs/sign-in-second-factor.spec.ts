import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';
import { expect, test } from '../fixtures';
import { expectSignedIn, logoutButton, openSignIn, signIn, signInScreen } from '../pages';
import { consentPage } from '../relying-party';
import {
  enrolStep,
  enrolTotpByApi,
  recoveryCodesStep,
  secondFactorStep,
  setMfaPolicy,
  shownSecret,
  totpCode,
  wrongTotpCode,
} from '../sign-in-steps';

/** The pages of an application of the tenant's: the browser's arrival there ends a sign-in. */
let appServer: Server;
let APP_ORIGIN = '';
test.beforeAll(async () => {
  appServer = createServer((_request, response) => response.end('the application'));
  await new Promise<void>((resolve) => appServer.listen(0, '127.0.0.1', resolve));
  APP_ORIGIN = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((resolve) => appServer.close(() => resolve())));

test.describe('sign-in: the second factor after the password', () => {
  test('an authenticator code is asked for after the password; a wrong one is refused', async ({
    page,
    freshTenant,
  }) => {
    // A fresh tenant, its user's password from the mail, and two sign-in steps.
    test.setTimeout(90_000);
    const tenant = await freshTenant();
    const user = await tenant.readOnlyUser();
    const { secret } = await enrolTotpByApi(user.api);

    await openSignIn(page, tenant.url);
    await signIn(page, user);
    const step = secondFactorStep(page);
    await expect(step.heading).toBeVisible();
    await expect(step.code).toBeFocused();
    await expect(step.code).toHaveAttribute('autocomplete', 'one-time-code');

    await step.code.fill(wrongTotpCode(secret));
    await step.verify.click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'That code is not right.' }),
    ).toBeVisible();
    await expect(page).not.toHaveURL(/\/home$/);

    await step.code.fill(totpCode(secret));
    await step.verify.click();
    await expectSignedIn(page, '/home');
  });

  test('a recovery code signs in once', async ({ page, freshTenant }) => {
    // Two sign-ins with their second steps, and a third refused at the code.
    test.setTimeout(120_000);
    const tenant = await freshTenant();
    const user = await tenant.readOnlyUser();
    const { recoveryCodes } = await enrolTotpByApi(user.api);
    const recoveryCode = recoveryCodes[0]!;
    const step = secondFactorStep(page);

    await openSignIn(page, tenant.url);
    await signIn(page, user);
    await step.useRecoveryCode.click();
    await step.recoveryCode.fill(recoveryCode);
    await step.verify.click();
    await expectSignedIn(page, '/home');

    await logoutButton(page).click();
    await expect(signInScreen(page).submit).toBeVisible();
    await signIn(page, user);
    await step.useRecoveryCode.click();
    await step.recoveryCode.fill(recoveryCode);
    await step.verify.click();
    await expect(
      page
        .getByRole('alert')
        .filter({ hasText: 'That recovery code is not valid or has already been used.' }),
    ).toBeVisible();
    await expect(step.verify).toBeEnabled();
    await expect(page).not.toHaveURL(/\/home$/);
  });

  test('"required for everyone" enrols a user right after the password', async ({
    page,
    freshTenant,
  }) => {
    test.setTimeout(90_000);
    const tenant = await freshTenant();
    const user = await tenant.readOnlyUser();
    await setMfaPolicy(tenant.api, 'everyone');

    await openSignIn(page, tenant.url);
    await signIn(page, user);
    const enrol = enrolStep(page);
    await expect(enrol.heading).toBeVisible();
    await expect(enrol.qrCode).toBeVisible();
    const secret = await shownSecret(page);
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);

    await enrol.code.fill(wrongTotpCode(secret));
    await enrol.confirm.click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'That code is not right.' }),
    ).toBeVisible();
    await enrol.code.fill(totpCode(secret));
    await enrol.confirm.click();

    const codes = recoveryCodesStep(page);
    await expect(codes.heading).toBeVisible();
    await expect(codes.codes).toHaveCount(10);
    // Shown once, and nothing signed in until the user goes on.
    await expect(page).not.toHaveURL(/\/home$/);
    await codes.continue.click();
    await expectSignedIn(page, '/home');
  });

  test("an application's user gives the code on the hosted page and arrives signed in", async ({
    page,
    env,
    freshTenant,
  }) => {
    test.setTimeout(90_000);
    const tenant = await freshTenant();
    const user = await tenant.readOnlyUser();
    const { secret } = await enrolTotpByApi(user.api);
    const clientId = `app-${randomBytes(4).toString('hex')}`;
    const callback = `${APP_ORIGIN}/${clientId}/callback`;
    await tenant.api('POST', '/clients/create', {
      clientId,
      name: `Portal ${clientId}`,
      type: 'public',
      redirectUris: [callback],
      grantTypes: ['authorization_code', 'refresh_token'],
    });
    const config = await oidc.discovery(
      new URL(`${env.adminUrl}/realms/${tenant.name}`),
      clientId,
      undefined,
      oidc.None(),
      { execute: [oidc.allowInsecureRequests] },
    );
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: callback,
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });

    await page.goto(url.href);
    await signIn(page, user);
    const step = secondFactorStep(page);
    await step.code.fill(totpCode(secret));
    await step.verify.click();
    // A third party: its first sign-in of the user asks for consent.
    await consentPage(page).allow.click();
    await page.waitForURL((address) => address.href.startsWith(callback));
    const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.claims()).toMatchObject({ aud: clientId, email: user.email });
  });
});
