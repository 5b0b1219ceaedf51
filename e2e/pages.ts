import { expect, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { passwordGrant, type Credentials } from './api-client';
import { e2eEnv } from './env';

/**
 * Page helpers: they find controls by role and label, as a user would, with the console's
 * own words. Labels of required fields may end in " *".
 */
const label = (text: string) => new RegExp(`^${text}\\s*\\*?$`, 'i');

export const signInScreen = (page: Page) => ({
  email: page.getByLabel(label('e-?mail( address)?')),
  password: page.getByLabel(label('password'), { exact: false }).first(),
  rememberMe: page.getByRole('checkbox', { name: /remember me/i }),
  submit: page.getByRole('button', { name: /^(sign in|signing in\.\.\.)$/i }),
  forgotPassword: page.getByRole('link', { name: /forgot password/i }),
  signUp: page.getByRole('link', { name: /sign up/i }),
});

/** Opens the sign-in screen of a console (after "Verifying tenant..."). */
export async function openSignIn(page: Page, baseUrl: string) {
  await page.goto(`${baseUrl}/`);
  await expect(signInScreen(page).submit).toBeVisible();
  await scripted(page);
}

/**
 * Waits until a sign-in page's script has taken it over: before that its forms post to the
 * server (tested on their own), and a test of the scripted page would race it.
 */
export async function scripted(page: Page) {
  await expect(page.locator('html[data-scripted="true"]')).toHaveCount(1);
}

/** Signs in through the form; stays on the page it lands on. */
export async function signIn(
  page: Page,
  {
    email,
    password,
    rememberMe = false,
  }: { email: string; password: string; rememberMe?: boolean },
) {
  const screen = signInScreen(page);
  await screen.email.fill(email);
  await screen.password.fill(password);
  if (rememberMe) await screen.rememberMe.check();
  await screen.submit.click();
}

/** The navigation of the layout shell. */
export const navigation = (page: Page) => page.getByRole('navigation').first();

/** Waits until the layout shell is shown at a path, i.e. the user is signed in. */
export async function expectSignedIn(page: Page, path: RegExp | string) {
  await expect(page).toHaveURL(typeof path === 'string' ? new RegExp(`${path}$`) : path);
  await expect(logoutButton(page)).toBeVisible();
}

export const logoutButton = (page: Page) => page.getByRole('button', { name: /log ?out/i }).last();

/**
 * What the console keeps in browser storage: only the refresh token (localStorage with
 * Remember me, else sessionStorage); the access and ID tokens live in the page's memory.
 */
export async function storedTokens(page: Page) {
  return page.evaluate(() => {
    const stores = [sessionStorage, localStorage];
    const inAny = (key: string) => stores.some((store) => store.getItem(key) !== null);
    return {
      refreshToken:
        sessionStorage.getItem('refresh_token') ?? localStorage.getItem('refresh_token'),
      accessTokenInStorage: inAny('access_token'),
      idTokenInStorage: inAny('id_token'),
      inLocalStorage: localStorage.getItem('refresh_token') !== null,
    };
  });
}

/** Waits for the console's next refresh at the token endpoint; answers its response. */
export const refreshResponse = (page: Page) =>
  page.waitForResponse(
    (response) =>
      response.url().endsWith('/protocol/openid-connect/token') &&
      (response.request().postData() ?? '').includes('grant_type=refresh_token'),
  );

/** A console to sign in to: its address, its realm and its administrator. */
export interface ConsoleHost {
  url: string;
  /** The realm, e.g. a fresh tenant's name, `demo` or `master`. */
  name: string;
  admin: Credentials;
}

/** Signs in through a tenant's sign-in form (its admin unless `as` is given); waits for /home. */
export async function signInTo(
  page: Page,
  tenant: { url: string; admin: Credentials },
  as: Credentials = tenant.admin,
) {
  await openSignIn(page, tenant.url);
  await signIn(page, as);
  await expectSignedIn(page, '/home');
}

/**
 * A signed-in session without the sign-in form, for specs whose subject comes after it (the
 * form has specs of its own: sign-in, session, second factor). The refresh token of a password
 * grant is placed where the console keeps a session that is not remembered; the access token
 * lives in the console's memory only, so the first page restores the session by one refresh,
 * as after a reload. Call before the first page load.
 */
export async function restoreSession(page: Page, realm: string, who: Credentials) {
  const grant = await passwordGrant(e2eEnv(), realm, who);
  await page.addInitScript(placeRefreshToken, [null, grant.refreshToken] as const);
}

/**
 * A signed-in session on one console for every page of a browser context, as `restoreSession`
 * does for one page: placed once per tab, before the console's first page load there.
 */
export async function placeSession(
  context: BrowserContext,
  origin: string,
  realm: string,
  who: Credentials,
) {
  const grant = await passwordGrant(e2eEnv(), realm, who);
  await context.addInitScript(placeRefreshToken, [
    new URL(origin).origin,
    grant.refreshToken,
  ] as const);
}

/**
 * Runs in the page, before its scripts: puts the refresh token in the tab's session storage
 * (on the console's origin only, when one is given). Only on the tab's first page: each
 * refresh rotates the stored token, and a later page (a reload, the sign-in after the session
 * ended) must not put the old one back.
 */
function placeRefreshToken([origin, refresh]: readonly [string | null, string]) {
  if (origin !== null && location.origin !== origin) return;
  if (sessionStorage.getItem('e2e-session-placed')) return;
  sessionStorage.setItem('e2e-session-placed', 'yes');
  sessionStorage.setItem('refresh_token', refresh);
}

/**
 * Opens a console page signed in (its admin unless `as` is given) without the sign-in form:
 * one page load straight to `path` instead of the form, /home and then the screen.
 */
export async function openSignedIn(
  page: Page,
  host: ConsoleHost,
  path = '/home',
  as: Credentials = host.admin,
) {
  await restoreSession(page, host.name, as);
  await page.goto(`${host.url}${path}`);
  // The layout shell's sidebar, whatever language the page speaks (the sign-in page has none).
  await expect(page.locator('#sidebar')).toBeAttached();
}

/** Opens one of a tenant's screens signed in as its admin, and waits for its heading. */
export async function openScreen(page: Page, tenant: ConsoleHost, path: string, heading?: string) {
  await openSignedIn(page, tenant, path);
  const name = heading === undefined ? {} : { name: heading };
  await expect(page.getByRole('heading', { level: 1, ...name })).toBeVisible();
}

/**
 * Clicks the button that opens a menu until the menu is shown, and returns the menu. Lists
 * refetch whenever another test's rows change (other tests' tenants, all the time): a click
 * during that re-render once left the row's cell focused and no menu open (a full run on a
 * loaded machine). A person clicks again; so does this.
 */
export async function openMenuWith(page: Page, button: Locator) {
  const menu = page.getByRole('menu');
  await expect(async () => {
    if (!(await menu.isVisible())) await button.click();
    await expect(menu).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  return menu;
}

/**
 * Opens the per-row menu (View, Edit, Delete) of the row
 * showing `rowText`, and returns the menu: `.getByRole('menuitem', { name: 'Edit' })`.
 */
export const openRowMenu = (page: Page, rowText: string | RegExp) =>
  openMenuWith(
    page,
    page.getByRole('row', { name: rowText }).getByRole('button', { name: /actions|more/i }),
  );

/** The open modal dialog (add, edit, view, delete), optionally by its title. */
export const dialog = (page: Page, title?: string | RegExp) =>
  title === undefined ? page.getByRole('dialog') : page.getByRole('dialog', { name: title });
