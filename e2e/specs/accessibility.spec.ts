import type { Page } from '@playwright/test';
import { expectAccessible } from '../axe';
import { expect, test } from '../fixtures';
import {
  expectSignedIn,
  navigation,
  openSignedIn,
  openSignIn,
  signIn,
  signInScreen,
} from '../pages';

/** Signed in as the demo admin on the home screen, both groups expanded, the chat open. */
async function openHomeWithChat(
  page: Page,
  env: { demoUrl: string; demoAdmin: { email: string; password: string } },
) {
  await openSignedIn(page, { url: env.demoUrl, name: 'demo', admin: env.demoAdmin });
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

/**
 * States the accessibility matrix (a11y-matrix.spec.ts) does not reach: each screen there is
 * analysed as it first opens. One axe analysis per test: each takes seconds on a loaded
 * 2-core machine.
 */
test.describe('accessibility of states after interaction', () => {
  test('sign in with an error line shown', async ({ page, env }) => {
    test.setTimeout(60_000);
    await openSignIn(page, env.demoUrl);
    await signIn(page, { email: env.demoAdmin.email, password: 'Wrong-password-1!' });
    await expect(page.getByText(/^Login failed: /)).toBeVisible();
    await expectAccessible(page, 'sign in with an error');
  });

  test('home with the navigation groups expanded and the chat open', async ({ page, env }) => {
    test.setTimeout(60_000);
    await openHomeWithChat(page, env);
    await expectAccessible(page, 'home, groups expanded, chat open');
  });

  test('the unknown-tenant error', async ({ page, env }) => {
    test.setTimeout(60_000);
    await page.goto(`http://nobody.localhost:${env.port}/`);
    await expect(page.getByText('Error: Tenant not identified.')).toBeVisible();
    await expect(signInScreen(page).submit).toHaveCount(0);
    await expectAccessible(page, 'tenant not identified');
  });
});
