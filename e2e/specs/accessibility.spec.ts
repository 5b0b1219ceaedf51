import type { Page } from '@playwright/test';
import { expectAccessible } from '../axe';
import { expect, test } from '../fixtures';
import { expectSignedIn, navigation, openSignIn, signIn, signInScreen } from '../pages';

/** Signed in as the demo admin on the home screen, both groups expanded, the chat open. */
async function openHomeWithChat(
  page: Page,
  env: { demoUrl: string; demoAdmin: { email: string; password: string } },
) {
  await openSignIn(page, env.demoUrl);
  await signIn(page, env.demoAdmin);
  await expectSignedIn(page, '/home');
  const nav = navigation(page);
  for (const group of ['Projects', 'Administration']) {
    const toggle = nav.getByRole('button', { name: group, exact: true });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  }
  await expect(nav.getByRole('link', { name: 'Users', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Open chat' }).click();
  await expect(page.getByPlaceholder('Ask me something...')).toBeVisible();
}

test.describe('accessibility (axe-core, WCAG 2.1 AA)', () => {
  test('sign in', async ({ page, env }) => {
    await openSignIn(page, env.demoUrl);
    await expectAccessible(page, 'sign in');
    // With an error line shown, too.
    await signIn(page, { email: env.demoAdmin.email, password: 'Wrong-password-1!' });
    await expect(page.getByText(/^Login failed: /)).toBeVisible();
    await expectAccessible(page, 'sign in with an error');
  });

  test('sign up', async ({ page, env }) => {
    await page.goto(`${env.demoUrl}/signup`);
    await expect(page.getByRole('button', { name: 'Sign up', exact: true })).toBeVisible();
    await expectAccessible(page, 'sign up');
  });

  test('forgot password and check your email', async ({ page, env }) => {
    await page.goto(`${env.demoUrl}/forgotpassword?email=marco.rossi%40demo.localhost`);
    await expect(page.getByRole('button', { name: 'Reset password' })).toBeVisible();
    await expectAccessible(page, 'forgot password');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await expect(page).toHaveURL(/\/checkemail$/);
    await expect(
      page.getByText('We sent a password reset link to marco.rossi@demo.localhost'),
    ).toBeVisible();
    await expectAccessible(page, 'check your email');
  });

  test('set new password', async ({ page, env }) => {
    await page.goto(`${env.demoUrl}/newpassword?token=not-a-real-token`);
    await expect(page.getByRole('button', { name: 'Reset password' })).toBeVisible();
    await expectAccessible(page, 'set new password');
  });

  test('password reset', async ({ page, env }) => {
    await page.goto(`${env.demoUrl}/passwordreset`);
    await expect(page.getByRole('heading', { name: 'Password reset' })).toBeVisible();
    await expectAccessible(page, 'password reset');
  });

  // One axe analysis per test: each takes seconds on a loaded 2-core machine.
  test('home with the layout shell', async ({ page, env }) => {
    test.setTimeout(60_000);
    await openSignIn(page, env.demoUrl);
    await signIn(page, env.demoAdmin);
    await expectSignedIn(page, '/home');
    await expectAccessible(page, 'home');
  });

  test('home with the navigation groups expanded and the chat open', async ({ page, env }) => {
    test.setTimeout(60_000);
    await openHomeWithChat(page, env);
    await expectAccessible(page, 'home, groups expanded, chat open');
  });

  test('home in dark mode with the chat open', async ({ page, env }) => {
    test.setTimeout(60_000);
    await openHomeWithChat(page, env);
    const darkMode = page
      .getByRole('switch', { name: /dark mode/i })
      .or(page.getByRole('checkbox', { name: /dark mode/i }));
    await darkMode.check();
    await expect(darkMode).toBeChecked();
    await expectAccessible(page, 'home, dark, groups expanded, chat open');
  });

  test('the unknown-tenant error', async ({ page, env }) => {
    await page.goto(`http://nobody.localhost:${env.port}/`);
    await expect(page.getByText('Error: Tenant not identified.')).toBeVisible();
    await expect(signInScreen(page).submit).toHaveCount(0);
    await expectAccessible(page, 'tenant not identified');
  });
});
