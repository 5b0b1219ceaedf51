import { expect, test } from '../fixtures';
import { expectSignedIn, navigation, openSignIn, signIn, signInScreen } from '../pages';

test.describe('sign in', () => {
  test('the super administrator lands on /dashboard/tenants with Tenants in the navigation', async ({
    page,
    env,
  }) => {
    await openSignIn(page, env.adminUrl);
    await signIn(page, env.superAdmin);
    await expectSignedIn(page, '/dashboard/tenants');
    await expect(navigation(page).getByText('Tenants', { exact: true })).toBeVisible();
  });

  test('the demo tenant admin lands on /home with Home, Projects and Administration', async ({
    page,
    env,
  }) => {
    await openSignIn(page, env.demoUrl);
    await signIn(page, env.demoAdmin);
    await expectSignedIn(page, '/home');
    const nav = navigation(page);
    for (const entry of ['Home', 'Projects', 'Administration']) {
      await expect(nav.getByText(entry, { exact: true }).first()).toBeVisible();
    }
    // Tenants is for super administrators only.
    await expect(nav.getByText('Tenants', { exact: true })).toHaveCount(0);
    // The tenant card links to this console, with its scheme and port.
    await expect(nav.getByRole('link', { name: 'demo.localhost' })).toHaveAttribute(
      'href',
      env.demoUrl,
    );
  });

  test('a wrong password shows the provider message and re-enables "Sign in"', async ({
    page,
    env,
  }) => {
    await openSignIn(page, env.demoUrl);
    const screen = signInScreen(page);
    // Hold the password step (the hosted sign-in's POST, which answers a wrong password) to
    // see the busy state: disabled, "Signing in...".
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/login-actions/*/*/login', async (route) => {
      await held;
      await route.continue();
    });
    await signIn(page, { email: env.demoAdmin.email, password: 'Not-the-password-1!' });
    const busy = page.getByRole('button', { name: 'Signing in...' });
    await expect(busy).toBeVisible();
    await expect(busy).toBeDisabled();
    release();
    await expect(
      page.getByText('Login failed: Authentication failed: Invalid user credentials'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();
    await expect(page).not.toHaveURL(/\/home$/);
    // The typed e-mail stays, so a second attempt is one field away.
    await expect(screen.email).toHaveValue(env.demoAdmin.email);
  });

  test('someone signed in who opens the sign-in page goes on to the console', async ({
    page,
    env,
  }) => {
    await openSignIn(page, env.demoUrl);
    await signIn(page, env.demoAdmin);
    await expectSignedIn(page, '/home');
    await page.goto(`${env.demoUrl}/login`);
    await expectSignedIn(page, '/home');
  });
});
