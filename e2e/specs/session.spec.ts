import { expect, test } from '../fixtures';
import {
  expectSignedIn,
  logoutButton,
  openSignIn,
  signIn,
  signInScreen,
  storedTokens,
} from '../pages';

test.describe('session (remember me, refresh, logout)', () => {
  test('"Remember me" keeps the session in a new browser context', async ({
    browser,
    page,
    env,
  }) => {
    await openSignIn(page, env.demoUrl);
    await signIn(page, { ...env.demoAdmin, rememberMe: true });
    await expectSignedIn(page, '/home');
    const state = await page.context().storageState();

    const next = await browser.newContext({ storageState: state });
    try {
      const again = await next.newPage();
      await again.goto(`${env.demoUrl}/home`);
      await expectSignedIn(again, '/home');
    } finally {
      await next.close();
    }
  });

  test('without "Remember me" a new browser context is signed out', async ({
    browser,
    page,
    env,
  }) => {
    await openSignIn(page, env.demoUrl);
    await signIn(page, env.demoAdmin);
    await expectSignedIn(page, '/home');
    expect((await storedTokens(page)).inLocalStorage).toBe(false);
    const state = await page.context().storageState();

    const next = await browser.newContext({ storageState: state });
    try {
      const again = await next.newPage();
      await again.goto(`${env.demoUrl}/home`);
      await expect(signInScreen(again).submit).toBeVisible();
      await expect(again).not.toHaveURL(/\/home$/);
    } finally {
      await next.close();
    }
  });

  test('logout ends the session and the old refresh token no longer works', async ({
    page,
    env,
    api,
  }) => {
    await openSignIn(page, env.demoUrl);
    await signIn(page, env.demoAdmin);
    await expectSignedIn(page, '/home');
    const { refreshToken } = await storedTokens(page);
    expect(refreshToken).toBeTruthy();

    await logoutButton(page).click();
    await expect(signInScreen(page).submit).toBeVisible();
    await expect(page).toHaveURL(/\/(login)?$/);
    expect(await storedTokens(page)).toMatchObject({ accessToken: null, refreshToken: null });

    const refused = await api.token('demo', {
      grant_type: 'refresh_token',
      refresh_token: refreshToken!,
    });
    expect([400, 401]).toContain(refused.status);
    expect(refused.body.error).toBe('invalid_grant');

    // A page of the shell now asks to sign in again.
    await page.goto(`${env.demoUrl}/home`);
    await expect(signInScreen(page).submit).toBeVisible();
  });

  test('logout lands on /login', async ({ page, env }) => {
    await openSignIn(page, env.demoUrl);
    await signIn(page, env.demoAdmin);
    await expectSignedIn(page, '/home');
    await logoutButton(page).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(signInScreen(page).submit).toBeVisible();
  });

  test('an expired access token is refreshed silently', async ({ page, env }) => {
    await openSignIn(page, env.demoUrl);
    await signIn(page, env.demoAdmin);
    await expectSignedIn(page, '/home');
    const before = await storedTokens(page);

    // Same claims, but expired an hour ago and no longer validly signed.
    await page.evaluate(() => {
      const store = sessionStorage.getItem('access_token') ? sessionStorage : localStorage;
      const [header, payload] = store.getItem('access_token')!.split('.');
      const b64 = (s: string) => s.replace(/-/g, '+').replace(/_/g, '/');
      const claims = JSON.parse(atob(b64(payload!)));
      claims.exp = Math.floor(Date.now() / 1000) - 3600;
      const encoded = btoa(JSON.stringify(claims))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '');
      store.setItem('access_token', `${header}.${encoded}.c2lnbmF0dXJl`);
    });

    const refreshed = page.waitForResponse(
      (response) =>
        response.url().endsWith('/protocol/openid-connect/token') &&
        (response.request().postData() ?? '').includes('grant_type=refresh_token'),
    );
    await page.goto(`${env.demoUrl}/dashboard/users`);
    expect((await refreshed).status()).toBe(200);
    await expectSignedIn(page, '/dashboard/users');
    const after = await storedTokens(page);
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.accessToken!.endsWith('.c2lnbmF0dXJl')).toBe(false);
    // The new token works against the API (the Users list has specs of its own).
    const status = await page.evaluate(async (token) => {
      const response = await fetch('/api/v1.0/users/page', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ pageIndex: 1, pageSize: 10, filter: {} }),
      });
      return response.status;
    }, after.accessToken);
    expect(status).toBe(200);
  });
});
