import { expect, NEW_PASSWORD, test, uniqueEmail, type Page } from '../fixtures';
import { expectSignedIn, openSignIn, signIn, signInScreen } from '../pages';

const FIRST_PASSWORD = 'First-passw0rd!2026';

/** The Set new password screen: Password, Confirm password, Reset password. */
async function setNewPassword(page: Page, password: string) {
  await page.getByLabel(/^(new )?password\s*\*?$/i).fill(password);
  await page.getByLabel(/^confirm (new )?password\s*\*?$/i).fill(password);
  await page.getByRole('button', { name: 'Reset password' }).click();
  // Password reset success.
  await expect(page).toHaveURL(/\/passwordreset$/);
  await expect(page.getByRole('heading', { name: 'Password reset' })).toBeVisible();
  await expect(
    page.getByText('Your password has been successfully reset. Click below to log in magically.'),
  ).toBeVisible();
}

test.describe('account flows', () => {
  test('forgot password, end to end through the mail', async ({ page, env, api, mail }) => {
    // Two mails, two password forms and a sign-in through the code flow: 28–31 s on a loaded
    // 2-core machine.
    test.setTimeout(60_000);
    // A fresh user: invited by the demo admin, who sets a first password from the mail.
    const { email } = await api.inviteUser({ firstName: 'Fiona' });
    const invitation = await mail.waitFor(email, /\/newpassword\?token=/);
    await page.goto(mail.link(invitation, '/newpassword'));
    await setNewPassword(page, FIRST_PASSWORD);

    // Forgot password, from the sign-in screen's link (it carries the typed e-mail).
    await openSignIn(page, env.demoUrl);
    await signInScreen(page).email.fill(email);
    await signInScreen(page).forgotPassword.click();
    await expect(page).toHaveURL(/\/forgotpassword/);
    const emailField = page.getByLabel(/^e-?mail( address)?\s*\*?$/i);
    await expect(emailField).toHaveValue(email);
    await page.getByRole('button', { name: 'Reset password' }).click();

    await expect(page).toHaveURL(/\/checkemail$/);
    await expect(page.getByText(`We sent a password reset link to ${email}`)).toBeVisible();

    const reset = await mail.waitFor(email, /reset/i);
    expect(reset.index).toBeGreaterThan(invitation.index);
    await page.goto(mail.link(reset, '/newpassword'));
    await setNewPassword(page, NEW_PASSWORD);

    // Back to Login, then the new password works and the old one does not.
    await page.getByRole('link', { name: 'Back to Login' }).click();
    await expect(signInScreen(page).submit).toBeVisible();
    await signIn(page, { email, password: FIRST_PASSWORD });
    await expect(page.getByText(/^Login failed: /)).toBeVisible();
    await signIn(page, { email, password: NEW_PASSWORD });
    await expectSignedIn(page, '/home');
  });

  test('a reset link works once', async ({ page, api, mail }) => {
    const { email } = await api.inviteUser({ firstName: 'Owen' });
    const invitation = await mail.waitFor(email, /\/newpassword\?token=/);
    const link = mail.link(invitation, '/newpassword');
    await page.goto(link);
    await setNewPassword(page, FIRST_PASSWORD);

    await page.goto(link);
    await page.getByLabel(/^(new )?password\s*\*?$/i).fill(NEW_PASSWORD);
    await page.getByLabel(/^confirm (new )?password\s*\*?$/i).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await expect(
      page.getByText('This link has expired or was already used. Ask for a new one.'),
    ).toBeVisible();
  });

  test('sign-up with e-mail verification, then sign in', async ({ page, env, mail }) => {
    const email = uniqueEmail('signup');
    await openSignIn(page, env.demoUrl);
    await signInScreen(page).signUp.click();
    await expect(page).toHaveURL(/\/signup$/);

    await page.getByLabel(/^full name\s*\*?$/i).fill('Sam Signup');
    await page.getByLabel(/^e-?mail( address)?\s*\*?$/i).fill(email);
    await page.getByLabel(/^password\s*\*?$/i).fill(NEW_PASSWORD);
    await page.getByLabel(/^(repeat|confirm) password\s*\*?$/i).fill(NEW_PASSWORD);
    await page.getByRole('checkbox', { name: /terms|privacy|agree/i }).check();
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    // The confirmation names the address the verification link went to.
    await expect(page.getByText(email).first()).toBeVisible();

    const verification = await mail.waitFor(email, /\/verifyemail\?token=/);
    const verified = page.waitForResponse(
      (response) =>
        response.url().endsWith('/api/v1.0/auth/verify-email') &&
        response.request().method() === 'POST',
    );
    await page.goto(mail.link(verification, '/verifyemail'));
    expect((await verified).ok()).toBe(true);

    await openSignIn(page, env.demoUrl);
    await signIn(page, { email, password: NEW_PASSWORD });
    await expectSignedIn(page, '/home');
  });
});
