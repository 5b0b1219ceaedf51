import { expect, test } from '../fixtures';
import { expectSignedIn, logoutButton, openSignIn, signIn, signInScreen } from '../pages';
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
});
