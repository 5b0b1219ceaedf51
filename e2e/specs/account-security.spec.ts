import { passwordGrant } from '../api-client';
import { expectAccessible, settled } from '../axe';
import { expectSessionEnded, nextBearer } from '../ended-session';
import type { Browser } from '@playwright/test';
import { expect, NEW_PASSWORD, test, type Page } from '../fixtures';
import { expectSignedIn, openSignedIn, signInTo } from '../pages';
import { addVirtualAuthenticator, totpCode } from '../sign-in-steps';
import type { FreshTenant } from '../tenant-fixture';

/**
 * The account page against the real server: the authenticator app set up through the page
 * (the key read from the screen, the code computed as an app would), a passkey made by
 * Chromium's virtual authenticator, and sessions ended from another browser's point of view.
 */

/** Opens the account page from the user card, as a user would. */
async function openAccount(page: Page) {
  await page.getByRole('link', { name: 'Account' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
}

/**
 * The tenant's administrator signed in from another browser (whose access token is kept as it
 * was sent), then in this one on the account page; `check` ends the other browser's session
 * and proves it ended, and the other browser is closed whatever happens.
 */
async function withAnotherSession(
  page: Page,
  browser: Browser,
  tenant: FreshTenant,
  check: (other: { page: Page; bearer: string }) => Promise<void>,
) {
  const other = await browser.newContext();
  try {
    const otherPage = await other.newPage();
    const otherBearer = nextBearer(otherPage);
    await signInTo(otherPage, tenant);
    const bearer = await otherBearer;
    await signInTo(page, tenant);
    await openAccount(page);
    await check({ page: otherPage, bearer });
  } finally {
    await other.close();
  }
}

test.describe('account page', () => {
  test('sets up the authenticator app: QR code and key, the first code, ten recovery codes once', async ({
    page,
    env,
    freshTenant,
  }) => {
    // A fresh tenant, a sign-in, an enrolment and two analyses of a whole screen.
    test.setTimeout(150_000);
    const tenant = await freshTenant();
    await openSignedIn(page, tenant);
    await openAccount(page);

    const section = page.getByRole('region', { name: 'Authenticator app' });
    await section.getByRole('button', { name: 'Set up' }).click();
    await expect(
      section.getByRole('img', { name: 'QR code that adds your account to an authenticator app' }),
    ).toBeVisible();
    await expectAccessible(page, 'authenticator enrolment');
    const secret = await section.getByRole('textbox', { name: 'Key' }).inputValue();
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);

    await section.getByRole('textbox', { name: /^Code from the app/ }).fill(totpCode(secret));
    await section.getByRole('button', { name: 'Confirm' }).click();

    const dialog = page.getByRole('dialog', { name: 'Your recovery codes' });
    const codes = dialog.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    const first = (await codes.first().innerText()).trim();
    await settled(page);
    await expectAccessible(page, 'recovery codes dialog');
    await dialog.getByRole('button', { name: 'I have saved them' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByText(first)).toHaveCount(0);
    await expect(section.getByText('10 recovery codes left.')).toBeVisible();

    // The app is confirmed: the password alone no longer gets tokens.
    await expect(passwordGrant(env, tenant.name, tenant.admin)).rejects.toThrow();
  });

  test('adds, renames and removes a passkey made by the browser', async ({ page, freshTenant }) => {
    test.setTimeout(120_000);
    const tenant = await freshTenant();
    // The console is on the tenant's own address, whose domain is the relying party.
    await addVirtualAuthenticator(page);
    await openSignedIn(page, tenant);
    await openAccount(page);
    const section = page.getByRole('region', { name: 'Passkeys' });
    await expect(section.getByText('No passkeys yet.')).toBeVisible();

    await section.getByRole('button', { name: 'Add a passkey' }).click();
    const add = page.getByRole('dialog', { name: 'Add a passkey' });
    await add.getByRole('textbox', { name: /^Name/ }).fill('Laptop');
    await add.getByRole('button', { name: 'Continue' }).click();
    await expect(add).toHaveCount(0);
    const list = section.getByRole('list', { name: 'Passkeys' });
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(list).toContainText('Laptop');
    await expect(list).toContainText('Last used never');

    await section.getByRole('button', { name: 'Rename Laptop' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename passkey' });
    await rename.getByRole('textbox', { name: /^Name/ }).fill('Work laptop');
    await rename.getByRole('button', { name: 'Save name' }).click();
    await expect(list).toContainText('Work laptop');

    await section.getByRole('button', { name: 'Remove Work laptop' }).click();
    const remove = page.getByRole('dialog', { name: 'Remove passkey?' });
    await remove.getByRole('button', { name: 'Remove passkey' }).click();
    await expect(section.getByText('No passkeys yet.')).toBeVisible();
  });

  test('removing the authenticator app in a session without a recent proof asks for the password, then removes it', async ({
    page,
    env,
    freshTenant,
  }) => {
    test.setTimeout(120_000);
    const tenant = await freshTenant();
    const bearer = nextBearer(page);
    await signInTo(page, tenant);
    // The app is set up in another session (the fixture's API), which just signed in.
    const { secret } = await tenant.api<{ secret: string }>('POST', '/account/mfa/totp/setup');
    await tenant.api('POST', '/account/mfa/totp/confirm', { code: totpCode(secret) });
    // A wrong proof ends this session's recent one (its sign-in's): the state of a session
    // signed in long ago, reached without waiting for the window to pass.
    const wrong = await fetch(`${env.adminUrl}/api/v1.0/account/reverify`, {
      method: 'POST',
      headers: { authorization: await bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'Not-the-password-1!' }),
    });
    expect(wrong.status).toBe(400);

    // On a phone.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${tenant.url}/account`);
    const section = page.getByRole('region', { name: 'Authenticator app' });
    await expect(section.getByText('On', { exact: true })).toBeVisible();
    await section.getByRole('button', { name: 'Remove' }).click();
    await page
      .getByRole('dialog', { name: 'Remove the authenticator app?' })
      .getByRole('button', { name: 'Remove app' })
      .click();

    const proof = page.getByRole('dialog', { name: 'Confirm it is you' });
    const password = proof.getByLabel(/^Current password/);
    await expect(password).toBeFocused();
    await settled(page);
    await expectAccessible(page, 'reverification dialog');
    await page.keyboard.type('Not-the-password-2!');
    await page.keyboard.press('Enter');
    await expect(proof.getByText('This is not your current password.')).toBeVisible();

    await password.fill(tenant.admin.password);
    await expect(proof.getByRole('button', { name: 'Confirm' })).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(proof).toHaveCount(0);
    await expect(section.getByText('Off', { exact: true })).toBeVisible();
  });

  test("signing out all other sessions ends another browser's session at its next call", async ({
    page,
    env,
    browser,
    freshTenant,
  }) => {
    // A fresh tenant and two sign-ins in two browsers.
    test.setTimeout(120_000);
    const tenant = await freshTenant();
    await withAnotherSession(page, browser, tenant, async (other) => {
      const sessions = page.getByRole('table', { name: 'Open sessions' });
      await expect(sessions.getByRole('row').filter({ hasText: 'This device' })).toHaveCount(1);
      // The header, this browser's session and at least the other browser's.
      expect(await sessions.getByRole('row').count()).toBeGreaterThan(2);
      await page.getByRole('button', { name: 'Sign out all other sessions' }).click();
      const ask = page.getByRole('dialog', { name: 'Sign out all other sessions?' });
      await ask.getByRole('button', { name: 'Sign out others' }).click();
      await expect(ask).toHaveCount(0);
      // Only this one is left, and it still works.
      await expect(sessions.getByRole('row')).toHaveCount(2);
      await expect(
        page.getByRole('button', { name: 'Sign out all other sessions' }),
      ).toBeDisabled();

      await expectSessionEnded(env, other.page, other.bearer);
      await page.reload();
      await expectSignedIn(page, '/account');
    });
  });

  test('changing the password says the other sessions were signed out, and they are', async ({
    page,
    env,
    browser,
    freshTenant,
  }) => {
    test.setTimeout(120_000);
    const tenant = await freshTenant();
    await withAnotherSession(page, browser, tenant, async (other) => {
      const section = page.getByRole('region', { name: 'Change password' });
      await section.getByLabel(/^Current password/).fill(tenant.admin.password);
      await section.getByLabel(/^New password/).fill(NEW_PASSWORD);
      await section.getByLabel(/^Confirm new password/).fill(NEW_PASSWORD);
      await section.getByRole('button', { name: 'Change password' }).click();
      await expect(section.getByRole('status')).toHaveText(
        'Password changed. Your other sessions were signed out.',
      );

      await expectSessionEnded(env, other.page, other.bearer);
      // The new password is the one that signs in now.
      await passwordGrant(env, tenant.name, { ...tenant.admin, password: NEW_PASSWORD });
      await expect(passwordGrant(env, tenant.name, tenant.admin)).rejects.toThrow();
    });
  });
});
