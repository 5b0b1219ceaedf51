import { expect, type Page } from '@playwright/test';

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

/** Signs in on a tenant's own console (its admin unless `as` is given) and waits for /home. */
export async function signInTo(
  page: Page,
  tenant: { url: string; admin: { email: string; password: string } },
  as: { email: string; password: string } = tenant.admin,
) {
  await openSignIn(page, tenant.url);
  await signIn(page, as);
  await expectSignedIn(page, '/home');
}

/** Signs in on a tenant's console and opens one of its screens, waiting for its heading. */
export async function openScreen(
  page: Page,
  tenant: { url: string; admin: { email: string; password: string } },
  path: string,
  heading?: string,
) {
  await signInTo(page, tenant);
  await page.goto(`${tenant.url}${path}`);
  const name = heading === undefined ? {} : { name: heading };
  await expect(page.getByRole('heading', { level: 1, ...name })).toBeVisible();
}

/**
 * Opens the per-row menu (View, Edit, Delete) of the row
 * showing `rowText`, and returns the menu: `.getByRole('menuitem', { name: 'Edit' })`.
 */
export async function openRowMenu(page: Page, rowText: string | RegExp) {
  await page
    .getByRole('row', { name: rowText })
    .getByRole('button', { name: /actions|more/i })
    .click();
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  return menu;
}

/** The open modal dialog (add, edit, view, delete), optionally by its title. */
export const dialog = (page: Page, title?: string | RegExp) =>
  title === undefined ? page.getByRole('dialog') : page.getByRole('dialog', { name: title });
