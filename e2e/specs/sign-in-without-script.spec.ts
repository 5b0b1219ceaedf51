import type { Browser, Page } from '@playwright/test';
import * as oidc from 'openid-client';
import { expect, NEW_PASSWORD, test } from '../fixtures';
import { expectSignedIn, signIn, signInScreen } from '../pages';
import { consentPage, registerApp, startApplications, startSignIn } from '../relying-party';

/**
 * The sign-in pages arrive as HTML with working forms: with JavaScript turned off in Chromium,
 * each form posts to the server, which answers with the next page — errors included, in the
 * page's language. And a script that arrives late takes over what the form started.
 */
let stopApplications: () => Promise<void>;
test.beforeAll(async () => {
  stopApplications = await startApplications();
});
test.afterAll(() => stopApplications());

async function withoutScript<T>(browser: Browser, run: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    return await run(await context.newPage());
  } finally {
    await context.close();
  }
}

test.describe('sign-in pages without JavaScript', () => {
  test('a wrong password is refused on the page; the right one reaches the console', async ({
    browser,
    env,
  }) => {
    await withoutScript(browser, async (page) => {
      await page.goto(`${env.demoUrl}/login`);
      await expect(page.getByTestId('tenant-name')).toHaveText('demo');
      await signIn(page, { ...env.demoAdmin, password: 'Not-the-password-1!' });
      await expect(page.getByRole('alert')).toContainText('Login failed');
      await expect(signInScreen(page).email).toHaveValue(env.demoAdmin.email);
      await expect(signInScreen(page).password).toHaveValue('');

      await signInScreen(page).password.fill(env.demoAdmin.password);
      await signInScreen(page).submit.click();
      // Signed in at the identity provider and back with a code; the console itself needs script.
      await expect(page).toHaveURL(/\/auth\/callback\?code=/);
      // Shown by a browser without script (Playwright's locators do not read <noscript>).
      expect(await page.content()).toMatch(/<noscript>.*The console needs JavaScript/);
    });
  });

  test('the page speaks the chosen language, errors included', async ({ browser, env }) => {
    await withoutScript(browser, async (page) => {
      await page.goto(`${env.demoUrl}/login?lang=de`);
      await expect(page.locator('html')).toHaveAttribute('lang', 'de');
      await page.getByLabel('E-Mail').fill(env.demoAdmin.email);
      await page.getByLabel('Passwort', { exact: true }).fill('Nicht-das-Passwort-1!');
      await page.getByRole('button', { name: 'Anmelden' }).click();
      await expect(page.getByRole('alert')).toContainText('Anmeldung fehlgeschlagen');
    });
  });

  test('an application signs its user in through the hosted page', async ({ browser, env }) => {
    const app = await registerApp(env);
    await withoutScript(browser, async (page) => {
      const request = await startSignIn(page, app);
      await expect(page.getByTestId('tenant-name')).toHaveText('demo');
      await signIn(page, env.demoAdmin);
      // The consent page's form works without script too.
      await expect(consentPage(page).heading).toHaveText(`Allow Portal ${app.clientId}?`);
      await consentPage(page).allow.click();
      const tokens = await oidc.authorizationCodeGrant(app.config, await request.arrival(), {
        pkceCodeVerifier: request.verifier,
        expectedState: request.state,
        expectedNonce: request.nonce,
      });
      expect(tokens.claims()).toMatchObject({ email: env.demoAdmin.email });
    });
  });

  test('forgot password, the mailed link and a new password, then sign-in', async ({
    browser,
    freshTenant,
    mail,
  }) => {
    const tenant = await freshTenant();
    await withoutScript(browser, async (page) => {
      await page.goto(`${tenant.url}/forgotpassword`);
      await page.getByLabel(/e-?mail/i).fill(tenant.admin.email);
      await page.getByRole('button', { name: /send|reset/i }).click();
      await expect(page.getByText(tenant.admin.email)).toBeVisible();

      const link = mail.link(await mail.waitFor(tenant.admin.email, /reset/i), '/newpassword');
      await page.goto(link);
      await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel('Confirm password').fill(`${NEW_PASSWORD}x`);
      await page.getByRole('button', { name: 'Reset password' }).click();
      await expect(page.getByText('Passwords do not match.')).toBeVisible();

      await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel('Confirm password').fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Reset password' }).click();
      await expect(page).toHaveURL(/\/passwordreset$/);
      await expect(page.getByRole('heading', { name: 'Password reset' })).toBeVisible();

      await page.goto(`${tenant.url}/login`);
      await signIn(page, { email: tenant.admin.email, password: NEW_PASSWORD });
      await expect(page).toHaveURL(/\/auth\/callback\?code=/);
    });
  });

  test('sign-up shows what is missing, then asks to check the inbox', async ({
    browser,
    freshTenant,
  }) => {
    const tenant = await freshTenant({ allowSignup: true });
    await withoutScript(browser, async (page) => {
      await page.goto(`${tenant.url}/signup`);
      await page.getByLabel('Full name').fill('Nora Script');
      await page.getByLabel(/e-?mail/i).fill(`nora@${tenant.domain}`);
      await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel('Repeat password').fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Sign up' }).click();
      await expect(
        page.getByText('Please accept the terms of service and the privacy policy.'),
      ).toBeVisible();
      await expect(page.getByLabel('Full name')).toHaveValue('Nora Script');

      await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel('Repeat password').fill(NEW_PASSWORD);
      await page.getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Sign up' }).click();
      await expect(page.getByText(`nora@${tenant.domain}`)).toBeVisible();
    });
  });
});

test('a form sent before its script arrived is finished by the script', async ({ page, env }) => {
  // The sign-in page's scripts wait until the form has been sent.
  let release: () => void = () => undefined;
  const sent = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js'),
    async (route) => {
      await sent;
      await route.continue();
    },
  );
  // Module scripts hold back DOMContentLoaded: the test goes on once the page has arrived.
  await page.goto(`${env.demoUrl}/login`, { waitUntil: 'commit' });
  await signIn(page, env.demoAdmin);
  await expect(page).toHaveURL(/\/auth\/callback\?code=/, { timeout: 30_000 });
  release();
  await expectSignedIn(page, '/home');
});
