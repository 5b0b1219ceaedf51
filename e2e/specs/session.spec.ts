import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import {
  expectSignedIn,
  logoutButton,
  navigation,
  openSignIn,
  refreshResponse,
  signIn,
  signInScreen,
  storedTokens,
} from '../pages';

/** The access token the console is given by a token answer (it is kept in memory only). */
async function accessTokenOf(answer: Promise<{ json(): Promise<unknown> }>) {
  return ((await (await answer).json()) as { access_token: string }).access_token;
}

/** Opens Users from the menu: a move within the page, which keeps the tokens in memory. */
async function openUsers(page: Page) {
  const nav = navigation(page);
  await nav.getByRole('button', { name: 'Administration', exact: true }).click();
  await nav.getByRole('link', { name: 'Users', exact: true }).click();
  await expectSignedIn(page, '/dashboard/users');
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
}

/** Counts the console's refresh requests at the token endpoint from now on. */
function countRefreshes(page: Page) {
  const seen = { count: 0 };
  page.on('request', (request) => {
    if (
      request.url().endsWith('/protocol/openid-connect/token') &&
      (request.postData() ?? '').includes('grant_type=refresh_token')
    ) {
      seen.count += 1;
    }
  });
  return seen;
}

test.describe('session (remember me, refresh, logout)', () => {
  test('"Remember me" keeps the session in a new browser context', async ({
    browser,
    page,
    env,
  }) => {
    await openSignIn(page, env.demoUrl);
    await signIn(page, { ...env.demoAdmin, rememberMe: true });
    await expectSignedIn(page, '/home');
    expect(await storedTokens(page)).toMatchObject({
      refreshToken: expect.any(String),
      inLocalStorage: true,
      accessTokenInStorage: false,
      idTokenInStorage: false,
    });
    const state = await page.context().storageState();

    const next = await browser.newContext({ storageState: state });
    try {
      const again = await next.newPage();
      await again.goto(`${env.demoUrl}/home`);
      await expectSignedIn(again, '/home');
      expect(await storedTokens(again)).toMatchObject({
        accessTokenInStorage: false,
        idTokenInStorage: false,
      });
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
    expect(await storedTokens(page)).toMatchObject({
      refreshToken: expect.any(String),
      inLocalStorage: false,
      accessTokenInStorage: false,
      idTokenInStorage: false,
    });
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
    expect(await storedTokens(page)).toMatchObject({
      refreshToken: null,
      accessTokenInStorage: false,
      idTokenInStorage: false,
    });

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

  test('an access token the API refuses is refreshed silently', async ({ page, env }) => {
    await openSignIn(page, env.demoUrl);
    // The sign-in page hands over to the console with a page load; the console takes its
    // access token with the stored refresh token, and uses it until the API refuses it.
    const restored = refreshResponse(page);
    await signIn(page, env.demoAdmin);
    const before = await accessTokenOf(restored);
    await expectSignedIn(page, '/home');

    // The API refuses the next list request once, as it refuses an expired token.
    await page.route(
      '**/api/v1.0/users/page',
      (route) =>
        route.fulfill({
          status: 401,
          contentType: 'application/problem+json',
          body: JSON.stringify({
            status: 401,
            title: 'Unauthorized',
            code: 'auth.session_invalid',
          }),
        }),
      { times: 1 },
    );
    const bearers: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v1.0/users/page')) {
        bearers.push(request.headers().authorization ?? '');
      }
    });

    const refreshed = refreshResponse(page);
    await openUsers(page);
    expect((await refreshed).status()).toBe(200);
    const after = await accessTokenOf(refreshed);
    expect(after).not.toBe(before);
    // The refused request was sent again, with the new token.
    await expect.poll(() => bearers.slice(0, 2)).toEqual([`Bearer ${before}`, `Bearer ${after}`]);
    expect(await storedTokens(page)).toMatchObject({
      accessTokenInStorage: false,
      idTokenInStorage: false,
    });
  });

  test('a reload restores the session through one refresh, and logout still ends it', async ({
    page,
    env,
  }) => {
    await openSignIn(page, env.demoUrl);
    await signIn(page, env.demoAdmin);
    await expectSignedIn(page, '/home');
    await openUsers(page);
    const { refreshToken: before } = await storedTokens(page);

    const refreshes = countRefreshes(page);
    const unauthenticated: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      // The page's preload of the tenant check, and the event stream (token in its query), aside.
      const aside = ['/api/v1.0/tenants/identify', '/api/v1.0/events'];
      if (!url.pathname.startsWith('/api/v1.0/') || aside.includes(url.pathname)) return;
      if (!request.headers().authorization) unauthenticated.push(url.pathname);
    });
    const refreshed = refreshResponse(page);
    await page.reload();
    expect((await refreshed).status()).toBe(200);
    const renewed = (await (await refreshed).json()) as { id_token?: string };
    await expectSignedIn(page, '/dashboard/users');
    await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
    expect(refreshes.count).toBe(1);
    expect(unauthenticated).toEqual([]);
    const stored = await storedTokens(page);
    expect(stored.refreshToken).not.toBe(before);
    expect(stored).toMatchObject({ accessTokenInStorage: false, idTokenInStorage: false });

    // The ID token came back with the refresh: logout still ends the provider's session.
    expect(renewed.id_token).toBeTruthy();
    const endSession = page.waitForRequest((request) =>
      request.url().includes(`id_token_hint=${renewed.id_token}`),
    );
    await logoutButton(page).click();
    await endSession;
    await expect(page).toHaveURL(/\/login$/);
    await expect(signInScreen(page).submit).toBeVisible();
  });

  test('two tabs of a remembered session restore at once without replaying a refresh token', async ({
    page,
    env,
  }) => {
    await openSignIn(page, env.demoUrl);
    await signIn(page, { ...env.demoAdmin, rememberMe: true });
    await expectSignedIn(page, '/home');
    const other = await page.context().newPage();
    await other.goto(`${env.demoUrl}/home`);
    await expectSignedIn(other, '/home');

    // Both tabs find the same stored refresh token; the lock lets one refresh at a time, and
    // the second reads the token the first received (a replayed one would end the session).
    const refreshes = [refreshResponse(page), refreshResponse(other)];
    await Promise.all([page.reload(), other.reload()]);
    for (const refreshed of refreshes) expect((await refreshed).status()).toBe(200);
    await expectSignedIn(page, '/home');
    await expectSignedIn(other, '/home');
    await other.close();

    // The grant is still alive: another reload restores again.
    const again = refreshResponse(page);
    await page.reload();
    expect((await again).status()).toBe(200);
    await expectSignedIn(page, '/home');
  });
});
