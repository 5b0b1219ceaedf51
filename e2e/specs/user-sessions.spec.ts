import { passwordGrant } from '../api-client';
import { expectSessionEnded, nextBearer } from '../ended-session';
import { expect, test } from '../fixtures';
import { expectSignedIn, openRowMenu, openSignedIn, openSignIn, signIn } from '../pages';
import { enrolTotpByApi, secondFactorStep, totpCode } from '../sign-in-steps';

/**
 * The Users screen's "Sessions and security" against the real server: an administrator ends
 * every session of a user (the user's browser is signed out at its next request) and resets
 * the user's second factors (the password alone signs in again).
 */
test.describe("users: a user's sessions and security", () => {
  test("an administrator signs a user out everywhere and resets the user's second factors", async ({
    page,
    browser,
    env,
    freshTenant,
  }) => {
    // A fresh tenant, a user with an authenticator, two browsers and four confirmations.
    test.setTimeout(180_000);
    const tenant = await freshTenant();
    const user = await tenant.readOnlyUser();
    const { secret } = await enrolTotpByApi(user.api);
    await expect(passwordGrant(env, tenant.name, user)).rejects.toThrow();

    const usersBrowser = await browser.newContext();
    try {
      const userPage = await usersBrowser.newPage();
      await openSignIn(userPage, tenant.url);
      await signIn(userPage, user);
      const step = secondFactorStep(userPage);
      await step.code.fill(totpCode(secret));
      const usersBearer = nextBearer(userPage);
      await step.verify.click();
      await expectSignedIn(userPage, '/home');
      const bearer = await usersBearer;

      await openSignedIn(page, tenant, '/dashboard/users');
      const menu = await openRowMenu(page, /Reed Only/);
      await menu.getByRole('menuitem', { name: 'Sessions and security' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sessions and security: Reed Only' });
      await expect(dialog).toContainText(/Authenticator app\s*Yes/);
      await expect(dialog).toContainText(/Recovery codes left\s*10/);
      const sessions = dialog.getByRole('table', { name: 'Sessions of Reed Only' });
      await expect(sessions.getByRole('row').nth(1)).toBeVisible();

      await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
      const askAll = page.getByRole('dialog', { name: 'Sign out everywhere?' });
      await askAll.getByRole('button', { name: 'Sign out everywhere' }).click();
      await expect(askAll).toHaveCount(0);
      await expect(dialog.getByText('No open sessions.')).toBeVisible();
      await expectSessionEnded(env, userPage, bearer);

      await dialog.getByRole('button', { name: 'Reset second factors' }).click();
      const askReset = page.getByRole('dialog', { name: 'Reset second factors?' });
      await expect(askReset).toContainText('must set up a second factor again');
      await askReset.getByRole('button', { name: 'Reset' }).click();
      await expect(askReset).toHaveCount(0);
      await expect(dialog).toContainText(/Authenticator app\s*No/);
      await expect(dialog).toContainText(/Recovery codes left\s*0/);
      await expect(dialog.getByRole('button', { name: 'Reset second factors' })).toBeDisabled();
      // The password alone signs the user in again, until they enrol anew.
      await passwordGrant(env, tenant.name, user);
    } finally {
      await usersBrowser.close();
    }
  });
});
