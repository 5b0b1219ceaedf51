import { everyLanguage, exactly, expectCombo, prepare, text } from '../a11y-matrix';
import { expectAccessible } from '../axe';
import { expect, test } from '../fixtures';
import { scripted } from '../pages';
import { setMfaPolicy, shownSecret, totpCode, wrongTotpCode } from '../sign-in-steps';

/**
 * The sign-in steps after the password in every language, with axe's full rule set on each:
 * the enrolment a tenant requires, the recovery codes, and the second factor with a refusal
 * shown. English in the dark scheme, where contrast differs most; the others light.
 */

for (const combo of everyLanguage) {
  const { language } = combo;
  const say = (key: string) => exactly(text(language, key));

  test(`sign-in steps (${language}, ${combo.theme}): no serious axe violation`, async ({
    page,
    freshTenant,
  }) => {
    // A fresh tenant, two sign-ins and three analyses of a whole screen on a loaded machine.
    test.setTimeout(180_000);
    const tenant = await freshTenant();
    const user = await tenant.readOnlyUser();
    await setMfaPolicy(tenant.api, 'everyone');
    await prepare(page, combo);

    const signIn = async () => {
      await page.goto(`${tenant.url}/`);
      // The scripted page is under test here (the pages before their script have tests of
      // their own). Typed into while its script was taking over, on a loaded machine, the
      // page once answered "Invalid user credentials" to the right password.
      await scripted(page);
      await page.getByLabel(say('auth.email')).fill(user.email);
      await page.getByLabel(say('auth.password')).fill(user.password);
      await page.getByRole('button', { name: say('signIn.submit') }).click();
    };

    await signIn();
    await expect(page.getByRole('heading', { name: say('signInSteps.enrol.title') })).toBeVisible();
    await expect(page.getByRole('img', { name: say('second-factor:totp.qrLabel') })).toBeVisible();
    await expectCombo(page, combo);
    await expectAccessible(page, `enrolment (${language}, ${combo.theme})`);

    const secret = await shownSecret(page);
    await page.getByLabel(say('second-factor:totp.code')).fill(totpCode(secret));
    await page.getByRole('button', { name: say('signInSteps.enrol.confirm') }).click();
    await expect(
      page.getByRole('heading', { name: say('signInSteps.recoveryCodes.title') }),
    ).toBeVisible();
    await expectAccessible(page, `recovery codes (${language}, ${combo.theme})`);

    // The authenticator is confirmed: the next sign-in asks for its code.
    await signIn();
    await expect(
      page.getByRole('heading', { name: say('signInSteps.secondFactor.title') }),
    ).toBeVisible();
    await page.getByLabel(say('signInSteps.secondFactor.code')).fill(wrongTotpCode(secret));
    await page.getByRole('button', { name: say('signInSteps.secondFactor.verify') }).click();
    await expect(page.getByRole('alert')).toHaveText(
      text(language, 'signInSteps.errors.wrongCode'),
    );
    await expectCombo(page, combo);
    await expectAccessible(page, `second factor (${language}, ${combo.theme})`);
  });
}
